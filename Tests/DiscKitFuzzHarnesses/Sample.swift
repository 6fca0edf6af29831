import DiscKit

/// Reads a source where a reader of it would: its first and last `window` bytes and a window in
/// the middle (every extent mapping path, without copying gigabytes of zeros).
func sample(_ source: any ByteSource, window: Int = 64 << 10) {
  let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: window, alignment: 16)
  defer { buffer.deallocate() }
  let size = source.size
  for offset in [0, size / 2, size - Int64(window)] where offset >= 0 && offset < size {
    _ = try? source.read(at: offset, into: buffer)
  }
}
