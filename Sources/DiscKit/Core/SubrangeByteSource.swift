/// A window onto another byte source: `length` bytes starting at `offset` of `base`.
///
/// Reads never go outside the window, even when the base is larger.
public struct SubrangeByteSource: ByteSource {
  /// The underlying source.
  public let base: any ByteSource
  /// Where the window starts in `base`.
  public let offset: Int64
  /// The window's length.
  public let size: Int64

  /// Creates a window. The window must lie within `base`.
  public init(_ base: any ByteSource, offset: Int64, length: Int64, structure: String = "subrange")
    throws(DiscKitError)
  {
    guard offset >= 0, length >= 0, offset <= base.size, length <= base.size - offset else {
      throw DiscKitError(
        .malformed, structure, at: offset,
        "range of \(length) bytes at \(offset) lies outside the \(base.size)-byte source")
    }
    self.base = base
    self.offset = offset
    self.size = length
  }

  public func read(at position: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    let n = try clampRead(offset: position, count: buffer.count, size: size, structure: "subrange")
    if n == 0 { return 0 }
    return try base.read(
      at: offset + position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n]))
  }
}
