import Dispatch
import Synchronization

/// A bounded cache (least recently used first out) whose values are made once per key however
/// many callers ask for it at once: the first caller of a key that is not cached makes the
/// value; the callers that ask while it does wait for that value (or its error) instead of
/// making their own. A failure is not kept: the next caller makes the value again.
///
/// The waiting blocks the caller's thread (callers are the server's blocking pool, as is the
/// making), and never a thread the maker needs: the maker runs on its own caller's thread.
package final class SingleFlightCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// A value being made, and the callers waiting for it.
  /// `waiters` changes under the cache's state lock, and only while the flight is in
  /// `flights`; `result` is set once, before `done` is signalled once per waiter.
  private final class Flight: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var waiters = 0
    var result: Result<Value, StreamingError>?
  }

  private enum Role {
    case hit(Value)
    case wait(Flight)
    case make(Flight)
  }

  private struct State {
    var map: [Key: (value: Value, use: UInt64)] = [:]
    var flights: [Key: Flight] = [:]
    /// Callers waiting for a flight, per key.
    var waiting: [Key: Int] = [:]
    var clock: UInt64 = 0
    var made = 0
  }

  package let capacity: Int
  private let state = Mutex(State())
  private let hook = Mutex<(@Sendable (Key) -> Void)?>(nil)

  package init(capacity: Int) { self.capacity = max(1, capacity) }

  /// How many values were made (each call of a `make` closure), for tests and counters.
  package var made: Int { state.withLock { $0.made } }

  /// Runs `body` (tests: to hold a making until the other callers wait) before each making, on
  /// the maker's thread.
  package func beforeMaking(_ body: (@Sendable (Key) -> Void)?) { hook.withLock { $0 = body } }

  /// How many callers wait for the value of `key` being made.
  package func waiting(for key: Key) -> Int { state.withLock { $0.waiting[key] ?? 0 } }

  /// The cached value of `key`, if any (never blocks, never makes).
  package func cached(_ key: Key) -> Value? {
    state.withLock { state in
      guard let entry = state.map[key] else { return nil }
      state.clock += 1
      state.map[key] = (entry.value, state.clock)
      return entry.value
    }
  }

  /// The value of `key`: cached, or being made by another caller (waited for), or made here by
  /// `make`.
  package func value(_ key: Key, make: () throws(StreamingError) -> Value)
    throws(StreamingError) -> Value
  {
    let role = state.withLock { state -> Role in
      if let entry = state.map[key] {
        state.clock += 1
        state.map[key] = (entry.value, state.clock)
        return .hit(entry.value)
      }
      if let flight = state.flights[key] {
        state.waiting[key, default: 0] += 1
        flight.waiters += 1
        return .wait(flight)
      }
      let flight = Flight()
      state.flights[key] = flight
      state.made += 1
      return .make(flight)
    }
    switch role {
    case .hit(let value):
      return value
    case .wait(let flight):
      flight.done.wait()
      let result = flight.result
      state.withLock { state in
        state.waiting[key, default: 1] -= 1
        if state.waiting[key] == 0 { state.waiting[key] = nil }
      }
      guard let result else { throw .badRequest("no value") }  // not reached: waited for one
      return try result.get()
    case .make(let flight):
      let result: Result<Value, StreamingError>
      if let hook = hook.withLock({ $0 }) { hook(key) }
      do {
        result = .success(try make())
      } catch {
        result = .failure(error)
      }
      // Out of `flights`, the flight gets no more waiters: each one it has is woken once.
      let waiters = state.withLock { state -> Int in
        state.flights[key] = nil
        guard case .success(let value) = result else { return flight.waiters }
        state.clock += 1
        state.map[key] = (value, state.clock)
        while state.map.count > capacity,
          let oldest = state.map.min(by: { $0.value.use < $1.value.use })?.key
        {
          state.map[oldest] = nil
        }
        return flight.waiters
      }
      flight.result = result
      for _ in 0..<waiters { flight.done.signal() }
      return try result.get()
    }
  }
}
