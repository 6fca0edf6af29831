import DiscKit
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds the discs under a root with the library's one rule (``DiscKit/DiscFinder``, as
/// `disckit titles --batch` does: `.iso`/`.img`/`.udf` images and folders holding `BDMV/`,
/// `VIDEO_TS/` or `PRIVATE/AVCHD/`, recursively, or the root itself when it is one image or one
/// disc folder), confined to the root.
///
/// Only what lies under the root is served: every candidate's real path (symbolic links resolved)
/// must lie inside the root's real path; links that leave it are skipped, and so are disc folders
/// with a link out. The walk is bounded (``maxDepth`` levels, ``maxEntries`` directory entries), so
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

  /// Resolves `root`.
  ///
  /// - Throws: ``DiscKitError/Code/cannotOpen`` when it does not exist.
  public init(root: String) throws(DiscKitError) {
    guard let real = Self.realPath(root) else {
      throw DiscKitError(.cannotOpen, root, at: nil, "the root does not exist or cannot be read")
    }
    self.root = real
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory)
    self.rootIsFile = !isDirectory.boolValue
  }

  /// The real path of `path` (symbolic links resolved), or nil.
  package static func realPath(_ path: String) -> String? { DiscFinder.realPath(path) }

  /// Whether `path` (a real path) is the root or lies inside it.
  package func isInside(_ path: String) -> Bool {
    path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
  }

  /// Every disc under the root, sorted by relative path.
  public func discover() -> [DiscEntry] {
    if rootIsFile {
      let name = (root as NSString).lastPathComponent
      return [DiscEntry(path: name, absolutePath: root)]
    }
    var options = DiscFinder.Options(confined: true)
    options.maximumDepth = maxDepth
    options.maximumEntries = maxEntries
    guard let paths = try? DiscFinder.discs(under: root, options: options) else { return [] }
    if paths == [root] { return [DiscEntry(path: ".", absolutePath: root)] }
    var found: [DiscEntry] = []
    let prefix = root.hasSuffix("/") ? root : root + "/"
    for path in paths where path.hasPrefix(prefix) {
      guard let real = Self.realPath(path) else { continue }
      if Self.isDiscFolder(real), Self.escapingLink(in: real, discovery: self) != nil { continue }
      found.append(DiscEntry(path: String(path.dropFirst(prefix.count)), absolutePath: real))
    }
    return found.sorted { $0.path < $1.path }
  }

  /// Whether `path` is a folder holding a disc (``DiscKit/DiscFinder/isDiscFolder(_:)``).
  package static func isDiscFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && isDirectory.boolValue && DiscFinder.isDiscFolder(path)
  }

  /// The first entry inside a disc folder whose real path leaves the root (a symbolic link out),
  /// or nil when everything stays inside. At most 20,000 entries, 6 levels deep are checked; a
  /// folder beyond those bounds counts as escaping (refused rather than half-checked).
  package static func escapingLink(in folder: String, discovery: DiscDiscovery) -> String? {
    var stack: [(String, Int)] = [(folder, 0)]
    var count = 0
    while let (directory, depth) = stack.popLast() {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
        continue
      }
      for name in names {
        count += 1
        if count > 20_000 || depth > 6 { return directory }
        let path = directory + "/" + name
        guard let real = realPath(path) else { continue }  // dangling link: unreadable anyway
        if !discovery.isInside(real) { return path }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory),
          isDirectory.boolValue, real.hasPrefix(folder)
        {
          stack.append((real, depth + 1))
        }
      }
    }
    return nil
  }
}
