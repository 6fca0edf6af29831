internal import CDiscKitShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Kernel-side copying between files (`copy_file_range(2)` on Linux).
///
/// The call goes through a small C shim (`CDiscKitShims`) because glibc declares the function only
/// under `_GNU_SOURCE`, which the Glibc module does not set. On other systems, or when the kernel
/// refuses, callers fall back to large reads and writes.
public enum ZeroCopy {
  /// Whether kernel-side copying exists on this system.
  public static var isAvailable: Bool {
    #if os(Linux)
      return true
    #else
      return false
    #endif
  }

  /// The outcome of one kernel copy call.
  public enum Outcome: Sendable, Equatable {
    /// `n` bytes were copied (0 means the source ended).
    case copied(Int)
    /// The kernel cannot copy between these files: fall back to reads and writes.
    case unsupported
    /// A real error (`errno`).
    case failed(Int32)
  }

  /// Copies up to `length` bytes from `source` at `sourceOffset` to `destination` at
  /// `destinationOffset` (or at its file position when `destinationOffset` is nil), advancing the
  /// offsets it is given.
  public static func copy(
    from source: Int32, at sourceOffset: inout Int64, to destination: Int32,
    at destinationOffset: UnsafeMutablePointer<Int64>?, length: Int
  ) -> Outcome {
    #if os(Linux)
      let n = disckit_copy_file_range(
        source, &sourceOffset, destination, destinationOffset, length, 0)
      if n >= 0 { return .copied(n) }
      let e = errno
      if e == EXDEV || e == ENOSYS || e == EINVAL || e == EOPNOTSUPP || e == EBADF || e == EPERM {
        return .unsupported
      }
      return .failed(e)
    #else
      return .unsupported
    #endif
  }
}
