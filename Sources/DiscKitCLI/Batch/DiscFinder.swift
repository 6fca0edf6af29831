import DiscKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds the discs of a library for `--batch`: image files and disc folders under a root.
///
/// A folder holding `BDMV/`, `VIDEO_TS/` or `PRIVATE/AVCHD/` is a disc folder (not searched
/// further); a file named `*.iso`, `*.img` or `*.udf` (any case) is an image. Other files,
/// and names starting with a dot, are not discs and are left out. Entries come in byte order of
/// their names, depth first, so the order is the same on every run. Symbolic links are followed;
/// a folder reached twice (a link loop) is visited once, and the walk stops at
/// ``maximumDepth`` levels.
package enum DiscFinder {
  /// Folder levels searched below the root.
  package static let maximumDepth = 64

  /// Image file name extensions (lowercase).
  package static let imageExtensions: Set<String> = ["iso", "img", "udf"]

  /// The discs under `root` (the root itself when it is an image or a disc folder).
  ///
  /// - Throws: ``DiscKitError/Code/cannotOpen`` when `root` cannot be read.
  package static func discs(under root: String) throws(DiscKitError) -> [String] {
    var st = stat()
    guard stat(root, &st) == 0 else {
      throw DiscKitError(
        .cannotOpen, root, at: nil, "cannot read the batch root: \(errorText(errno))")
    }
    guard isDirectory(st) else { return [root] }
    if isDiscFolder(root) { return [root] }
    var found: [String] = []
    var visited: Set<FileID> = [FileID(st)]
    walk(root, depth: 0, visited: &visited, into: &found)
    return found
  }

  /// Whether `path` is a folder holding a disc's top-level folder.
  package static func isDiscFolder(_ path: String) -> Bool {
    ["BDMV", "VIDEO_TS", "PRIVATE/AVCHD", "bdmv", "video_ts"].contains {
      var st = stat()
      return stat(path + "/" + $0, &st) == 0 && isDirectory(st)
    }
  }

  /// Whether a file name looks like a disc image.
  package static func isImageName(_ name: String) -> Bool {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
    return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
  }

  private struct FileID: Hashable {
    var device: UInt64
    var inode: UInt64
    init(_ st: stat) {
      device = UInt64(st.st_dev)
      inode = UInt64(st.st_ino)
    }
  }

  private static func walk(
    _ folder: String, depth: Int, visited: inout Set<FileID>, into found: inout [String]
  ) {
    guard depth < maximumDepth, let names = LocalFile.listDirectory(folder) else { return }
    for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    where !name.hasPrefix(".") {
      let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
      var st = stat()
      guard stat(path, &st) == 0 else { continue }
      if isDirectory(st) {
        guard visited.insert(FileID(st)).inserted else { continue }
        if isDiscFolder(path) {
          found.append(path)
        } else {
          walk(path, depth: depth + 1, visited: &visited, into: &found)
        }
      } else if (st.st_mode & S_IFMT) == S_IFREG, isImageName(name) {
        found.append(path)
      }
    }
  }

  private static func isDirectory(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFDIR }

  static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
