import CUDFRead
import DiscKit

extension Reference {
  /// An image opened with libudfread.
  public final class UDFImage: @unchecked Sendable {
    // @unchecked: libudfread handles may be used from several threads after open; the file
    // handles it returns are not shared.
    private let udf: OpaquePointer

    /// Opens `path` with `udfread_open`.
    public init(path: String) throws(DiscKitError) {
      guard let udf = udfread_init() else {
        throw DiscKitError(.io, "libudfread", at: nil, "udfread_init failed")
      }
      guard udfread_open(udf, path) >= 0 else {
        udfread_close(udf)
        throw DiscKitError(.cannotOpen, "libudfread", at: nil, "udfread_open failed for \(path)")
      }
      self.udf = udf
    }

    deinit { udfread_close(udf) }

    /// The volume identifier libudfread reports.
    public var volumeIdentifier: String {
      guard let id = udfread_get_volume_id(udf) else { return "" }
      return String(cString: id)
    }

    /// Every entry below the root, depth first in libudfread's order.
    public func recursiveListing() -> [DiscFileEntry] {
      var result: [DiscFileEntry] = []
      walk("/", depth: 0, into: &result)
      return result
    }

    private func walk(_ path: String, depth: Int, into result: inout [DiscFileEntry]) {
      guard depth < 64, let dir = udfread_opendir(udf, path) else { return }
      defer { udfread_closedir(dir) }
      var dirent = udfread_dirent()
      var children: [(String, Bool)] = []
      while udfread_readdir(dir, &dirent) != nil {
        let name = String(cString: dirent.d_name)
        if name == "." || name == ".." { continue }
        children.append((name, Int(dirent.d_type) == Int(UDF_DT_DIR)))
      }
      for (name, isDirectory) in children {
        let childPath = DiscPath.child(path, name)
        var size: Int64 = 0
        if !isDirectory, let file = udfread_file_open(udf, childPath) {
          size = udfread_file_size(file)
          udfread_file_close(file)
        }
        result.append(
          DiscFileEntry(name: name, path: childPath, size: size, isDirectory: isDirectory))
        if isDirectory { walk(childPath, depth: depth + 1, into: &result) }
      }
    }

    /// Reads a whole file (or up to `limit` bytes of it) with `udfread_file_read`.
    public func readFile(_ path: String, limit: Int64 = .max) throws(DiscKitError) -> [UInt8] {
      guard let file = udfread_file_open(udf, path) else {
        throw DiscKitError(.notFound, "libudfread", at: nil, "udfread_file_open failed for \(path)")
      }
      defer { udfread_file_close(file) }
      let size = min(udfread_file_size(file), limit)
      var out = [UInt8](repeating: 0, count: Int(max(0, size)))
      var done = 0
      while done < out.count {
        let got = out.withUnsafeMutableBytes { raw in
          udfread_file_read(file, raw.baseAddress! + done, min(1 << 20, raw.count - done))
        }
        if got <= 0 { break }
        done += Int(got)
      }
      guard done == out.count else {
        throw DiscKitError(.io, "libudfread", at: Int64(done), "short read of \(path)")
      }
      return out
    }

    /// Reads `count` bytes at `offset` of a file with `udfread_file_seek` + `udfread_file_read`.
    public func read(_ path: String, at offset: Int64, count: Int) throws(DiscKitError) -> [UInt8] {
      guard let file = udfread_file_open(udf, path) else {
        throw DiscKitError(.notFound, "libudfread", at: nil, "udfread_file_open failed for \(path)")
      }
      defer { udfread_file_close(file) }
      guard udfread_file_seek(file, offset, Int32(UDF_SEEK_SET)) == offset else {
        throw DiscKitError(.io, "libudfread", at: offset, "seek failed in \(path)")
      }
      var out = [UInt8](repeating: 0, count: max(0, count))
      var done = 0
      while done < out.count {
        let got = out.withUnsafeMutableBytes { raw -> Int in
          guard let base = raw.baseAddress else { return -1 }
          return Int(udfread_file_read(file, base + done, raw.count - done))
        }
        if got <= 0 { break }
        done += got
      }
      return Array(out.prefix(done))
    }

    /// Reads a file sequentially in `chunk`-byte pieces, calling `body` with each piece and its
    /// offset until the file ends or `body` returns `false`. Returns the bytes read, or `nil`
    /// when libudfread cannot open the file.
    public func forEachChunk(
      _ path: String, chunk: Int = 4 << 20, _ body: (UnsafeRawBufferPointer, Int64) throws -> Bool
    ) rethrows -> Int64? {
      guard let file = udfread_file_open(udf, path) else { return nil }
      defer { udfread_file_close(file) }
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, chunk), alignment: 16)
      defer { buffer.deallocate() }
      var total: Int64 = 0
      while let base = buffer.baseAddress {
        var filled = 0
        while filled < buffer.count {
          let got = udfread_file_read(file, base + filled, buffer.count - filled)
          if got <= 0 { break }
          filled += Int(got)
        }
        if filled == 0 { break }
        let keepGoing = try body(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]), total)
        total += Int64(filled)
        if !keepGoing || filled < buffer.count { break }
      }
      return total
    }

    /// The size libudfread reports for a file, or `nil` when it cannot open it.
    public func fileSize(_ path: String) -> Int64? {
      guard let file = udfread_file_open(udf, path) else { return nil }
      defer { udfread_file_close(file) }
      return udfread_file_size(file)
    }

    /// Reads a file in `chunk`-byte pieces and returns the number of bytes read (benchmarks).
    public func drain(_ path: String, chunk: Int = 1 << 20) -> Int64 {
      guard let file = udfread_file_open(udf, path) else { return -1 }
      defer { udfread_file_close(file) }
      var buffer = [UInt8](repeating: 0, count: chunk)
      var total: Int64 = 0
      while true {
        let got = buffer.withUnsafeMutableBytes { udfread_file_read(file, $0.baseAddress!, chunk) }
        if got <= 0 { break }
        total += Int64(got)
      }
      return total
    }
  }
}
