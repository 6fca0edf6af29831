import Synchronization

/// Bounds the number of streams served at once. A stream holds a ``Ticket`` for as long as its
/// body is alive; the ticket is released when the body ends, fails, or is dropped (a client that
/// disconnects, a response that is never written), so a slot can never leak.
public final class StreamLimiter: Sendable {
  /// The most streams at once.
  public let maximum: Int
  private let counts = Mutex((active: 0, served: 0))

  /// Creates a limiter of `maximum` concurrent streams.
  public init(maximum: Int) { self.maximum = max(1, maximum) }

  /// A held slot; released on deinit.
  public final class Ticket: Sendable {
    private let limiter: StreamLimiter
    fileprivate init(_ limiter: StreamLimiter) { self.limiter = limiter }
    deinit { limiter.counts.withLock { $0.active -= 1 } }
  }

  /// A slot, or nil when ``maximum`` streams are already running.
  public func acquire() -> Ticket? {
    let granted = counts.withLock { c -> Bool in
      guard c.active < maximum else { return false }
      c.active += 1
      c.served += 1
      return true
    }
    return granted ? Ticket(self) : nil
  }

  /// Streams running now.
  public var active: Int { counts.withLock { $0.active } }
  /// Streams started since launch.
  public var served: Int { counts.withLock { $0.served } }
}
