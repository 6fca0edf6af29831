import ArgumentParser
import DiscKit
import DiscKitCLI
import DiscKitServer
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
    abstract: "Serve the discs under ROOT over HTTP to players and streaming servers.",
    discussion: """
      ROOT is a folder, searched recursively for .iso images and folders holding BDMV/ or \
      VIDEO_TS/, or one image. Routes: GET /discs, /discs/{id}, /discs/{id}/titles, \
      GET|HEAD /discs/{id}/titles/{key}/stream[?start=SECONDS][&angle=K], \
      /discs/{id}/titles/{key}/scan[?start=SECONDS], /discs/{id}/titles/{key}/chapters, /status. \
      The first line on stdout is the URL the server listens on.
      """)

  @Argument(help: "A folder of disc images and disc folders, or one image.")
  var root: String

  @Option(help: "Address to bind (default loopback only).")
  var host = "127.0.0.1"

  @Option(help: "Port (0 picks a free one).")
  var port = 8080

  @Option(help: "Require `Authorization: Bearer SECRET` (or ?token=SECRET).")
  var token: String?

  @Option(help: "Most streams served at once (more get 503).")
  var maxStreams = 64

  @Option(help: "Seconds an idle connection is kept open.")
  var idleTimeout: Int64 = 60

  @Option(help: "Opened discs kept in memory.")
  var cacheDiscs = 16

  @Flag(help: "No access log on stderr.")
  var quiet = false

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
    guard maxStreams >= 1 else { throw ValidationError("--max-streams must be at least 1") }
    guard idleTimeout >= 1 else { throw ValidationError("--idle-timeout must be at least 1") }
    guard cacheDiscs >= 1 else { throw ValidationError("--cache-discs must be at least 1") }
    if let token, token.isEmpty { throw ValidationError("--token must not be empty") }
  }

  func run() async throws {
    LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
    var logger = Logger(label: "disckit.serve")
    logger.logLevel = quiet ? .warning : .info
    var options = DiscServer.Options(root: root)
    options.host = host
    options.port = port
    options.idleTimeout = idleTimeout
    options.configuration = DiscServerConfiguration(
      token: token, maxStreams: maxStreams, cacheCapacity: cacheDiscs)
    let server: DiscServer
    do {
      server = try DiscServer(options: options, logger: logger)
    } catch {
      FileHandleOutput.error("disckit: \(error)")
      throw ExitCode(error.code.exitCode)
    }
    let count = server.routes.library.entries().count
    let host = self.host
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
