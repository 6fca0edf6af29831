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

/// `disckit titles SOURCE` (or `--batch ROOT|-`).
struct TitlesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "titles",
    abstract: "List the titles of a Blu-ray or DVD and mark the main title.",
    discussion: """
      With --batch ROOT, every disc image (*.iso, *.img, *.udf) and disc folder (holding BDMV/ \
      or VIDEO_TS/) under ROOT is read, several at once, and one JSON line is printed per disc \
      in path order: {"path":...,"titles":{...}} or {"path":...,"error":{...}} for a disc that \
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
        failures = try BatchRunner.run(
          root: root, width: jobs, label: "titles", key: "titles",
          work: { path in
            try TitlesDocument.make(disc: try DiscImage.open(path: path), options: options)
          })
      }
      if failures > 0 { throw ExitCode.failure }
      return
    }
    try reportingErrors {
      guard let image else { return }
      let disc = try DiscImage.open(path: image)
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
