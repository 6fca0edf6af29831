import CDiscKitShims
import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
    if ResidentReads.only { return try readResident(at: offset, into: buffer, count: n) }
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

  /// ``read(at:into:)`` under ``ResidentReads/only``: only what the page cache holds.
  private func readResident(
    at offset: Int64, into buffer: UnsafeMutableRawBufferPointer, count n: Int
  ) throws(DiscKitError) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    var done = 0
    while done < n {
      let got = disckit_pread_nowait(
        descriptor.rawValue, base + done, n - done, offset + Int64(done))
      if got > 0 {
        done += got
        continue
      }
      if got == 0 { break }  // the file shrank under us
      let e = errno
      if e == EINTR { continue }
      if e == EAGAIN || e == EWOULDBLOCK || e == ENOTSUP || e == EOPNOTSUPP || e == ENOSYS {
        throw DiscKitError(
          .wouldBlock, path, at: offset + Int64(done), "not in the page cache (RWF_NOWAIT)")
      }
      throw DiscKitError(
        .io, path, at: offset + Int64(done), "read failed: \(Errno(rawValue: e))",
        underlying: Errno(rawValue: e))
    }
    return done
  }
}
