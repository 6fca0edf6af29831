import DiscKit
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The discs under a root, found by ``DiscDiscovery`` and opened on demand into a bounded
/// least-recently-used cache shared by all requests.
///
/// Discs are looked up by id only; a disc whose file changed on disk (size, inode or time) is
/// opened again. A damaged disc fails with its own ``DiscKitError`` and affects no other disc.
public final class DiscLibrary: Sendable {
  /// Where discs are found.
  public let discovery: DiscDiscovery
  /// How many opened discs are kept.
  public let capacity: Int
  /// How long an opened disc is trusted without looking at its files again
  /// (``recentlyOpened(id:)``).
  public let revalidation: Duration

  private struct State {
    var entries: [String: DiscEntry] = [:]
    var order: [DiscEntry] = []
    var lastScan: ContinuousClock.Instant?
    var cache: [String: (disc: OpenedDisc, lastUse: UInt64, checked: ContinuousClock.Instant)] =
      [:]
    var clock: UInt64 = 0
  }
  private let state = Mutex(State())

  /// Creates a library over `root` (a folder searched recursively, or one image), keeping
  /// `capacity` discs open and trusting an opened disc for `revalidation` before its files are
  /// looked at again; `followLinks` also serves what symbolic links outside `root` lead to.
  public init(
    root: String, capacity: Int = 16, revalidation: Duration = .seconds(1),
    followLinks: Bool = false
  ) throws(DiscKitError) {
    self.discovery = try DiscDiscovery(root: root, followLinks: followLinks)
    self.capacity = max(1, capacity)
    self.revalidation = revalidation
  }

  /// Every disc, in relative-path order (scanned again when the last scan is older than 2 s).
  public func entries() -> [DiscEntry] {
    let now = ContinuousClock.now
    let stale = state.withLock { s in
      s.lastScan.map { now - $0 > .seconds(2) } ?? true
    }
    if stale { rescan() }
    return state.withLock { $0.order }
  }

  /// Scans the root again.
  public func rescan() {
    let found = discovery.discover()
    state.withLock { s in
      s.order = found
      s.entries = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
      s.lastScan = .now
      s.cache = s.cache.filter { s.entries[$0.key] != nil }
    }
  }

  /// The entry with `id`, scanning again once when it is unknown.
  public func entry(id: String) -> DiscEntry? {
    guard DiscEntry.isWellFormedID(id) else { return nil }
    if let entry = state.withLock({ $0.entries[id] }) { return entry }
    rescan()
    return state.withLock { $0.entries[id] }
  }

  /// The opened disc with `id` when the cache holds it and its files were checked less than
  /// ``revalidation`` ago; nil otherwise (then call ``open(id:)``, which blocks).
  ///
  /// Never blocks and makes no system call, so a server can answer the requests of a playing
  /// client on the disc it has open without a trip to its thread pool; a disc replaced on disk is
  /// seen within ``revalidation`` (as nginx's `open_file_cache_valid`).
  public func recentlyOpened(id: String) -> OpenedDisc? {
    let now = ContinuousClock.now
    return state.withLock { s in
      guard let hit = s.cache[id], now - hit.checked < revalidation else { return nil }
      s.clock += 1
      s.cache[id]?.lastUse = s.clock
      return hit.disc
    }
  }

  /// The opened disc with `id` (blocking on a miss: call it off the event loop).
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` for an unknown id, the disc's own error when it
  ///   cannot be opened.
  public func open(id: String) throws(DiscKitError) -> OpenedDisc {
    guard let entry = entry(id: id) else {
      throw DiscKitError(.notFound, "disc \(id)", at: nil, "no such disc")
    }
    guard let identity = FileIdentity.ofDisc(path: entry.absolutePath) else {
      throw DiscKitError(.cannotOpen, entry.path, at: nil, "the disc is no longer readable")
    }
    let checked = ContinuousClock.now
    let cached: OpenedDisc? = state.withLock { s in
      guard let hit = s.cache[id], hit.disc.identity == identity else { return nil }
      s.clock += 1
      s.cache[id] = (hit.disc, s.clock, checked)
      return hit.disc
    }
    if let cached { return cached }
    if !discovery.rootIsFile, !discovery.followLinks,
      let escaping = DiscDiscovery.escapingLink(
        in: entry.absolutePath, discovery: discovery),
      LocalDirectory.isDirectory(entry.absolutePath)
    {
      throw DiscKitError(
        .invalidArgument, entry.path, at: nil,
        "refused: \(escaping.dropFirst(entry.absolutePath.count)) leads outside the served root")
    }
    let disc = try OpenedDisc(entry: entry, identity: identity)
    state.withLock { s in
      s.clock += 1
      s.cache[id] = (disc, s.clock, checked)
      while s.cache.count > capacity,
        let oldest = s.cache.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
      {
        s.cache[oldest] = nil
      }
    }
    return disc
  }

  /// How many discs are open in the cache.
  public var openCount: Int { state.withLock { $0.cache.count } }
}

/// Whether a path is a directory (symbolic links followed).
enum LocalDirectory {
  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }
}
