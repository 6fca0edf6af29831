import DiscKit
import Synchronization

/// The title resources resolved lately (title, byte source with its timeline shifts, validators),
/// so that the range requests of a playing client do not resolve the title again each time.
/// Bounded: the least recently used entry goes first.
package final class ResourceCache: Sendable {
  /// The most resources kept.
  package let capacity: Int
  private let entries = Mutex(
    (map: [String: (resource: TitleResource, use: UInt64)](), clock: UInt64(0)))

  /// Creates a cache of `capacity` resources.
  package init(capacity: Int) { self.capacity = max(1, capacity) }

  /// The cached resource for `key`, if any (never blocks).
  package func cached(_ key: String) -> TitleResource? {
    entries.withLock { state in
      guard let entry = state.map[key] else { return nil }
      state.clock += 1
      state.map[key] = (entry.resource, state.clock)
      return entry.resource
    }
  }

  /// The cached resource for `key`, or the one `make` builds (then cached).
  package func resource(
    _ key: String, make: () throws(StreamingError) -> TitleResource
  ) throws(StreamingError)
    -> TitleResource
  {
    if let hit = cached(key) { return hit }
    let made = try make()
    entries.withLock { state in
      state.clock += 1
      state.map[key] = (made, state.clock)
      while state.map.count > capacity,
        let oldest = state.map.min(by: { $0.value.use < $1.value.use })?.key
      {
        state.map[oldest] = nil
      }
    }
    return made
  }
}
