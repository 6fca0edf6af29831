import DiscKit
import DiscKitStreaming
import NIOCore

extension ByteBuffer: ByteChunkBuffer {
  /// Clears the buffer (keeping its storage when nothing else holds it, unless it is more than
  /// twice as large as needed: chunks that shrink give their memory back) and lets `fill` write
  /// `count` bytes into it.
  public mutating func overwrite(
    count: Int, with fill: (UnsafeMutableRawBufferPointer) throws(DiscKitError) -> Void
  ) throws(DiscKitError) {
    if capacity >= 2 * Swift.max(count, 32 << 10) { self = ByteBuffer() }
    clear(minimumCapacity: count)
    _ = try writeWithUnsafeMutableBytes(minimumWritableBytes: count) {
      raw throws(DiscKitError) -> Int in
      try fill(UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]))
      return count
    }
  }
}
