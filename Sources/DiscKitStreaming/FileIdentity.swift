#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What identifies the bytes of a disc on disk: device, inode, size and modification time of the
/// image file (for a folder: of its `BDMV`/`VIDEO_TS` folder and the folder itself). A change of
/// any of them changes every ETag of the disc.
public struct FileIdentity: Sendable, Hashable {
  /// Device and inode numbers.
  public var device: UInt64
  /// Inode number.
  public var inode: UInt64
  /// Size in bytes (0 for folders).
  public var size: Int64
  /// Modification time, seconds since 1970.
  public var modifiedSeconds: Int64
  /// Modification time, nanoseconds within the second.
  public var modifiedNanoseconds: Int64

  /// Reads the identity of `path` (following symbolic links); `nil` when it cannot be read.
  package static func of(path: String) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    #if canImport(Darwin)
      let seconds = Int64(info.st_mtimespec.tv_sec)
      let nanos = Int64(info.st_mtimespec.tv_nsec)
    #else
      let seconds = Int64(info.st_mtim.tv_sec)
      let nanos = Int64(info.st_mtim.tv_nsec)
    #endif
    let isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
    return FileIdentity(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
      size: isDirectory ? 0 : Int64(info.st_size), modifiedSeconds: seconds,
      modifiedNanoseconds: nanos)
  }

  /// The identity of a disc at `path`: the image file, or for a folder the newest of the folder
  /// and its `BDMV`, `BDMV/PLAYLIST`, `BDMV/STREAM`, `VIDEO_TS` folders.
  package static func ofDisc(path: String) -> FileIdentity? {
    guard var identity = of(path: path) else { return nil }
    guard identity.size == 0 else { return identity }
    for sub in ["/BDMV", "/BDMV/PLAYLIST", "/BDMV/CLIPINF", "/BDMV/STREAM", "/VIDEO_TS"] {
      guard let inner = of(path: path + sub) else { continue }
      if (inner.modifiedSeconds, inner.modifiedNanoseconds)
        > (identity.modifiedSeconds, identity.modifiedNanoseconds)
      {
        identity.modifiedSeconds = inner.modifiedSeconds
        identity.modifiedNanoseconds = inner.modifiedNanoseconds
      }
    }
    return identity
  }

  /// A short hex digest of the identity (for ETags).
  public var digest: String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for value in [
      device, inode, UInt64(bitPattern: size), UInt64(bitPattern: modifiedSeconds),
      UInt64(bitPattern: modifiedNanoseconds),
    ] {
      var v = value
      for _ in 0..<8 {
        hash ^= v & 0xFF
        hash = hash &* 0x0000_0100_0000_01b3
        v >>= 8
      }
    }
    return String(hash, radix: 16)
  }
}
