import DiscKit
import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension ByteSource {
  /// Copies `range` (default: everything) of this source to `writer`.
  ///
  /// Pieces that resolve to a local file are copied by the kernel (`copy_file_range`) when the
  /// output is a regular file; everything else moves in reads and writes through one reused
  /// buffer of `chunkSize` bytes.
  ///
  /// The default buffer, 768 KiB (4,096 Blu-ray source packets, 384 DVD packs), stays in a
  /// core's L2 cache between the read that fills it and the write that empties it, so the data
  /// crosses main memory once each way, as in the kernel's own copy. `make bench`
  /// (`bluray-joins`) measured it 8–12 % faster than an 8 MiB buffer for a rewritten title.
  ///
  /// - Parameter progress: called with the bytes copied so far.
  public func copy(
    to writer: AtomicFileWriter, range: Range<Int64>? = nil, chunkSize: Int = 768 << 10,
    progress: ((Int64) -> Void)? = nil
  ) throws(DiscKitError) {
    let range = range ?? 0..<size
    guard range.lowerBound >= 0, range.upperBound <= size else {
      throw DiscKitError(
        .invalidArgument, "copy", at: range.lowerBound,
        "range \(range) lies outside the \(size)-byte source")
    }
    guard !range.isEmpty else { return }
    let buffer = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(chunkSize, 4096), alignment: 4096)
    defer { buffer.deallocate() }
    var done: Int64 = 0
    var zeroCopy = ZeroCopy.isAvailable && writer.isRegularFile
    for piece in resolvedPieces(in: range) {
      var copied: Int64 = 0
      // The exact type first: a failing `as?` runs the runtime's bridging fallbacks.
      if zeroCopy, type(of: piece.source) == FileByteSource.self,
        let file = piece.source as? FileByteSource
      {
        var offset = piece.offset
        kernel: while copied < piece.length {
          let want = Int(min(Int64(1 << 30), piece.length - copied))
          switch ZeroCopy.copy(
            from: file.descriptor.rawValue, at: &offset, to: writer.descriptor.rawValue, at: nil,
            length: want)
          {
          case .copied(0):
            throw DiscKitError.truncated(file.path, at: offset, needed: piece.length - copied)
          case .copied(let n):
            copied += Int64(n)
            writer.advance(by: Int64(n))
            progress?(done + copied)
          case .unsupported:
            zeroCopy = false
            break kernel
          case .failed(let e):
            throw writer.writeError(errno: e)
          }
        }
      }
      while copied < piece.length {
        let want = Int(min(Int64(buffer.count), piece.length - copied))
        let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want])
        let got = try piece.source.readFully(at: piece.offset + copied, into: slice)
        guard got == want else {
          throw DiscKitError.truncated(
            "copy source", at: piece.offset + copied + Int64(got), needed: Int64(want - got))
        }
        try writer.write(UnsafeRawBufferPointer(slice))
        copied += Int64(want)
        progress?(done + copied)
      }
      done += piece.length
    }
  }
}
