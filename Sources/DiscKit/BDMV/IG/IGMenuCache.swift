import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What reading one clip's menu found: the clip's first complete interactive composition on one
/// IG PID, or that the bytes read hold none, and how many bytes of the stream file that took.
package struct IGMenuRead: Sendable {
  /// The clip id, e.g. `00050`.
  package var clip: String
  /// The IG stream's PID.
  package var pid: UInt16
  /// The bytes of the stream file read.
  package var bytesRead: Int64
  /// The first complete composition (`nil`: none in what was read, or the read failed).
  package var composition: InteractiveComposition?
  /// Why the stream file could not be read, or its composition is malformed.
  package var error: DiscKitError?
}

/// The menus of a disc's clips, each read at most once per opened disc (by clip and PID: the
/// playlists that play one clip share its menu). Lock-protected: a ``BlurayDisc`` value is shared
/// by any number of tasks.
package final class IGMenuCache: Sendable {
  private struct Key: Hashable {
    var clip: String
    var pid: UInt16
  }
  private let reads = Mutex<(byKey: [Key: IGMenuRead], order: [Key], known: IGKnownCompositions)>(
    ([:], [], IGKnownCompositions()))

  package init() {}

  /// Every menu read so far, in the order first asked for.
  package var all: [IGMenuRead] {
    reads.withLock { state in state.order.compactMap { state.byKey[$0] } }
  }

  /// The read of (`clip`, `pid`), made by `read` the first time it is asked for. Concurrent
  /// first requests for one clip wait for one read (it runs under the lock). `read` is given the
  /// compositions parsed so far on this disc (``IGKnownCompositions``), to reuse one whose bytes
  /// it reads again.
  package func read(clip: String, pid: UInt16, _ read: (inout IGKnownCompositions) -> IGMenuRead)
    -> IGMenuRead
  {
    reads.withLock { state in
      let key = Key(clip: clip, pid: pid)
      if let done = state.byKey[key] { return done }
      let done = read(&state.known)
      state.byKey[key] = done
      state.order.append(key)
      return done
    }
  }
}

/// The interactive compositions parsed from a disc's clips, with the ICS fragments each was
/// parsed from: retail discs carry one pop-up menu, byte for byte, in every episode's clip, and
/// a clip whose composition has the bytes of one already parsed shares its value (one parse,
/// one button list, one tree in memory) instead of parsing it again.
package struct IGKnownCompositions: Sendable {
  private var known: [(fragments: [[UInt8]], composition: InteractiveComposition)] = []

  package init() {}

  /// The composition parsed from exactly `fragments` (byte for byte), if any.
  package func composition(of fragments: [[UInt8]]) -> InteractiveComposition? {
    known.first { Self.same($0.fragments, fragments) }?.composition
  }

  /// Remembers `composition` as parsed from `fragments`.
  package mutating func remember(_ fragments: [[UInt8]], _ composition: InteractiveComposition) {
    if self.composition(of: fragments) == nil { known.append((fragments, composition)) }
  }

  static func same(_ a: [[UInt8]], _ b: [[UInt8]]) -> Bool {
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) {
      guard x.count == y.count else { return false }
      let equal = x.withUnsafeBytes { p in
        y.withUnsafeBytes { q in
          guard let a = p.baseAddress, let b = q.baseAddress else { return true }
          return memcmp(a, b, p.count) == 0
        }
      }
      if !equal { return false }
    }
    return true
  }
}
