import DiscKit
import DiscKitStreaming
import Hummingbird
import Logging
import NIOCore

/// A ready-to-run server of the disc routes: what `disckit serve` runs.
public struct DiscServer: Sendable {
  /// Where to listen and how.
  public struct Options: Sendable {
    /// The folder (searched recursively) or the one image to serve.
    public var root: String
    /// The address to bind (loopback unless told otherwise).
    public var host: String = "127.0.0.1"
    /// The port (0: any free port, printed when the server runs).
    public var port: Int = 8080
    /// Route settings (token, stream limit...).
    public var configuration = DiscServerConfiguration()
    /// Seconds an idle connection is kept.
    public var idleTimeout: Int64 = 60
    /// The longest header field and header list accepted, bytes.
    public var maxHeaderBytes: Int = 16 << 10

    /// Options for `root`.
    public init(root: String) { self.root = root }
  }

  /// The options.
  public let options: Options
  /// The routes.
  public let routes: DiscRoutes<DiscRequestContext>
  /// The logger (access logs at `info`).
  public let logger: Logger

  /// Resolves the root; nothing is bound yet.
  public init(options: Options, logger: Logger) throws(DiscKitError) {
    self.options = options
    self.logger = logger
    self.routes = try DiscRoutes(root: options.root, configuration: options.configuration)
  }

  /// Binds and serves until SIGINT/SIGTERM; `onRunning` gets the bound port.
  public func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
    let router = Router(context: DiscRequestContext.self)
    router.addRoutes(routes.collection(accessLog: logger))
    let app = Application(
      router: router,
      server: .http1(
        configuration: .init(
          idleTimeout: .seconds(options.idleTimeout),
          httpDecoderConfiguration: .init(
            maxHeaderFieldSize: options.maxHeaderBytes, maxHeaderListSize: options.maxHeaderBytes,
            maxHeaderFieldCount: 100))),
      configuration: .init(
        address: .hostname(options.host, port: options.port), serverName: "disckit"),
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
      logger: logger)
    try await app.runService()
  }
}
