import ArgumentParser
import DiscKit
import DiscKitCLI
import DiscKitServer
import DiscKitTranscode
import Logging

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `disckit serve` (run by `disckit` through its helper-program mechanism, or directly).
@main
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "disckit serve",
    abstract: ServeArguments.abstract,
    discussion: ServeArguments.discussion)

  @OptionGroup var arguments: ServeArguments

  /// One malloc arena for the whole server, set before any other thread exists: glibc's default
  /// (up to 8 a core) keeps each thread's freed buffers in an arena of its own, 4-5 MiB more
  /// resident memory under 64 HLS clients (issue 29: 63-64 MiB peak against 67-71).
  static func main() async {
    MallocPolicy.singleArena()
    await main(nil)
  }

  func run() async throws {
    let (root, host, port, token) = (
      arguments.root, arguments.host, arguments.port, arguments.token
    )
    let (maxStreams, idleTimeout, cacheDiscs, quiet) = (
      arguments.maxStreams, arguments.idleTimeout, arguments.cacheDiscs, arguments.quiet
    )
    LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
    var logger = Logger(label: "disckit.serve")
    logger.logLevel = quiet ? .warning : .info
    var options = DiscServer.Options(root: root)
    options.host = host
    options.port = port
    options.idleTimeout = idleTimeout
    options.configuration = DiscServerConfiguration(
      token: token, maxStreams: maxStreams, cacheCapacity: cacheDiscs)
    options.configuration.followLinks = arguments.followLinks
    options.configuration.subtitleWait = .milliseconds(Int64(arguments.subtitleWait * 1000))
    // WebVTT subtitle renditions: recognised by the `disckit-subtitles` helper (the only program
    // linking libtesseract), run as a child process; without it, HLS has no subtitles.
    if let helper = HelperProgram.locate(SubtitleExtraction.helperProgram) {
      options.configuration.subtitles = SubtitleHelperProvider(executable: helper) {
        [logger] line in logger.warning("\(line)")
      }
    } else {
      logger.warning(
        "disckit-subtitles is not installed beside disckit-serve or on PATH: the HLS playlists have no subtitle renditions"
      )
    }
    options.configuration.audioTranscoder = LibAVAudioTranscoder()
    if let maxTranscodes = arguments.maxTranscodes {
      options.configuration.maxTranscodes = maxTranscodes
    }
    let server: DiscServer
    do {
      server = try DiscServer(options: options, logger: logger)
    } catch {
      FileHandleOutput.error(error.commandLineMessage)
      throw ExitCode(error.code.exitCode)
    }
    let count = server.routes.library.entries().count
    try await server.run { port in
      let shown = host.contains(":") ? "[\(host)]" : host
      FileHandleOutput.line("disckit serve: http://\(shown):\(port)/discs (\(count) discs)")
    }
  }
}

/// Unbuffered lines on stdout and stderr.
enum FileHandleOutput {
  static func line(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(1, $0, strlen($0)) }
  }

  static func error(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
  }
}

/// glibc's `mallopt(M_ARENA_MAX, 1)` and `mallopt(M_MMAP_THRESHOLD, 256 KiB)`, looked up at run
/// time (the Swift Glibc module does not declare `mallopt`); nothing elsewhere. A fixed mmap
/// threshold keeps glibc from raising it after the first large block is freed (its default:
/// up to 32 MiB), so the codecs' large buffers (a FLAC encoder's per-channel blocks) stay
/// mapped on their own and go back to the kernel when a transcode ends, instead of fragmenting
/// the one heap: 64 FLAC clients peaked at 156 MiB with 4 transcodes at once, 90 MiB with it
/// (release, load 12-13, VmHWM; 230 MiB without either).
enum MallocPolicy {
  static func singleArena() {
    #if canImport(Glibc)
      guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "mallopt") else {
        return
      }
      typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
      let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
      let arenaMax: Int32 = -8  // M_ARENA_MAX in <malloc.h>
      let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
      _ = mallopt(arenaMax, 1)
      _ = mallopt(mmapThreshold, 256 << 10)
    #endif
  }
}
