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
      cannot be read. Symbolic links are followed while they stay inside ROOT (the rule of \
      disckit serve); --follow-links follows them anywhere. With --batch -, the paths are read from standard input, one per line, and \
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
  @Flag(
    name: .long,
    help: "With --batch ROOT, also follow symbolic links whose target lies outside ROOT.")
  var followLinks = false

  /// The request the parsed arguments describe.
  var request: TitlesRequest {
    var request = TitlesRequest()
    request.image = image
    request.all = options.all
    request.select = options.select
    request.minLength = options.minLength
    request.json = options.output.json
    request.batch = batch
    request.jobs = jobs
    request.followLinks = followLinks
    return request
  }

  func validate() throws {
    if let failure = request.validationFailure { throw ValidationError(failure) }
  }

  func run() throws {
    try request.run()
  }
}
