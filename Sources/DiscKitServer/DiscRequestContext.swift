import Hummingbird
import NIOCore

/// A request context that knows the event loop of the request's connection.
///
/// ``StreamResponder`` uses it to hold a streaming body's memory to a bound. SwiftNIO's outbound
/// writer hands each write to the connection's event loop asynchronously, and it learns that the
/// connection stopped being writable only once the event loop has taken the write. A body that
/// reads faster than the event loop runs (many streams on two cores) can therefore queue many
/// chunks before it is told to wait. With the event loop known, the body waits after each chunk
/// until the event loop has taken it, so the next write already sees the connection's
/// writability: at most three chunks per stream are in memory (one the connection holds, one
/// waiting for it, one being read), whatever the client's speed.
public protocol ConnectionEventLoopContext: RequestContext {
  /// The event loop of the request's connection, or `nil` when it is not known.
  var connectionEventLoop: (any EventLoop)? { get }
}

/// The request context of `disckit serve`: Hummingbird's basic context and the connection's
/// event loop (see ``ConnectionEventLoopContext``). Mount ``DiscRoutes`` with it to get the
/// bounded stream memory; with `BasicRequestContext` the routes work the same, with only NIO's
/// own backpressure.
public struct DiscRequestContext: ConnectionEventLoopContext {
  /// Hummingbird's per-request storage.
  public var coreContext: CoreRequestContextStorage
  /// The event loop of the request's connection.
  public let connectionEventLoop: (any EventLoop)?

  /// The context of a request on `source`'s connection.
  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    connectionEventLoop = source.channel.eventLoop
  }
}
