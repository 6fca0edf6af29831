import ArgumentParser
import DiscKit

/// How the main title is chosen.
enum TitleSelection: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// DiscKit's own selection (resists decoy playlists and fake titles); says why it chose.
  case smart
  /// libbluray's title list and main-title guess, exactly (Blu-ray).
  case libbluray
  /// lsdvd's "longest track", exactly (DVD).
  case lsdvd
}

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
      let disc = try image.open()
      switch disc.kind {
      case .bluray, .uhdBluray, .avchd: try BlurayCLI.titles(disc: disc, options: options)
      case .dvd: try DVDCLI.titles(disc: disc, options: options)
      case .data:
        throw DiscKitError(
          .unsupported, disc.path, at: nil,
          "neither BDMV/index.bdmv nor VIDEO_TS/VIDEO_TS.IFO found")
      }
    }
  }
}
