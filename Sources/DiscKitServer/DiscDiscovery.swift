import DiscKit
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds the discs under a root: `.iso` images (any case) and folders holding `BDMV/` or
/// `VIDEO_TS/`, recursively, or the root itself when it is one image or one disc folder.
///
/// Only what lies under the root is served: every candidate's real path (symbolic links resolved)
/// must lie inside the root's real path; links that leave it are skipped. The walk is bounded
/// (``maxDepth`` levels, ``maxEntries`` directory entries), so a huge or looping tree costs bounded
/// time.
public struct DiscDiscovery: Sendable {
  /// The root's real path.
  public let root: String
  /// Whether the root is a single image file.
  public let rootIsFile: Bool
  /// The deepest folder level searched below the root.
  public var maxDepth = 12
  /// The most directory entries examined in one walk.
  public var maxEntries = 200_000

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
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether `path` (a real path) is the root or lies inside it.
  public func isInside(_ path: String) -> Bool {
    path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
  }

  /// Every disc under the root, sorted by relative path.
  public func discover() -> [DiscEntry] {
    if rootIsFile {
      let name = (root as NSString).lastPathComponent
      return [DiscEntry(path: name, absolutePath: root)]
    }
    if Self.isDiscFolder(root) {
      return [DiscEntry(path: ".", absolutePath: root)]
    }
    var found: [DiscEntry] = []
    var examined = 0
    var visited: Set<String> = [root]
    walk(root, relative: "", depth: 0, found: &found, examined: &examined, visited: &visited)
    return found.sorted { $0.path < $1.path }
  }

  private func walk(
    _ directory: String, relative: String, depth: Int, found: inout [DiscEntry],
    examined: inout Int, visited: inout Set<String>
  ) {
    guard depth <= maxDepth,
      let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
    else { return }
    for name in names.sorted() where !name.hasPrefix(".") {
      examined += 1
      if examined > maxEntries { return }
      let path = directory + "/" + name
      let relativePath = relative.isEmpty ? name : relative + "/" + name
      guard let real = Self.realPath(path), isInside(real) else { continue }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory) else {
        continue
      }
      if isDirectory.boolValue {
        if Self.isDiscFolder(real) {
          if Self.escapingLink(in: real, discovery: self) == nil {
            found.append(DiscEntry(path: relativePath, absolutePath: real))
          }
        } else if visited.insert(real).inserted {
          walk(
            real, relative: relativePath, depth: depth + 1, found: &found, examined: &examined,
            visited: &visited)
        }
      } else if name.lowercased().hasSuffix(".iso") {
        found.append(DiscEntry(path: relativePath, absolutePath: real))
      }
    }
  }

  /// Whether `path` is a folder holding `BDMV/` or `VIDEO_TS/`.
  public static func isDiscFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    for sub in ["BDMV", "VIDEO_TS"] {
      if FileManager.default.fileExists(atPath: path + "/" + sub, isDirectory: &isDirectory),
        isDirectory.boolValue
      {
        return true
      }
    }
    return false
  }

  /// The first entry inside a disc folder whose real path leaves the root (a symbolic link out),
  /// or nil when everything stays inside. At most 20,000 entries, 6 levels deep are checked; a
  /// folder beyond those bounds counts as escaping (refused rather than half-checked).
  public static func escapingLink(in folder: String, discovery: DiscDiscovery) -> String? {
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
