import DiscKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds the discs under a root with the library's one rule, ``DiscKit/DiscFinder`` with its
/// default options, as `disckit titles --batch` does: `.iso`/`.img`/`.udf` images and folders
/// holding `BDMV/`, `VIDEO_TS/` or `PRIVATE/AVCHD/`, recursively, or the root itself when it is one
/// image or one disc folder.
///
/// Only what lies under the root is served: symbolic links are followed while their real path
/// stays inside the root's real path; links that leave it are skipped, and so are disc folders
/// with a link out (unless ``followLinks``, `disckit serve --follow-links`). The walk is bounded (``maxDepth`` levels, ``maxEntries`` directory entries), so
/// a huge or looping tree costs bounded time.
public struct DiscDiscovery: Sendable {
  /// The root's real path.
  public let root: String
  /// Whether the root is a single image file.
  public let rootIsFile: Bool
  /// The deepest folder level searched below the root.
  public var maxDepth = DiscFinder.Options().maximumDepth
  /// The most directory entries examined in one walk.
  public var maxEntries = DiscFinder.Options().maximumEntries
  /// Whether symbolic links that leave the root are followed too (`--follow-links`).
  public let followLinks: Bool

  /// Resolves `root`; `followLinks` also lists what links leaving it lead to.
  ///
  /// - Throws: ``DiscKitError/Code/cannotOpen`` when it does not exist.
  public init(root: String, followLinks: Bool = false) throws(DiscKitError) {
    self.followLinks = followLinks
    guard let real = Self.realPath(root) else {
      throw DiscKitError(.cannotOpen, root, at: nil, "the root does not exist or cannot be read")
    }
    self.root = real
    self.rootIsFile = !LocalDirectory.isDirectory(real)
  }

  /// The real path of `path` (symbolic links resolved), or nil.
  package static func realPath(_ path: String) -> String? { DiscFinder.realPath(path) }

  /// Whether `path` (a real path) is the root or lies inside it.
  package func isInside(_ path: String) -> Bool { DiscFinder.isInside(path, root: root) }

  /// Every disc under the root, sorted by relative path.
  public func discover() -> [DiscEntry] {
    if rootIsFile {
      let name = root.split(separator: "/").last.map(String.init) ?? root
      return [DiscEntry(path: name, absolutePath: root)]
    }
    var options = DiscFinder.Options(confined: !followLinks)
    options.maximumDepth = maxDepth
    options.maximumEntries = maxEntries
    guard let paths = try? DiscFinder.discs(under: root, options: options) else { return [] }
    if paths == [root] { return [DiscEntry(path: ".", absolutePath: root)] }
    var found: [DiscEntry] = []
    let prefix = root.hasSuffix("/") ? root : root + "/"
    for path in paths where path.hasPrefix(prefix) {
      guard let real = Self.realPath(path) else { continue }
      found.append(DiscEntry(path: String(path.dropFirst(prefix.count)), absolutePath: real))
    }
    return found.sorted { $0.path < $1.path }
  }

  /// Whether `path` is a folder holding a disc (``DiscKit/DiscFinder/isDiscFolder(_:)``).
  package static func isDiscFolder(_ path: String) -> Bool {
    LocalDirectory.isDirectory(path) && DiscFinder.isDiscFolder(path)
  }

  /// The first entry inside a disc folder whose real path leaves the root (a symbolic link out),
  /// or nil when everything stays inside (``DiscKit/DiscFinder/linkLeaving(_:root:)``).
  package static func escapingLink(in folder: String, discovery: DiscDiscovery) -> String? {
    DiscFinder.linkLeaving(folder, root: discovery.root)
  }
}
