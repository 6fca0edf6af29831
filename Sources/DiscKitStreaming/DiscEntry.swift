import DiscKit

/// One disc found under the server's root: an `.iso` image or a folder holding `BDMV/` or
/// `VIDEO_TS/`.
public struct DiscEntry: Sendable, Hashable, Codable {
  /// The opaque, stable id used in URLs: a 64-bit FNV-1a hash of ``path``, 16 hex digits.
  public var id: String
  /// The path relative to the root (the file name when the root is one image).
  public var path: String
  /// The absolute path, after resolving symbolic links (never sent to clients).
  public var absolutePath: String

  /// Creates an entry; the id is derived from `path`.
  public init(path: String, absolutePath: String) {
    self.id = DiscEntry.id(forRelativePath: path)
    self.path = path
    self.absolutePath = absolutePath
  }

  /// The id of a root-relative path: FNV-1a (64-bit) of its UTF-8 bytes, as 16 lowercase hex
  /// digits. Stable across restarts and machines.
  package static func id(forRelativePath path: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in path.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Whether `text` has the shape of an id (16 lowercase hex digits).
  package static func isWellFormedID(_ text: some StringProtocol) -> Bool {
    text.utf8.count == 16
      && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }
}
