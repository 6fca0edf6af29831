import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The operating system's page cache, for tests of reads that must not wait for the disk
/// (`ResidentReads`): where to put files whose pages a test drops, dropping them, and checking
/// that they are gone.
public enum PageCache {
  /// A directory on the checkout's own file system (`.build/page-cache-tests`), not the
  /// temporary directory: a tmpfs keeps every page in memory and cannot drop it.
  public static let directory: String = {
    let path = Fixtures.packageRoot.appendingPathComponent(".build/page-cache-tests").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()

  /// Writes `path` back to disk and asks the kernel to drop its cached pages
  /// (`posix_fadvise(POSIX_FADV_DONTNEED)`); returns how many of its pages are still in memory
  /// (0: all dropped; -1: unknown).
  @discardableResult
  public static func drop(_ path: String) -> Int {
    #if os(Linux)
      let fd = open(path, O_RDONLY)
      guard fd >= 0 else { return -1 }
      defer { close(fd) }
      guard fsync(fd) == 0, posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED)) == 0 else {
        return -1
      }
      return residentPages(path)
    #else
      return -1
    #endif
  }

  /// How many pages of `path` are in the page cache (`mincore`); -1 when unknown.
  public static func residentPages(_ path: String) -> Int {
    #if os(Linux)
      let fd = open(path, O_RDONLY)
      guard fd >= 0 else { return -1 }
      defer { close(fd) }
      let size = Int(lseek(fd, 0, SEEK_END))
      guard size > 0 else { return 0 }
      guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0),
        base != UnsafeMutableRawPointer(bitPattern: -1)
      else { return -1 }
      defer { munmap(base, size) }
      let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
      var vector = [UInt8](repeating: 0, count: (size + pageSize - 1) / pageSize)
      guard mincore(base, size, &vector) == 0 else { return -1 }
      return vector.reduce(0) { $0 + Int($1 & 1) }
    #else
      return -1
    #endif
  }

  /// Whether this machine drops a file's pages on request in ``directory`` (tried once on a
  /// scratch file): the tests of reads that find nothing in memory are enabled by it.
  public static let canDrop: Bool = {
    let path = directory + "/probe-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: path) }
    guard (try? Data(repeating: 7, count: 1 << 16).write(to: URL(fileURLWithPath: path))) != nil,
      (try? Data(contentsOf: URL(fileURLWithPath: path))) != nil
    else { return false }
    return drop(path) == 0
  }()

  /// The note of a test disabled because pages cannot be dropped here.
  public static let cannotDrop: Comment =
    "this machine does not drop a file's cached pages on request (Linux and a disk file system needed)"
}
