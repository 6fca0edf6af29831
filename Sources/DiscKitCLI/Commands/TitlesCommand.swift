import ArgumentParser
import DiscKit

extension TitleSelection: ExpressibleByArgument {}

/// Options of `disckit titles`.
struct TitlesOptions: ParsableArguments {
  @Flag(
    name: .long, help: "List every playlist/title, with the reason the selector set each aside.")
  var all = false
  @Option(
    name: .long,
    help: "Main-title selection: smart (default), libbluray (Blu-ray parity), lsdvd (DVD parity).")
  var select: TitleSelection = .smart
  @Option(name: .long, help: "Hide titles shorter than SECONDS.")
  var minLength: Double?
  @OptionGroup var output: JSONFlag

  /// The titles document these options ask for.
  func document(for disc: Disc) throws(DiscKitError) -> TitlesDocument {
    try TitlesDocument(
      disc: disc, selection: select, includeExcluded: all,
      minimumLength: minLength.map { MediaTime(seconds: $0) })
  }
}

/// `disckit titles SOURCE`.
struct TitlesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "titles",
    abstract: "List the titles of a Blu-ray or DVD and mark the main title.")

  @OptionGroup var image: ImageArgument
  @OptionGroup var options: TitlesOptions

  func run() throws {
    try reportingErrors {
      let disc = try Disc(image: try image.open())
      let document = try options.document(for: disc)
      if options.output.json {
        Output.line(try Output.json(document))
      } else {
        for line in TitlesText.lines(document) { Output.line(line) }
      }
    }
  }
}
