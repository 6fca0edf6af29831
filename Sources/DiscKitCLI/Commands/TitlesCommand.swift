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

/// `disckit titles SOURCE` (or `--batch ROOT|-`).
struct TitlesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "titles",
    abstract: "List the titles of a Blu-ray or DVD and mark the main title.",
    discussion: """
      With --batch ROOT, every disc image (*.iso, *.img, *.udf) and disc folder (holding BDMV/ \
      or VIDEO_TS/) under ROOT is read, several at once, and one JSON line is printed per disc \
      in path order: {"path":...,"titles":{...}} or {"path":...,"error":"..."} for a disc that \
      cannot be read. With --batch -, the paths are read from standard input, one per line, and \
      printed in that order. Exit status 1 when any disc failed.
      """)

  @Argument(help: "A disc image (.iso, UDF or ISO9660) or a folder holding BDMV/ or VIDEO_TS/.")
  var image: String?
  @OptionGroup var options: TitlesOptions
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Read every disc under ROOT (or each path read from standard input, with -): one JSON line per disc, in order.",
      valueName: "ROOT|-"))
  var batch: String?
  @Option(name: .long, help: "Discs read at once with --batch (default: the number of cores).")
  var jobs: Int = BatchRunner.defaultWidth

  func validate() throws {
    if (image == nil) == (batch == nil) {
      throw ValidationError("give either IMAGE or --batch ROOT|-")
    }
    guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
  }

  func run() throws {
    if let root = batch {
      var failures = 0
      let options = options
      try reportingErrors {
        failures = try BatchRunner.run(root: root, width: jobs, label: "titles") { path in
          BatchRunner.line(
            path: path,
            work: { path throws(DiscKitError) in
              try options.document(for: try Disc(image: try DiscImage.open(path: path)))
            },
            success: { TitlesBatchLine(path: path, titles: $0) },
            failure: { TitlesBatchLine(path: path, error: $0) })
        }
      }
      if failures > 0 { throw ExitCode.failure }
      return
    }
    try reportingErrors {
      guard let image else { return }
      let disc = try Disc(image: try DiscImage.open(path: image))
      let document = try options.document(for: disc)
      if options.output.json {
        Output.line(try Output.json(document))
      } else {
        for line in TitlesText.lines(document) { Output.line(line) }
      }
    }
  }
}
