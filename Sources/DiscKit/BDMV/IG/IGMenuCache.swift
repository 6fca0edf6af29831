import Synchronization

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
  private let reads = Mutex<(byKey: [Key: IGMenuRead], order: [Key])>(([:], []))

  package init() {}

  /// Every menu read so far, in the order first asked for.
  package var all: [IGMenuRead] {
    reads.withLock { state in state.order.compactMap { state.byKey[$0] } }
  }

  /// The read of (`clip`, `pid`), made by `read` the first time it is asked for. Concurrent
  /// first requests for one clip wait for one read (it runs under the lock).
  package func read(clip: String, pid: UInt16, _ read: () -> IGMenuRead) -> IGMenuRead {
    reads.withLock { state in
      let key = Key(clip: clip, pid: pid)
      if let done = state.byKey[key] { return done }
      let done = read()
      state.byKey[key] = done
      state.order.append(key)
      return done
    }
  }
}
