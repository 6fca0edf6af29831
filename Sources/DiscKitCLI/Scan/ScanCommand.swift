import ArgumentParser
import DiscKit

/// `disckit scan SOURCE`: the PES pre-scan of a transport stream.
struct ScanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scan",
    abstract:
      "Find the first PAT, first IDR and first audio PTS of a stream file or a disc title.",
    discussion: """
      Reads a window (default 30M) of a .m2ts/.ts/.mts file from --offset and reports, per video \
      PID, the PTS of the first PES and of the first random access point (H.264/HEVC IDR, HEVC \
      CRA/BLA separately, MPEG-2 I-picture after a sequence header, VC-1 entry point) and the \
      pre-IDR gap; per audio PID the first PTS; and the A/V offset. PES packets that start before \
      the first PAT are counted (pesBeforePAT) and otherwise ignored, as GStreamer's tsdemux drops \
      them. PTS values are the raw 33-bit 90 kHz values in the stream; differences are taken \
      modulo 2^33. Sizes accept K, M, G suffixes (powers of 1024).

      SOURCE may also be a disc image or folder. On a Blu-ray the title (--playlist 00800 or \
      --title N as numbered by `disckit titles`, default the main title) is scanned as one stream \
      of its clip ranges, from its start or from the random access point at or before --at \
      SECONDS (CLPI EP map). On a DVD the title (--title N, default the main \
      title) is scanned as an MPEG program stream from its start, or from the VOBU playing at \
      --at SECONDS; the report then has stream ids instead of PIDs (container "mpeg-ps").

      On a stream file, --at SECONDS starts the scan at the last video random access point whose \
      PTS is at most SECONDS after the first video PTS (bisection of the file by PES time \
      stamps, then a backward search for the keyframe), moved back over the PAT/PMT packets just \
      before it; the JSON report gains a "seek" object (offset, accessPointOffset, pts, seconds, \
      placement, clamped, warnings). --at and --offset are exclusive.
      """)

  @Argument(help: "A .m2ts, .ts or .mts file, or a disc image or folder (see --title).")
  var source: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Scan every disc image and disc folder under ROOT (or each path read from standard input, with -): one JSON line per disc, in order.",
      valueName: "ROOT|-"))
  var batch: String?

  @Option(name: .long, help: "Discs read at once with --batch (default: the number of cores).")
  var jobs: Int = BatchRunner.defaultWidth

  @Flag(
    name: .long,
    help: "With --batch ROOT, also follow symbolic links whose target lies outside ROOT.")
  var followLinks = false

  @Option(help: "Byte offset where the scan starts (K/M/G suffixes allowed).")
  var offset: String = "0"

  @Option(
    name: .customLong("bytes"), help: "Bytes to scan from the offset (K/M/G suffixes allowed).")
  var bytes: String = "30M"

  @Option(
    name: .customLong("payload-bound"),
    help: "Bytes of each video PES payload searched for the IDR.")
  var payloadBound: Int = 4096

  @Option(help: "A title of a disc image (default: the main title).")
  var title: Int?

  @Option(
    help:
      "A Blu-ray playlist of a disc image, e.g. 00800."
  )
  var playlist: String?

  @Option(
    help:
      "Start SECONDS into the title (disc images), or into a stream file: at the last random access point at or before that time after the first video PTS."
  )
  var at: Double?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Disc titles: the timeline of the scanned bytes (continuous, as extract and serve give them, or original).",
      discussion:
        "The timestamps reported are those of the bytes `disckit extract --timeline T` writes and `disckit serve` streams with timeline=T."
    ))
  var timeline: TitleTimeline = .continuous

  @OptionGroup var output: JSONFlag

  /// The request the parsed arguments describe.
  var request: ScanRequest {
    var request = ScanRequest()
    request.source = source
    request.batch = batch
    request.jobs = jobs
    request.followLinks = followLinks
    request.offset = offset
    request.bytes = bytes
    request.payloadBound = payloadBound
    request.title = title
    request.playlist = playlist
    request.at = at
    request.timeline = timeline
    request.json = output.json
    return request
  }

  func validate() throws {
    if let failure = request.validationFailure { throw ValidationError(failure) }
  }

  func run() throws {
    try request.run()
  }
}
