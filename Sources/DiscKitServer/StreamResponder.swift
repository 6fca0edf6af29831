import DiscKit
import DiscKitStreaming
import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix

/// Answers a GET or HEAD of a ``DiscKitStreaming/TitleResource``: the streaming core's
/// ``DiscKitStreaming/TitleResponse`` (ranges, validators, conditional requests) as a Hummingbird
/// response, with a body of ``DiscKitStreaming/ByteChunks`` read on a thread pool.
public struct StreamResponder: Sendable {
  /// Bytes per read.
  public let chunkSize: Int
  /// Where the blocking reads run.
  public let threadPool: NIOThreadPool
  /// Bounds the concurrent streams.
  public let limiter: StreamLimiter
  /// A streaming body's chunk size, given the streams active when it starts (itself included).
  public let chunkSizeForActiveStreams: @Sendable (Int) -> Int
  let executor: ThreadPoolTaskExecutor

  /// Creates a responder; `chunkSizeForActiveStreams` (default: always `chunkSize`) sizes the
  /// chunks of a streaming body by the streams active (see
  /// ``DiscKitStreaming/DiscServerConfiguration/chunkSize(forActiveStreams:)``).
  public init(
    chunkSize: Int, threadPool: NIOThreadPool = .singleton, limiter: StreamLimiter,
    chunkSizeForActiveStreams: (@Sendable (Int) -> Int)? = nil
  ) {
    self.chunkSize = chunkSize
    self.threadPool = threadPool
    self.limiter = limiter
    self.chunkSizeForActiveStreams = chunkSizeForActiveStreams ?? { _ in chunkSize }
    self.executor = ThreadPoolTaskExecutor(threadPool)
  }

  /// The response to `request` for `resource`.
  ///
  /// - Parameter eventLoop: the event loop of the request's connection
  ///   (``ConnectionEventLoopContext``): with it, at most three chunks of the body are in memory
  ///   at once, whatever the client's speed.
  public func respond(
    to request: Request, resource: TitleResource, eventLoop: (any EventLoop)? = nil
  ) async throws(ServerError) -> Response {
    try await respond(
      to: request, source: resource.source, eTag: resource.eTag,
      lastModified: resource.lastModified, contentType: resource.contentType,
      eventLoop: eventLoop)
  }

  /// The response to `request` for the bytes of `source` (a title, an fMP4 segment written as it
  /// is read) with these validators, type and extra header fields: ranges, conditional
  /// requests, a streaming body of chunks as for a title.
  public func respond(
    to request: Request, source: any ByteSource, eTag: String, lastModified: String,
    contentType: String, extraHeaders: HTTPFields = [:], eventLoop: (any EventLoop)? = nil
  ) async throws(ServerError) -> Response {
    let answer: TitleResponse
    do {
      answer = try TitleResponse(
        size: source.size, eTag: eTag, lastModified: lastModified, contentType: contentType,
        range: request.headers[.range], ifRange: request.headers[.ifRange],
        ifNoneMatch: request.headers[.ifNoneMatch])
    } catch {
      throw ServerError(error)
    }
    var headers = extraHeaders
    for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) {
      if let name = HTTPField.Name(name) { headers[name] = value }
    }
    let status = HTTPResponse.Status(code: answer.status)
    if request.method == .head || answer.range.isEmpty {
      return Response(status: status, headers: headers, body: .init())
    }
    guard let ticket = limiter.acquire() else {
      throw ServerError(StreamingError.tooManyStreams(maximum: limiter.maximum))
    }
    if answer.range.count <= Int64(chunkSize) {
      // One chunk (a player's probe or seek): read before answering (in memory right here,
      // otherwise on the thread pool: ByteChunks' `inMemoryFirst`), and sent as a plain body,
      // without the streaming writer's round trips; a read error is an error status, not a cut
      // connection.
      let buffer: ByteBuffer
      do {
        var chunks = try ByteChunks<ByteBuffer>(
          source, range: answer.range, chunkSize: chunkSize, executor: executor,
          inMemoryFirst: true
        ).makeAsyncIterator()
        buffer = try await chunks.next() ?? ByteBuffer()
      } catch {
        throw ServerError(error)
      }
      withExtendedLifetime(ticket) {}
      return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }
    let body = body(source: source, range: answer.range, ticket: ticket, eventLoop: eventLoop)
    return Response(status: status, headers: headers, body: body)
  }

  /// A body streaming `range` of `source`: ``DiscKitStreaming/ByteChunks`` of ``chunkSize``
  /// bytes read on the thread pool, the next read overlapping the write of the current chunk, in
  /// `ByteBuffer`s the sequence reuses once the connection has let them go; each write waits for
  /// the connection (backpressure). With the connection's `eventLoop`, each write also waits until
  /// the event loop has taken the chunk (see ``ConnectionEventLoopContext``), so that the next
  /// write sees the connection's writability: at most three chunks are in memory. The ticket is
  /// held until the body ends or is dropped.
  func body(
    source: any ByteSource, range: Range<Int64>, ticket: StreamLimiter.Ticket,
    eventLoop: (any EventLoop)? = nil
  ) -> ResponseBody {
    let chunkSize = chunkSize
    let limiter = limiter
    let sizes = chunkSizeForActiveStreams
    let executor = executor
    return ResponseBody(contentLength: Int(range.count)) { writer in
      withExtendedLifetime(ticket) {}
      // Each chunk as large as the streams active now allow (all streams shrink together).
      let chunks = try ByteChunks<ByteBuffer>(
        source, range: range, chunkSize: chunkSize, executor: executor, inMemoryFirst: true,
        chunkSizeNow: { max(4096, sizes(limiter.active)) })
      var left = Int(range.count)
      for try await chunk in chunks {
        try await writer.write(chunk)
        left -= chunk.readableBytes
        // After the last chunk nothing is written that the connection's writability should
        // gate: a one-chunk answer (a player's small range) skips the round trip.
        if left == 0 { break }
        // The event loop runs its tasks in order: once this one has run, so has the write above,
        // and the writer knows whether the connection can take more.
        if let eventLoop { try await eventLoop.submit {}.get() }
      }
      try await writer.finish(nil)
      withExtendedLifetime(ticket) {}
    }
  }
}
