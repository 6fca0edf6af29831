/// A byte source over bytes held in memory.
public struct MemoryByteSource: ByteSource {
  /// The bytes.
  public let data: [UInt8]

  /// Creates a source over `data`.
  public init(_ data: [UInt8]) { self.data = data }

  public var size: Int64 { Int64(data.count) }

  public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    let n = try clampRead(
      offset: offset, count: buffer.count, size: size, structure: "memory source")
    if n == 0 { return 0 }
    let start = Int(offset)
    data.withUnsafeBytes { raw in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[start..<start + n]))
    }
    return n
  }
}

/// A byte source of `size` zero bytes (unrecorded UDF extents, sparse regions).
public struct ZeroByteSource: ByteSource {
  public let size: Int64

  /// Creates a source of `size` zero bytes.
  public init(size: Int64) { self.size = max(0, size) }

  public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    let n = try clampRead(offset: offset, count: buffer.count, size: size, structure: "zero source")
    if n > 0 {
      UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n]).initializeMemory(
        as: UInt8.self, repeating: 0)
    }
    return n
  }
}
