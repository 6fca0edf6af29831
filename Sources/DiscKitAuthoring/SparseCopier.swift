import DiscKit
import DiscKitOutput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Copies byte ranges of source files into the image file at absolute offsets.
///
/// Holes in the source (found with `lseek(SEEK_DATA/SEEK_HOLE)` where the platform has them) are
/// skipped, so they stay holes in the image (the image was sized with `ftruncate` first). Data
/// is moved with `copy_file_range` when the kernel offers it, else with large `pread`/`pwrite`.
final class SparseCopier {
  private let buffer: UnsafeMutableRawBufferPointer
  private var useCopyFileRange = ZeroCopy.isAvailable
  /// Bytes of real data copied (holes excluded).
  private(set) var dataBytesCopied: Int64 = 0

  init(bufferSize: Int = 8 << 20) {
    buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 4096)
  }

  deinit { buffer.deallocate() }

  #if canImport(Glibc)
    private static let seekData: Int32 = 3  // SEEK_DATA on Linux (not exported to Swift)
    private static let seekHole: Int32 = 4  // SEEK_HOLE
  #endif

  /// Copies `length` bytes at `sourceOffset` of `source` to `destinationOffset` of `destination`.
  ///
  /// - Parameter path: the source's path, for errors.
  func copy(
    from source: Int32, path: String, sourceOffset: Int64, length: Int64, to destination: Int32,
    destinationOffset: Int64, imagePath: String
  ) throws(DiscKitError) {
    let end = sourceOffset + length
    var position = sourceOffset
    while position < end {
      var dataStart = position
      var dataEnd = end
      #if canImport(Glibc)
        let found = lseek(source, off_t(position), Self.seekData)
        if found < 0 {
          if errno == ENXIO { return }  // only a hole remains (the size was checked before)
          // No SEEK_DATA support on this file system: treat everything as data.
        } else {
          dataStart = Int64(found)
          if dataStart >= end { return }
          let hole = lseek(source, off_t(dataStart), Self.seekHole)
          if hole > 0 { dataEnd = min(end, Int64(hole)) }
        }
      #endif
      try copyData(
        from: source, path: path, at: dataStart, length: dataEnd - dataStart, to: destination,
        at: destinationOffset + (dataStart - sourceOffset), imagePath: imagePath)
      position = dataEnd
    }
  }

  private func copyData(
    from source: Int32, path: String, at sourceOffset: Int64, length: Int64, to destination: Int32,
    at destinationOffset: Int64, imagePath: String
  ) throws(DiscKitError) {
    var done: Int64 = 0
    #if canImport(Glibc)
      if useCopyFileRange {
        kernel: while done < length {
          var input = sourceOffset + done
          var output = destinationOffset + done
          let want = Int(min(length - done, 1 << 30))
          switch ZeroCopy.copy(from: source, at: &input, to: destination, at: &output, length: want)
          {
          case .copied(0):
            throw DiscKitError(
              .io, path, at: sourceOffset + done,
              "the file ended early (it changed while the image was written)")
          case .copied(let got):
            done += Int64(got)
          case .failed(EINTR):
            continue
          case .failed(let code) where code == ENOSPC || code == EFBIG:
            throw DiscKitError(
              .io, imagePath, at: destinationOffset + done,
              "write failed: \(String(cString: strerror(code)))")
          case .failed(let code):
            throw DiscKitError(
              .io, path, at: sourceOffset + done, "read failed: \(String(cString: strerror(code)))")
          case .unsupported:
            useCopyFileRange = false
            break kernel
          }
        }
      }
    #endif
    while done < length {
      let want = Int(min(Int64(buffer.count), length - done))
      let got = pread(source, buffer.baseAddress, want, off_t(sourceOffset + done))
      if got < 0 {
        if errno == EINTR { continue }
        throw DiscKitError(
          .io, path, at: sourceOffset + done, "read failed: \(String(cString: strerror(errno)))")
      }
      if got == 0 {
        throw DiscKitError(
          .io, path, at: sourceOffset + done,
          "the file ended early (it changed while the image was written)")
      }
      try Self.writeAll(
        destination, UnsafeRawBufferPointer(rebasing: buffer[0..<got]),
        at: destinationOffset + done,
        path: imagePath)
      done += Int64(got)
    }
    dataBytesCopied += length
  }

  /// `pwrite` until every byte is written.
  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64, path: String)
    throws(DiscKitError)
  {
    var done = 0
    while done < bytes.count {
      let got = pwrite(
        fd, bytes.baseAddress.map { $0 + done }, bytes.count - done, off_t(offset + Int64(done)))
      if got < 0 {
        if errno == EINTR { continue }
        throw DiscKitError(
          .io, path, at: offset + Int64(done), "write failed: \(String(cString: strerror(errno)))")
      }
      if got == 0 {
        throw DiscKitError(.io, path, at: offset + Int64(done), "write made no progress")
      }
      done += got
    }
  }

  static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int64, path: String)
    throws(DiscKitError)
  {
    let outcome = bytes.withUnsafeBytes { raw in
      Result { () throws(DiscKitError) in try writeAll(fd, raw, at: offset, path: path) }
    }
    try outcome.get()
  }
}
