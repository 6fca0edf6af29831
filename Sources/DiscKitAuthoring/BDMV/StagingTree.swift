import DiscKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A temporary directory beside the output where the BDMV tree is built. It removes everything
/// it created unless ``commit(to:)`` renamed it into place.
final class StagingTree {
  /// The temporary directory.
  let root: String
  private var files: [String] = []
  private var directories: [String] = []
  private var finished = false

  /// Creates `.<name>.disckit-XXXXXX` in the directory of `destination`.
  init(beside destination: String) throws(DiscKitError) {
    let trimmed = destination.hasSuffix("/") ? String(destination.dropLast()) : destination
    let components = trimmed.split(separator: "/", omittingEmptySubsequences: false)
    let name = components.last.map(String.init) ?? "disc"
    let directory =
      components.count > 1 ? components.dropLast().joined(separator: "/") : "."
    var template = Array(
      ((directory.isEmpty ? "" : directory + "/") + ".\(name).disckit-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return false }
      return mkdtemp(base) != nil
    }
    guard made else {
      let e = errno
      throw DiscKitError(
        .cannotCreate, destination, at: nil,
        "cannot create a temporary directory beside it: \(String(cString: strerror(e)))")
    }
    root = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  deinit { if !finished { remove() } }

  func path(_ relative: String) -> String { root + "/" + relative }

  /// Records a file created by someone else inside the tree (removed on failure).
  func track(_ path: String) { files.append(path) }

  func makeDirectory(_ relative: String) throws(DiscKitError) {
    let p = path(relative)
    guard mkdir(p, 0o755) == 0 else {
      let e = errno
      throw DiscKitError(.cannotCreate, p, at: nil, "mkdir failed: \(String(cString: strerror(e)))")
    }
    directories.append(p)
  }

  /// Writes `bytes` to `relative` (and to its `BDMV/BACKUP/` twin when `backup`).
  func writeFile(_ relative: String, _ bytes: [UInt8], backup: Bool = false) throws(DiscKitError) {
    try write(path(relative), bytes)
    if backup, relative.hasPrefix("BDMV/") {
      try write(path("BDMV/BACKUP/" + relative.dropFirst(5)), bytes)
    }
  }

  private func write(_ p: String, _ bytes: [UInt8]) throws(DiscKitError) {
    files.append(p)
    let fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      let e = errno
      throw DiscKitError(
        .cannotCreate, p, at: nil, "cannot create: \(String(cString: strerror(e)))")
    }
    defer { close(fd) }
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { raw in
        Glibc.write(fd, raw.baseAddress.map { $0 + done }, bytes.count - done)
      }
      guard n > 0 else {
        let e = errno
        throw DiscKitError(.io, p, at: Int64(done), "write failed: \(String(cString: strerror(e)))")
      }
      done += n
    }
  }

  /// Sets the access and modification times of everything in the tree (reproducible images).
  func setTimes(_ seconds: Int64) {
    var times = [
      timespec(tv_sec: Int(seconds), tv_nsec: 0), timespec(tv_sec: Int(seconds), tv_nsec: 0),
    ]
    for p in Set(files + directories + [root]) {
      _ = utimensat(AT_FDCWD, p, &times, 0)
    }
  }

  /// Renames the tree to `destination` (which must not exist, or be an empty directory).
  func commit(to destination: String) throws(DiscKitError) {
    chmod(root, 0o755)
    guard rename(root, destination) == 0 else {
      let e = errno
      throw DiscKitError(
        .cannotCreate, destination, at: nil, "rename failed: \(String(cString: strerror(e)))")
    }
    finished = true
  }

  /// Removes every file and directory created (deepest first), then the root.
  func remove() {
    for f in files.reversed() { unlink(f) }
    for d in directories.reversed() { rmdir(d) }
    rmdir(root)
    files = []
    directories = []
    finished = true
  }
}

/// Small local file-system queries.
enum LocalPath {
  static func exists(_ path: String) -> Bool {
    var s = stat()
    return lstat(path, &s) == 0
  }

  static func isDirectory(_ path: String) -> Bool {
    var s = stat()
    return stat(path, &s) == 0 && (s.st_mode & S_IFMT) == S_IFDIR
  }

  static func isEmptyDirectory(_ path: String) -> Bool {
    guard let dir = opendir(path) else { return false }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { return false }
    }
    return true
  }
}
