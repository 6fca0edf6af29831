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

/// A source whose bytes are pieces of other sources (concatenations, windows): copying can then
/// reach the underlying files directly, and the kernel can copy them without user-space buffers.
public protocol ExtentMappedByteSource: ByteSource {
  /// The pieces of `range` (within `0..<size`), in order, each a range of another source.
  func pieces(in range: Range<Int64>) -> [ConcatenatedByteSource.Extent]
}

extension ConcatenatedByteSource: ExtentMappedByteSource {
  public func pieces(in range: Range<Int64>) -> [Extent] {
    guard !range.isEmpty, range.lowerBound >= 0, range.lowerBound < size else { return [] }
    var result: [Extent] = []
    var position = range.lowerBound
    var index = extentIndex(containing: position)
    let end = min(range.upperBound, size)
    while position < end && index < extents.count {
      let extent = extents[index]
      let inExtent = position - starts[index]
      let length = min(extent.length - inExtent, end - position)
      result.append(Extent(source: extent.source, offset: extent.offset + inExtent, length: length))
      position += length
      index += 1
    }
    return result
  }
}

extension SubrangeByteSource: ExtentMappedByteSource {
  public func pieces(in range: Range<Int64>) -> [ConcatenatedByteSource.Extent] {
    let lower = max(0, range.lowerBound)
    let upper = min(size, range.upperBound)
    guard lower < upper else { return [] }
    return [.init(source: base, offset: offset + lower, length: upper - lower)]
  }
}

extension ByteSource {
  /// The pieces of `range` resolved down to sources that are not themselves extent-mapped
  /// (usually ``FileByteSource`` ranges of the image or of files in a folder).
  ///
  /// Nesting deeper than `maxDepth` is left unresolved (read through the outer source).
  public func resolvedPieces(in range: Range<Int64>, maxDepth: Int = 8) -> [ConcatenatedByteSource
    .Extent]
  {
    guard maxDepth > 0, let mapped = self as? any ExtentMappedByteSource else {
      let lower = max(0, range.lowerBound)
      let upper = min(size, range.upperBound)
      return lower < upper ? [.init(source: self, offset: lower, length: upper - lower)] : []
    }
    var result: [ConcatenatedByteSource.Extent] = []
    for piece in mapped.pieces(in: range) {
      result += piece.source.resolvedPieces(
        in: piece.offset..<piece.offset + piece.length, maxDepth: maxDepth - 1)
    }
    return result
  }
}
