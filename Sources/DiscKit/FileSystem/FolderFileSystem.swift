import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A directory on the local file system read as a disc (a BDMV or VIDEO_TS folder).
///
/// Entries are listed in name order (the local directory order is arbitrary). Symbolic links
/// are followed for files; a directory reached twice through links is cut off by the depth
/// limit of ``DiscFileSystem/recursiveContents(atPath:limits:)``.
public struct FolderFileSystem: DiscFileSystem {
  /// The folder's path on the local file system.
  public let root: String
  /// Always ``FileSystemKind/folder``.
  public var kind: FileSystemKind { .folder }
  /// Always `nil`: a folder has no UDF revision.
  public var revision: String? { nil }
  /// The last path component of ``root`` (``root`` itself when it has none).
  public var volumeLabel: String { DiscPath.components(root).last ?? root }

  /// Opens a folder.
  ///
  /// - Throws: ``DiscKitError/Code/cannotOpen`` if `root` is not a readable directory.
  public init(root: String) throws(DiscKitError) {
    guard LocalFile.isDirectory(root) else {
      throw DiscKitError(.cannotOpen, root, at: nil, "not a directory")
    }
    self.root = root
    var base = root
    while base.utf8.count > 1 && base.utf8.last == UInt8(ascii: "/") { base.removeLast() }
    self.base = base
  }

  /// ``root`` without its trailing slashes (but `/`), computed once: every local path starts
  /// with it.
  private let base: String

  private func localPath(_ path: String) -> String {
    var local = base
    for component in DiscPath.components(path) where component != ".." { local += "/" + component }
    return local
  }

  /// Whether `path` is already what `DiscPath.join(DiscPath.components(path))` gives: absolute, ASCII,
  /// no empty, `.` or `..` component, no `\\`, no trailing slash (the paths DiscKit itself
  /// builds, as `/BDMV/PLAYLIST/00800.mpls`). Such a path needs no splitting: its local path is
  /// ``base`` + `path`.
  package static func isCanonical(_ path: String) -> Bool {
    var utf8 = path.utf8.makeIterator()
    guard utf8.next() == UInt8(ascii: "/") else { return false }
    // Bytes of the current component so far, and whether they are all dots.
    var length = 0
    var dots = true
    while let byte = utf8.next() {
      switch byte {
      case UInt8(ascii: "/"):
        if length == 0 || (dots && length <= 2) { return false }
        length = 0
        dots = true
      case UInt8(ascii: "\\"), 0x80...:
        // Beyond ASCII a byte may join the slash before it into one grapheme, which
        // `DiscPath.components` does not split at.
        return false
      default:
        length += 1
        if byte != UInt8(ascii: ".") { dots = false }
      }
    }
    return length > 0 && !(dots && length <= 2)
  }

  /// The entries of the directory at `path`, sorted by name; directories have size 0.
  public func contentsOfDirectory(atPath path: String) throws(DiscKitError) -> [DiscFileEntry] {
    let resolved = try resolve(path).path
    let local = localPath(resolved)
    guard let names = LocalFile.listDirectory(local) else {
      throw DiscKitError(.notFound, resolved, at: nil, "no such directory")
    }
    return names.sorted().map { name in
      let status = LocalFile.status(local + "/" + name)
      let isDirectory = status?.isDirectory ?? false
      return DiscFileEntry(
        name: name, path: DiscPath.child(resolved, name),
        size: isDirectory ? 0 : status?.size ?? 0, isDirectory: isDirectory)
    }
  }

  /// The entry at `path` from one `stat` of the resolved path (the parent is not listed); the
  /// same entry as its parent's ``contentsOfDirectory(atPath:)`` gives.
  public func entry(atPath path: String) throws(DiscKitError) -> DiscFileEntry {
    let (resolved, status) = try resolve(path)
    guard let name = DiscPath.components(resolved).last else {
      return DiscFileEntry(name: "", path: "/", size: 0, isDirectory: true)
    }
    let isDirectory = status?.isDirectory ?? false
    return DiscFileEntry(
      name: name, path: resolved, size: isDirectory ? 0 : status?.size ?? 0,
      isDirectory: isDirectory)
  }

  /// The file at `path` as a ``FileByteSource``; throws ``DiscKitError/Code/invalidArgument`` for a
  /// directory.
  public func openFile(atPath path: String) throws(DiscKitError) -> any ByteSource {
    let (resolved, status) = try resolve(path)
    let local = Self.isCanonical(resolved) ? base + resolved : localPath(resolved)
    guard status?.isDirectory != true else {
      throw DiscKitError(.invalidArgument, resolved, at: nil, "is a directory")
    }
    return try FileByteSource(path: local)
  }

  /// Resolves each component exactly, or case-insensitively when the exact name is missing; with
  /// the resolved path's `stat` (`nil` if it vanished meanwhile).
  private func resolve(_ path: String) throws(DiscKitError)
    -> (path: String, status: (isDirectory: Bool, size: Int64)?)
  {
    // The path as written exists: one `stat` instead of one per component (and for a canonical
    // path, no splitting and joining either).
    if Self.isCanonical(path) {
      if let status = LocalFile.status(base + path) { return (path, status) }
    }
    let components = DiscPath.components(path)
    let exact = DiscPath.join(components)
    if let status = LocalFile.status(localPath(exact)) { return (exact, status) }
    var current = "/"
    for component in components {
      let candidate = DiscPath.child(current, component)
      if LocalFile.exists(localPath(candidate)) {
        current = candidate
        continue
      }
      let folded = component.lowercased()
      guard let names = LocalFile.listDirectory(localPath(current)),
        let match = names.sorted().first(where: { $0.lowercased() == folded })
      else {
        throw DiscKitError(.notFound, candidate, at: nil, "no such file or directory")
      }
      current = DiscPath.child(current, match)
    }
    return (current, LocalFile.status(localPath(current)))
  }
}

/// Small wrappers over the local file system (no Foundation).
package enum LocalFile {
  static func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
  }

  static func exists(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0
  }

  /// Whether `path` is a directory, and its size, from one `stat` (`nil` when it does not exist).
  static func status(_ path: String) -> (isDirectory: Bool, size: Int64)? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return ((st.st_mode & S_IFMT) == S_IFDIR, Int64(st.st_size))
  }

  static func size(_ path: String) -> Int64? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return Int64(st.st_size)
  }

  /// The names in the directory at `path` (without `.` and `..`), or `nil` when it cannot be read.
  package static func listDirectory(_ path: String) -> [String]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) {
          String(cString: $0)
        }
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}
