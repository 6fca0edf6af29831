import Synchronization

/// Directory listings already read by a file-system reader (UDF, ISO 9660), so that resolving many
/// paths does not re-read every directory on the way: listing a 10 000-entry directory and then
/// opening each of its files stays linear. One policy for every reader: bounded by the number of
/// entries held (the cache is cleared when a listing would exceed ``limit``), lock-protected, so a
/// file system value can be shared by any number of tasks.
final class DirectoryCache<Key: Hashable & Sendable, Entry: Sendable>: Sendable {
  /// The most entries (summed over all listings) held at once.
  let limit: Int
  private let storage = Mutex<(entries: Int, listings: [Key: [Entry]])>((0, [:]))

  init(limit: Int = 1 << 20) { self.limit = limit }

  /// The cached listing of `key`.
  func get(_ key: Key) -> [Entry]? {
    storage.withLock { $0.listings[key] }
  }

  /// Caches the listing of `key`, clearing the cache first when it would grow past ``limit``.
  func put(_ key: Key, _ entries: [Entry]) {
    storage.withLock { state in
      if state.entries + entries.count > limit {
        state.listings.removeAll()
        state.entries = 0
      }
      if let old = state.listings.updateValue(entries, forKey: key) {
        state.entries -= old.count
      }
      state.entries += entries.count
    }
  }
}
