import CFFmpeg
import DiscKit

/// A read-only, seekable `AVIOContext` over a byte range of a ``ByteSource``: libavformat demuxes
/// a clip or cell straight from DiscKit's positional reads (no temporary files, no shared cursor
/// in the source).
final class ByteSourceInput {
  let source: any ByteSource
  let range: Range<Int64>
  /// Names the bytes in errors.
  let structure: String
  /// The read position, relative to `range.lowerBound`.
  private(set) var position: Int64 = 0
  /// The first error of a read, kept for the caller (libavformat only sees `AVERROR(EIO)`).
  private(set) var error: DiscKitError?
  /// Called after each read with the read position (bytes from the range's start).
  private let onRead: (Int64) -> Void
  private(set) var context: UnsafeMutablePointer<AVIOContext>?

  init(
    source: any ByteSource, range: Range<Int64>, structure: String, bufferSize: Int = 1 << 20,
    onRead: @escaping (Int64) -> Void
  ) throws(DiscKitError) {
    self.source = source
    self.range = range
    self.structure = structure
    self.onRead = onRead
    guard let buffer = av_malloc(bufferSize) else {
      throw DiscKitError(.io, "libavformat input", at: nil, "cannot allocate \(bufferSize) bytes")
    }
    context = avio_alloc_context(
      buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 0,
      Unmanaged.passUnretained(self).toOpaque(), byteSourceRead, nil, byteSourceSeek)
    guard context != nil else {
      av_free(buffer)
      throw DiscKitError(.io, "libavformat input", at: nil, "cannot allocate an AVIOContext")
    }
  }

  deinit {
    if let context {
      av_freep(&context.pointee.buffer)
    }
    avio_context_free(&context)
  }

  fileprivate func read(into buffer: UnsafeMutableRawBufferPointer) -> Int32 {
    let remaining = Int64(range.count) - position
    guard remaining > 0 else { return disckit_av_error_eof() }
    let want = Int(min(Int64(buffer.count), remaining))
    do {
      let got = try source.readFully(
        at: range.lowerBound + position,
        into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
      guard got > 0 else {
        error = error ?? .truncated(structure, at: range.lowerBound + position, needed: Int64(want))
        return disckit_av_error_eio()
      }
      position += Int64(got)
      onRead(position)
      return Int32(got)
    } catch {
      self.error = self.error ?? error
      return disckit_av_error_eio()
    }
  }

  fileprivate func seek(_ offset: Int64, whence: Int32) -> Int64 {
    let size = Int64(range.count)
    if whence & disckit_avseek_size() != 0 { return size }
    let target: Int64
    switch whence & 0xFFFF {
    case SEEK_SET: target = offset
    case SEEK_CUR: target = position &+ offset
    case SEEK_END: target = size &+ offset
    default: return Int64(disckit_av_error_eio())
    }
    guard target >= 0, target <= size else { return Int64(disckit_av_error_eio()) }
    position = target
    return target
  }
}

private func byteSourceRead(
  _ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32
) -> Int32 {
  guard let opaque, let buffer, size > 0 else { return disckit_av_error_eio() }
  let input = Unmanaged<ByteSourceInput>.fromOpaque(opaque).takeUnretainedValue()
  return input.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
}

private func byteSourceSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32)
  -> Int64
{
  guard let opaque else { return Int64(disckit_av_error_eio()) }
  let input = Unmanaged<ByteSourceInput>.fromOpaque(opaque).takeUnretainedValue()
  return input.seek(offset, whence: whence)
}
