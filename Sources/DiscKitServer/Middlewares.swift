import DiscKitStreaming
import HTTPTypes
import Hummingbird
import Logging

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Requires `Authorization: Bearer TOKEN` (or `?token=TOKEN`) on every request; 401 otherwise.
/// Compared in constant time.
public struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
  let token: [UInt8]

  /// Creates the middleware for `token`.
  public init(token: String) { self.token = Array(token.utf8) }

  /// Answers 401 unless the request carries the token; otherwise passes it on.
  public func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var offered: Substring?
    if let header = request.headers[.authorization] {
      let parts = header.split(separator: " ", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "bearer" { offered = parts[1].trimmingSpaces }
    }
    if offered == nil, let query = request.uri.queryParameters["token"] { offered = query }
    guard let offered, Self.equal(Array(offered.utf8), token) else {
      return ServerError(
        .unauthorized, "missing or wrong bearer token",
        headers: [.wwwAuthenticate: "Bearer realm=\"disckit\""]
      ).response()
    }
    return try await next(request, context)
  }

  static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for i in 0..<max(a.count, b.count) {
      difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
    }
    return difference == 0
  }
}

/// Refuses request targets that are too long (414), hold a NUL or a `..` segment, raw or
/// percent-encoded (400), before any route sees them.
public struct RequestTargetMiddleware<Context: RequestContext>: RouterMiddleware {
  /// The longest request target accepted.
  public var maxLength: Int

  /// Creates the middleware.
  public init(maxLength: Int = 4096) { self.maxLength = maxLength }

  /// `text` with its `%XX` escapes decoded (bytes that are not UTF-8 as U+FFFD), or nil when an
  /// escape is malformed: Foundation's `removingPercentEncoding`, which FoundationEssentials
  /// lacks.
  static func percentDecoded(_ text: String) -> String? {
    func hex(_ byte: UInt8) -> UInt8? {
      switch byte {
      case 0x30...0x39: byte - 0x30
      case 0x41...0x46: byte - 0x41 + 10
      case 0x61...0x66: byte - 0x61 + 10
      default: nil
      }
    }
    let bytes = Array(text.utf8)
    var decoded: [UInt8] = []
    decoded.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      guard bytes[i] == 0x25 else {
        decoded.append(bytes[i])
        i += 1
        continue
      }
      guard i + 2 < bytes.count, let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]) else {
        return nil
      }
      decoded.append(high << 4 | low)
      i += 3
    }
    return String(decoding: decoded, as: UTF8.self)
  }

  /// Answers 414 or 400 for a refused target; otherwise passes the request on.
  public func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let target = request.uri.string
    guard target.utf8.count <= maxLength else {
      return ServerError(.uriTooLong, "request target longer than \(maxLength) bytes").response()
    }
    let decoded = Self.percentDecoded(target) ?? target
    if decoded.utf8.contains(0) || target.lowercased().contains("%00") {
      return ServerError(.badRequest, "NUL in the request target").response()
    }
    let path = decoded.split(separator: "?", maxSplits: 1).first ?? ""
    if path.split(separator: "/", omittingEmptySubsequences: false).contains(where: {
      $0 == ".." || $0 == "." || $0.contains("\\")
    }) {
      return ServerError(.badRequest, "path segments . and .. are not allowed").response()
    }
    return try await next(request, context)
  }
}

/// One access-log line per request: method, path, status, bytes (Content-Length), duration.
/// The query's `token` is never logged.
public struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
  let logger: Logger

  /// Creates the middleware logging to `logger` at `info`.
  public init(logger: Logger) { self.logger = logger }

  /// Passes the request on and logs one line when it is answered (or fails).
  public func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let start = ContinuousClock.now
    var path = request.uri.path
    if let query = request.uri.query {
      let kept = query.split(separator: "&").filter { !$0.hasPrefix("token=") }
      if !kept.isEmpty { path += "?" + kept.joined(separator: "&") }
    }
    do {
      let response = try await next(request, context)
      log(
        request, path: path, status: response.status.code,
        bytes: response.headers[.contentLength] ?? "-", start: start)
      return response
    } catch {
      let status = (error as? any HTTPResponseError)?.status.code ?? 500
      log(request, path: path, status: status, bytes: "-", start: start)
      throw error
    }
  }

  private func log(
    _ request: Request, path: String, status: Int, bytes: String, start: ContinuousClock.Instant
  ) {
    let elapsed = ContinuousClock.now - start
    let ms =
      Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    logger.info(
      "\(request.method.rawValue) \(path) \(status) \(bytes) \(ms.fixed(1))ms")
  }
}
