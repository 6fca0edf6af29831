#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds the discs of a library: image files and disc folders under a root. `disckit titles
/// --batch`, `disckit scan --batch` and `disckit serve` list discs with this one rule.
///
/// A folder holding `BDMV/`, `VIDEO_TS/` (either in lower case too) or `PRIVATE/AVCHD/` is a disc
/// folder (not searched further); a file named `*.iso`, `*.img` or `*.udf` (any case) is an image.
/// Other files, and names starting with a dot, are not discs and are left out. Entries come in byte
/// order of their names, depth first, so the order is the same on every run.
///
/// Symbolic links are followed while their target stays inside the root: by default
/// (``Options/confined``) anything whose real path (every link resolved) leaves the root's real
/// path is skipped, and so is a disc folder holding a link out (``linkLeaving(_:root:)``). A link
/// to an image is another name for it (listed under each name); a folder reached twice (a link to
/// a folder also under the root, a link loop) is walked once, where walk order reaches it first
/// (so a loop ends). The walk stops at ``Options/maximumDepth`` levels and
/// ``Options/maximumEntries`` directory entries, so a huge or looping tree costs bounded time.
public enum DiscFinder {
  /// How far a walk goes.
  public struct Options: Sendable, Hashable {
    /// Folder levels searched below the root.
    public var maximumDepth = 64
    /// The most directory entries examined in one walk.
    public var maximumEntries = 200_000
    /// Skip whatever's real path (symbolic links resolved) leaves the root's real path, and disc
    /// folders holding a link out. True by default: the rule of every `disckit` command; false
    /// follows links anywhere (for a library caller that wants it).
    public var confined = true

    /// The default bounds; `confined` as given.
    public init(confined: Bool = true) { self.confined = confined }
  }

  /// Image file name extensions (lowercase).
  public static let imageExtensions: Set<String> = ["iso", "img", "udf"]

  /// The discs under `root` (the root itself when it is an image or a disc folder), as paths
  /// that start with `root`.
  ///
  /// - Throws: ``DiscKitError/Code/cannotOpen`` when `root` cannot be read.
  public static func discs(under root: String, options: Options = Options())
    throws(DiscKitError) -> [String]
  {
    var st = stat()
    guard stat(root, &st) == 0 else {
      throw DiscKitError(
        .cannotOpen, root, at: nil, "cannot read the library root: \(errorText(errno))")
    }
    guard isDirectory(st) else { return [root] }
    if isDiscFolder(root) {
      if options.confined, let real = realPath(root), linkLeaving(real, root: real) != nil {
        return []
      }
      return [root]
    }
    var walk = Walk(
      options: options, realRoot: options.confined ? realPath(root) : nil, visited: [FileID(st)])
    walk.walk(root, depth: 0)
    return walk.found
  }

  /// The real path of `path` (symbolic links resolved), or nil.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether `path` (a real path) is `root` (a real path) or lies inside it.
  public static func isInside(_ path: String, root: String) -> Bool {
    path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
  }

  /// The first entry inside the disc folder `folder` (a real path) whose real path leaves `root`
  /// (a real path): a symbolic link out; nil when everything stays inside. At most 20,000
  /// entries, 6 levels deep are checked; a folder beyond those bounds counts as leaving (refused
  /// rather than half-checked). A dangling link leads nowhere and does not count.
  public static func linkLeaving(_ folder: String, root: String) -> String? {
    var stack: [(String, Int)] = [(folder, 0)]
    var count = 0
    while let (directory, depth) = stack.popLast() {
      guard let names = LocalFile.listDirectory(directory) else { continue }
      for name in names {
        count += 1
        if count > 20_000 || depth > 6 { return directory }
        let path = directory + "/" + name
        guard let real = realPath(path) else { continue }
        if !isInside(real, root: root) { return path }
        var st = stat()
        if stat(real, &st) == 0, isDirectory(st), real.hasPrefix(folder + "/") {
          stack.append((real, depth + 1))
        }
      }
    }
    return nil
  }

  /// Whether `path` is a folder holding a disc's top-level folder.
  public static func isDiscFolder(_ path: String) -> Bool {
    ["BDMV", "VIDEO_TS", "PRIVATE/AVCHD", "bdmv", "video_ts"].contains {
      var st = stat()
      return stat(path + "/" + $0, &st) == 0 && isDirectory(st)
    }
  }

  /// Whether a file name looks like a disc image.
  public static func isImageName(_ name: String) -> Bool {
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

  private struct Walk {
    let options: Options
    let realRoot: String?
    var visited: Set<FileID>
    var found: [String] = []
    var examined = 0

    func inside(_ path: String) -> Bool {
      guard let realRoot else { return true }
      guard let real = DiscFinder.realPath(path) else { return false }
      return DiscFinder.isInside(real, root: realRoot)
    }

    mutating func walk(_ folder: String, depth: Int) {
      guard depth < options.maximumDepth, let names = LocalFile.listDirectory(folder) else {
        return
      }
      for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
      where !name.hasPrefix(".") {
        examined += 1
        guard examined <= options.maximumEntries else { return }
        let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
        var st = stat()
        guard stat(path, &st) == 0, inside(path) else { continue }
        if DiscFinder.isDirectory(st) {
          guard visited.insert(FileID(st)).inserted else { continue }
          if DiscFinder.isDiscFolder(path) {
            if let realRoot, let real = DiscFinder.realPath(path),
              DiscFinder.linkLeaving(real, root: realRoot) != nil
            {
              continue
            }
            found.append(path)
          } else {
            walk(path, depth: depth + 1)
          }
        } else if (st.st_mode & S_IFMT) == S_IFREG, DiscFinder.isImageName(name) {
          found.append(path)
        }
      }
    }
  }

  private static func isDirectory(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFDIR }

  static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
