import SystemPackage

/// A byte source over a file on the local file system, read with `pread`.
///
/// The descriptor is opened read-only and closed when the last reference goes away. Because
/// `pread` never moves a shared file position, one instance serves concurrent reads from any
/// number of tasks.
public final class FileByteSource: ByteSource, @unchecked Sendable {
  // @unchecked: all stored properties are immutable after init; FileDescriptor wraps a CInt.
  /// The path the file was opened from.
  public let path: String
  /// The open descriptor (owned by this object).
  public let descriptor: FileDescriptor
  public let size: Int64

  /// Opens `path` for reading.
  ///
  /// - Throws: ``DiscKitError/Code/cannotOpen`` when the file cannot be opened or is not a
  ///   regular file or block device.
  public init(path: String) throws(DiscKitError) {
    self.path = path
    let fd: FileDescriptor
    do {
      fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
    } catch {
      throw DiscKitError(
        .cannotOpen, path, at: nil, "cannot open: \(Self.describe(error))", underlying: error)
    }
    do {
      let end = try fd.seek(offset: 0, from: .end)
      self.size = end
    } catch {
      try? fd.close()
      throw DiscKitError(
        .cannotOpen, path, at: nil, "cannot determine size: \(Self.describe(error))",
        underlying: error)
    }
    self.descriptor = fd
  }

  deinit { try? descriptor.close() }

  /// The text of a system error; a cast to `Errno` avoids the dynamic conformance lookups of
  /// `"\(error)"` on an existential (measurable at process start, issue 11).
  private static func describe(_ error: any Error) -> String {
    if let errno = error as? Errno { return errno.description }
    return "\(error)"
  }

  public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    let n = try clampRead(offset: offset, count: buffer.count, size: size, structure: path)
    if n == 0 { return 0 }
    var done = 0
    while done < n {
      let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[done..<n])
      let got: Int
      do {
        got = try descriptor.read(fromAbsoluteOffset: offset + Int64(done), into: slice)
      } catch {
        throw DiscKitError(
          .io, path, at: offset + Int64(done), "read failed: \(error)", underlying: error)
      }
      if got == 0 { break }  // the file shrank under us
      done += got
    }
    return done
  }
}
