import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where extracted bytes go: an atomic file, standard output, or an existing device/FIFO
/// (written directly: renaming a temporary file over `/dev/full` would replace the device).
public final class ExtractionSink {
  /// The destination path.
  public let destination: String
  private let atomic: AtomicFileWriter?
  private let direct: FileDescriptor?
  /// Bytes written so far.
  public private(set) var written: Int64 = 0

  /// Opens `destination` (`-` = standard output).
  public init(destination: String, overwrite: Bool) throws(DiscKitError) {
    self.destination = destination
    var st = stat()
    if destination != "-", stat(destination, &st) == 0,
      (st.st_mode & S_IFMT) == S_IFCHR || (st.st_mode & S_IFMT) == S_IFIFO
    {
      do {
        direct = try FileDescriptor.open(FilePath(destination), .writeOnly, options: [.closeOnExec])
      } catch {
        throw DiscKitError(.cannotCreate, destination, at: nil, "cannot open: \(error)")
      }
      atomic = nil
    } else {
      atomic = try AtomicFileWriter(destination: destination, overwrite: overwrite)
      direct = nil
    }
  }

  /// Standard output or a device: no progress total, no zero-copy into it.
  public var isStreaming: Bool { direct != nil || atomic?.isStandardOutput == true }

  /// The descriptor of a regular output file (for copy_file_range), if any.
  var regularFileDescriptor: FileDescriptor? {
    guard let atomic, !atomic.isStandardOutput else { return nil }
    return atomic.descriptor
  }

  func write(_ buffer: UnsafeRawBufferPointer) throws(DiscKitError) {
    if let atomic {
      try atomic.write(buffer)
    } else if let direct {
      do { _ = try direct.writeAll(buffer) } catch {
        throw DiscKitError(.io, destination, at: written, "write failed: \(error)")
      }
    }
    written += Int64(buffer.count)
  }

  /// Records bytes written behind the writer's back (copy_file_range).
  func advance(_ n: Int64) { written += n }

  /// Finishes: renames the temporary file over the destination.
  public func commit() throws(DiscKitError) {
    if let atomic { try atomic.commit() }
    if let direct { try? direct.close() }
  }

  /// Discards everything written (removes the temporary file).
  public func abort() {
    atomic?.abort()
    if let direct { try? direct.close() }
  }
}

/// Copies title bytes: `copy_file_range` between regular files when possible, large reads otherwise.
public enum TitleExtractor {
  static let chunk = 8 << 20

  #if canImport(Glibc)
    typealias CopyFileRange =
      @convention(c) (
        Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32
      ) -> Int
    /// glibc's `copy_file_range` (not exported by the Glibc module: it needs `_GNU_SOURCE`), looked up once.
    static let copyFileRange: CopyFileRange? = {
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "copy_file_range") else {
        return nil
      }
      return unsafeBitCast(symbol, to: CopyFileRange.self)
    }()
  #endif

  /// Copies `range` of `source` to `sink`, reporting the bytes copied so far.
  public static func copy(
    _ source: ConcatenatedByteSource, range: Range<Int64>, to sink: ExtractionSink,
    progress: (Int64) -> Void
  ) throws(DiscKitError) {
    guard !range.isEmpty else { return }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 4096)
    defer { buffer.deallocate() }
    var position = range.lowerBound
    var done: Int64 = 0
    var index = source.extentIndex(containing: position)
    var zeroCopy = true
    while position < range.upperBound && index < source.extents.count {
      let extent = source.extents[index]
      let inExtent = position - source.starts[index]
      let length = min(extent.length - inExtent, range.upperBound - position)
      var copied: Int64 = 0
      #if canImport(Glibc)
        if zeroCopy, let copyFileRange, let file = extent.source as? FileByteSource,
          let out = sink.regularFileDescriptor
        {
          var offset = Int64(extent.offset + inExtent)
          while copied < length {
            // Large calls: the kernel copies in-place; 1 GiB keeps progress updates frequent enough.
            let want = Int(min(Int64(1 << 30), length - copied))
            let n = copyFileRange(file.descriptor.rawValue, &offset, out.rawValue, nil, want, 0)
            if n > 0 {
              copied += Int64(n)
              sink.advance(Int64(n))
              progress(done + copied)
              continue
            }
            if n == 0 {
              throw DiscKitError.truncated(file.path, at: offset, needed: length - copied)
            }
            let e = errno
            if e == EXDEV || e == ENOSYS || e == EINVAL || e == EOPNOTSUPP || e == EBADF {
              zeroCopy = false
              break
            }
            throw DiscKitError(
              .io, sink.destination, at: sink.written,
              "copy_file_range failed: \(String(cString: strerror(e)))")
          }
        }
      #endif
      while copied < length {
        let want = Int(min(Int64(chunk), length - copied))
        let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want])
        let got = try extent.source.readFully(at: extent.offset + inExtent + copied, into: slice)
        guard got == want else {
          throw DiscKitError.truncated(
            "title source", at: extent.offset + inExtent + copied + Int64(got),
            needed: Int64(want - got))
        }
        try sink.write(UnsafeRawBufferPointer(slice))
        copied += Int64(want)
        progress(done + copied)
      }
      done += length
      position += length
      index += 1
    }
  }
}
