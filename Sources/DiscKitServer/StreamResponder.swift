import DiscKit
import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix

/// Answers a GET or HEAD of a ``TitleResource``: ranges, validators, conditional requests, and a
/// streaming body read in chunks on a thread pool.
public struct StreamResponder: Sendable {
  /// Bytes per read.
  public let chunkSize: Int
  /// Where the blocking reads run.
  public let threadPool: NIOThreadPool
  /// Bounds the concurrent streams.
  public let limiter: StreamLimiter

  /// Creates a responder.
  public init(chunkSize: Int, threadPool: NIOThreadPool = .singleton, limiter: StreamLimiter) {
    self.chunkSize = chunkSize
    self.threadPool = threadPool
    self.limiter = limiter
  }

  /// The response to `request` for `resource`.
  ///
  /// - Parameter eventLoop: the event loop of the request's connection
  ///   (``ConnectionEventLoopContext``): with it, at most three chunks of the body are in memory
  ///   at once, whatever the client's speed.
  public func respond(
    to request: Request, resource: TitleResource, eventLoop: (any EventLoop)? = nil
  ) throws(ServerError) -> Response {
    let size = resource.length
    var headers: HTTPFields = [
      .acceptRanges: "bytes", .eTag: resource.eTag, .lastModified: resource.lastModified,
      .contentType: resource.contentType,
    ]
    if let inm = request.headers[.ifNoneMatch], Self.matches(inm, resource.eTag) {
      headers[.contentType] = nil
      return Response(status: .notModified, headers: headers, body: .init())
    }
    var rangeHeader = request.headers[.range]
    if rangeHeader != nil, let ifRange = request.headers[.ifRange]?.trimmingSpaces {
      // A strong ETag or the exact Last-Modified date keeps the range; anything else sends all.
      let keep =
        ifRange.hasPrefix("\"") ? ifRange == resource.eTag : ifRange == resource.lastModified
      if !keep { rangeHeader = nil }
    }
    let range: Range<Int64>
    var status: HTTPResponse.Status = .ok
    switch ByteRangeRequest(header: rangeHeader, size: size) {
    case .whole:
      range = 0..<size
    case .partial(let r):
      range = r
      status = .partialContent
      headers[.contentRange] = "bytes \(r.lowerBound)-\(r.upperBound - 1)/\(size)"
    case .unsatisfiable:
      var error = ServerError(.rangeNotSatisfiable, "range not satisfiable (size \(size))")
      error.headers[.contentRange] = "bytes */\(size)"
      error.headers[.acceptRanges] = "bytes"
      throw error
    }
    headers[.contentLength] = String(range.count)
    if request.method == .head || range.isEmpty {
      return Response(status: status, headers: headers, body: .init())
    }
    guard let ticket = limiter.acquire() else {
      throw ServerError(
        .serviceUnavailable, "\(limiter.maximum) streams are already running",
        headers: [.retryAfter: "1"])
    }
    let body = body(source: resource.source, range: range, ticket: ticket, eventLoop: eventLoop)
    return Response(status: status, headers: headers, body: body)
  }

  /// A body streaming `range` of `source`: reads of ``chunkSize`` bytes on the thread pool, the
  /// next read overlapping the write of the current chunk; each write waits for the connection
  /// (backpressure). With the connection's `eventLoop`, each write also waits until the event loop
  /// has taken the chunk (see ``ConnectionEventLoopContext``), so that the next write sees the
  /// connection's writability: at most three chunks are in memory. The ticket is held until the
  /// body ends or is dropped.
  func body(
    source: any ByteSource, range: Range<Int64>, ticket: StreamLimiter.Ticket,
    eventLoop: (any EventLoop)? = nil
  ) -> ResponseBody {
    let chunkSize = chunkSize
    let pool = threadPool
    return ResponseBody(contentLength: Int(range.count)) { writer in
      withExtendedLifetime(ticket) {}
      let read: @Sendable (Int64) async throws -> ByteBuffer = { position in
        let count = Int(min(Int64(chunkSize), range.upperBound - position))
        return try await pool.runIfActive {
          var buffer = ByteBufferAllocator().buffer(capacity: count)
          let got = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
            try source.readFully(
              at: position, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]))
          }
          guard got == count else {
            throw DiscKitError.truncated("title stream", at: position, needed: Int64(count))
          }
          return buffer
        }
      }
      let first = range.lowerBound
      var position = first
      var pending: Task<ByteBuffer, any Error>? = Task { try await read(first) }
      defer { pending?.cancel() }
      while let task = pending {
        let buffer = try await task.value
        position += Int64(buffer.readableBytes)
        let next = position
        pending = next < range.upperBound ? Task { try await read(next) } : nil
        try await writer.write(buffer)
        // The event loop runs its tasks in order: once this one has run, so has the write above,
        // and the writer knows whether the connection can take more.
        if let eventLoop { try await eventLoop.submit {}.get() }
      }
      try await writer.finish(nil)
      withExtendedLifetime(ticket) {}
    }
  }

  /// Whether an `If-None-Match` list matches `eTag` (weak comparison, `*` matches).
  static func matches(_ list: String, _ eTag: String) -> Bool {
    let bare = eTag.hasPrefix("W/") ? String(eTag.dropFirst(2)) : eTag
    for item in list.split(separator: ",") {
      var tag = item.trimmingSpaces
      if tag == "*" { return true }
      if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
      if tag == bare { return true }
    }
    return false
  }
}
