/// Which file system a ``DiscFileSystem`` reads.
public enum FileSystemKind: String, Sendable, Codable {
  /// UDF (ECMA-167 / OSTA UDF 1.02 to 2.60).
  case udf
  /// ISO 9660 (ECMA-119), with Joliet names when present.
  case iso9660
  /// A plain directory on the local file system (a BDMV or VIDEO_TS folder).
  case folder
}

/// A file or directory in a disc file system.
public struct DiscFileEntry: Sendable, Hashable, Codable {
  /// The entry's name (no slashes).
  public var name: String
  /// The absolute path from the file system root, e.g. `/BDMV/index.bdmv`.
  public var path: String
  /// The size in bytes (64-bit; 0 for directories).
  public var size: Int64
  /// Whether the entry is a directory.
  public var isDirectory: Bool

  /// Creates an entry.
  public init(name: String, path: String, size: Int64, isDirectory: Bool) {
    self.name = name
    self.path = path
    self.size = size
    self.isDirectory = isDirectory
  }
}

/// A read-only file system: the UDF or ISO9660 side of an image, or a folder.
///
/// Paths are absolute (`/BDMV/PLAYLIST/00800.mpls`) and use `/` as separator. Lookups match names
/// exactly first and fall back to a case-insensitive match, because discs and their copies on
/// disk disagree on case (`VIDEO_TS.IFO` vs `video_ts.ifo`). Implementations are safe for
/// concurrent use.
public protocol DiscFileSystem: Sendable {
  /// Which file system this is.
  var kind: FileSystemKind { get }
  /// The UDF revision (`"2.50"`), or `nil` for other file systems.
  var revision: String? { get }
  /// The volume label (UDF logical volume identifier, ISO9660 volume identifier, folder name).
  var volumeLabel: String { get }

  /// The entries of the directory at `path`, without `.` and `..`: in on-disc order for images,
  /// in name order for folders (whose local order is arbitrary).
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` if there is no such directory.
  func contentsOfDirectory(atPath path: String) throws(DiscKitError) -> [DiscFileEntry]

  /// The file at `path` as a random-access byte source.
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` if there is no such file,
  ///   ``DiscKitError/Code/invalidArgument`` if `path` is a directory, and
  ///   ``DiscKitError/Code/unsupported`` for layouts DiscKit cannot read (ISO9660 interleaved files).
  func openFile(atPath path: String) throws(DiscKitError) -> any ByteSource

  /// The entry at `path` (`/` is the root directory), matched as ``contentsOfDirectory(atPath:)``
  /// of its parent would list it. The default implementation lists the parent; a file system that
  /// can look one entry up directly (a folder: one `stat`) implements it itself.
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` if there is no such entry.
  func entry(atPath path: String) throws(DiscKitError) -> DiscFileEntry
}

extension DiscFileSystem {
  /// The entry at `path` (`/` is the root directory).
  public func entry(atPath path: String) throws(DiscKitError) -> DiscFileEntry {
    let components = DiscPath.components(path)
    guard let last = components.last else {
      return DiscFileEntry(name: "", path: "/", size: 0, isDirectory: true)
    }
    let parent = DiscPath.join(components.dropLast())
    let siblings = try contentsOfDirectory(atPath: parent)
    if let exact = siblings.first(where: { $0.name == last }) { return exact }
    let folded = last.lowercased()
    if let loose = siblings.first(where: { $0.name.lowercased() == folded }) { return loose }
    throw DiscKitError(.notFound, DiscPath.join(components), at: nil, "no such file or directory")
  }

  /// Whether a file or directory exists at `path`.
  public func exists(_ path: String) -> Bool {
    (try? entry(atPath: path)) != nil
  }

  /// Reads the whole file at `path` (refusing files over `limit` bytes).
  public func readFile(atPath path: String, limit: Int = ParsingLimits.default.maxMetadataFileBytes)
    throws(DiscKitError) -> [UInt8]
  {
    try openFile(atPath: path).readAll(limit: limit, structure: path)
  }

  /// Every entry below `path`, depth first in on-disc order, each exactly once.
  ///
  /// - Throws: ``DiscKitError/Code/limitExceeded`` past `limits.maxDirectoryDepth` or
  ///   `limits.maxTotalEntries`.
  public func recursiveContents(atPath path: String = "/", limits: ParsingLimits = .default)
    throws(DiscKitError) -> [DiscFileEntry]
  {
    var result: [DiscFileEntry] = []
    try walk(DiscPath.join(DiscPath.components(path)), depth: 0, limits: limits, into: &result)
    return result
  }

  private func walk(
    _ path: String, depth: Int, limits: ParsingLimits, into result: inout [DiscFileEntry]
  )
    throws(DiscKitError)
  {
    guard depth < limits.maxDirectoryDepth else {
      throw DiscKitError.limit(
        path, at: nil, "directories nested deeper than \(limits.maxDirectoryDepth)")
    }
    for child in try contentsOfDirectory(atPath: path) {
      result.append(child)
      guard result.count <= limits.maxTotalEntries else {
        throw DiscKitError.limit(path, at: nil, "more than \(limits.maxTotalEntries) entries")
      }
      if child.isDirectory { try walk(child.path, depth: depth + 1, limits: limits, into: &result) }
    }
  }
}

/// Helpers for the absolute `/`-separated paths DiscKit uses inside file systems.
public enum DiscPath {
  /// The components of a path, ignoring empty components and `.`; `\` also separates.
  public static func components(_ path: String) -> [String] {
    // An ASCII path (every path DiscKit builds, nearly every one it is given) splits at its
    // bytes: there each byte is a character of its own (CR LF, one character, holds no
    // separator), and splitting characters costs ten times more (grapheme breaking).
    var text = path
    let ascii = text.withUTF8 { bytes -> [String]? in
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
      // One pass over the bytes (the generic `split` of the UTF-8 view cost 6,000
      // instructions a path).
      var out: [String] = []
      var start = 0
      for end in 0...bytes.count
      where end == bytes.count || bytes[end] == 0x2F || bytes[end] == 0x5C {
        defer { start = end + 1 }
        guard end > start, !(end == start + 1 && bytes[start] == 0x2E) else { continue }
        out.append(
          String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
      }
      return out
    }
    if let ascii { return ascii }
    return path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).map(String.init).filter {
      $0 != "."
    }
  }

  /// An absolute path from components.
  public static func join<C: Collection>(_ components: C) -> String where C.Element == String {
    "/" + TextJoin.join(Array(components), separator: "/")
  }

  /// An absolute path from components.
  public static func join(_ components: [String]) -> String {
    "/" + TextJoin.join(components, separator: "/")
  }

  /// An absolute path from components.
  public static func join(_ components: ArraySlice<String>) -> String {
    "/" + TextJoin.join(components, separator: "/")
  }

  /// `parent` + `/` + `name`.
  public static func child(_ parent: String, _ name: String) -> String {
    parent == "/" ? "/" + name : parent + "/" + name
  }
}
