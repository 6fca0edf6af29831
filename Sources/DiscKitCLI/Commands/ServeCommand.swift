import ArgumentParser

/// The arguments of `disckit serve`, shared by the `disckit` entry (help only) and the helper
/// program `disckit-serve` that does the work, so both print the same help.
package struct ServeArguments: ParsableArguments {
  package static let abstract =
    "Serve the discs under ROOT over HTTP to players and streaming servers."
  package static let discussion = """
    ROOT is a folder, searched recursively for .iso images and folders holding BDMV/ or \
    VIDEO_TS/ (symbolic links followed while they stay inside ROOT, as titles --batch does; \
    anywhere with --follow-links), or one image. Routes: GET /discs, /discs/{id}, /discs/{id}/titles, \
    GET|HEAD /discs/{id}/titles/{key}/stream[?timeline=continuous|original][&start=SECONDS]\
    [&angle=K], /discs/{id}/titles/{key}/scan[?start=SECONDS][&bytes=N], \
    /discs/{id}/titles/{key}/chapters, /discs/{id}/titles/{key}/index.m3u8 (HLS, Blu-ray) over \
    GET|HEAD /discs/{id}/titles/{key}/stream.ts, /discs/{id}/titles/{key}/master-ts.m3u8 (its \
    multivariant playlist), /discs/{id}/titles/{key}/master.m3u8 (HLS with fMP4 segments, \
    files under .../fmp4/, WebVTT subtitle renditions under .../subtitles/, their text \
    recognised by the helper disckit-subtitles on the first request and cached), /status, and \
    GET / (the library page, a player in the browser). \
    The first line on stdout is the URL the \
    server listens on. Runs in the helper program disckit-serve (installed beside disckit), the \
    only one linking the HTTP server stack; exit 69 when it is missing.
    """

  @Argument(help: "A folder of disc images and disc folders, or one image.")
  package var root: String

  @Option(help: "Address to bind (default loopback only).")
  package var host = "127.0.0.1"

  @Option(help: "Port (0 picks a free one).")
  package var port = 8080

  @Option(help: "Require `Authorization: Bearer SECRET` (or ?token=SECRET).")
  package var token: String?

  @Option(help: "Most streams served at once (more get 503).")
  package var maxStreams = 64

  @Option(
    help: ArgumentHelp(
      "Most requests transcoding audio at once (AAC/FLAC segments; more wait). Default: 2 per processor.",
      valueName: "count"))
  package var maxTranscodes: Int?

  @Option(help: "Seconds an idle connection is kept open.")
  package var idleTimeout: Int64 = 60

  @Option(help: "Opened discs kept in memory.")
  package var cacheDiscs = 16

  @Flag(help: "No access log on stderr.")
  package var quiet = false

  @Flag(help: "Also serve what symbolic links whose target lies outside ROOT lead to.")
  package var followLinks = false

  @Option(
    help: ArgumentHelp(
      "Seconds a request waits for subtitle text being recognised before a 503 with Retry-After.",
      valueName: "seconds"))
  package var subtitleWait = 5.0

  package init() {}

  package func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
    guard maxStreams >= 1 else { throw ValidationError("--max-streams must be at least 1") }
    if let maxTranscodes, maxTranscodes < 1 {
      throw ValidationError("--max-transcodes must be at least 1")
    }
    guard idleTimeout >= 1 else { throw ValidationError("--idle-timeout must be at least 1") }
    guard cacheDiscs >= 1 else { throw ValidationError("--cache-discs must be at least 1") }
    if let token, token.isEmpty { throw ValidationError("--token must not be empty") }
    guard subtitleWait >= 0, subtitleWait <= 600 else {
      throw ValidationError("--subtitle-wait must be 0 to 600 seconds")
    }
  }

  /// The command line that gives the helper these arguments.
  package var commandLine: [String] {
    var line = [
      root, "--host", host, "--port", String(port), "--max-streams", String(maxStreams),
      "--idle-timeout", String(idleTimeout), "--cache-discs", String(cacheDiscs),
      "--subtitle-wait", String(subtitleWait),
    ]
    if let token { line += ["--token", token] }
    if let maxTranscodes { line += ["--max-transcodes", String(maxTranscodes)] }
    if quiet { line.append("--quiet") }
    if followLinks { line.append("--follow-links") }
    return line
  }
}

/// `disckit serve` as `disckit` knows it: listed in the help (and `disckit help serve`), while the
/// command line itself is handed to `disckit-serve` before parsing
/// (``HelperProgram/dispatchIfDelegated(_:)``). Reached only when `disckit` is driven without that
/// dispatch (as a library); it then runs the helper the same way.
struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: ServeArguments.abstract,
    discussion: ServeArguments.discussion)

  @OptionGroup var arguments: ServeArguments

  func run() throws {
    HelperProgram.exec(
      "disckit-serve", arguments: arguments.commandLine, purpose: "`disckit serve`")
    throw ExitCode(HelperProgram.unavailableExitCode)
  }
}
