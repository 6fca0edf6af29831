import CFFmpeg
import DiscKit
import DiscKitOutput
import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A write-only `AVIOContext` over an ``DiscKitOutput/AtomicFileWriter``: positional writes into its temporary
/// file (seekable, so the muxer writes cues, duration and seek head), or a plain stream to
/// standard output or a device (not seekable: Matroska without cues).
final class MatroskaOutput {
  let writer: AtomicFileWriter
  let seekable: Bool
  private var position: Int64 = 0
  private var end: Int64 = 0
  /// The first write error, kept for the caller.
  private(set) var error: DiscKitError?
  private(set) var context: UnsafeMutablePointer<AVIOContext>?

  init(writer: AtomicFileWriter, bufferSize: Int = 1 << 20) throws(DiscKitError) {
    self.writer = writer
    self.seekable = writer.isRegularFile
    guard let buffer = av_malloc(bufferSize) else {
      throw DiscKitError(.io, writer.destination, at: nil, "cannot allocate \(bufferSize) bytes")
    }
    context = avio_alloc_context(
      buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 1,
      Unmanaged.passUnretained(self).toOpaque(), nil, matroskaWrite,
      seekable ? matroskaSeek : nil)
    guard let context else {
      av_free(buffer)
      throw DiscKitError(.io, writer.destination, at: nil, "cannot allocate an AVIOContext")
    }
    context.pointee.seekable = seekable ? AVIO_SEEKABLE_NORMAL : 0
  }

  deinit {
    if let context {
      av_freep(&context.pointee.buffer)
    }
    avio_context_free(&context)
  }

  /// The file's size so far.
  var size: Int64 { end }

  fileprivate func write(_ buffer: UnsafeRawBufferPointer) -> Int32 {
    guard error == nil else { return disckit_av_error_eio() }
    do {
      if seekable {
        _ = try writer.descriptor.writeAll(toAbsoluteOffset: position, buffer)
      } else {
        try writer.write(buffer)
      }
    } catch let e as DiscKitError {
      error = e
      return disckit_av_error_eio()
    } catch {
      self.error = DiscKitError(
        .io, writer.destination, at: position, "write failed: \(error)")
      return disckit_av_error_eio()
    }
    position += Int64(buffer.count)
    end = max(end, position)
    return Int32(buffer.count)
  }

  fileprivate func seek(_ offset: Int64, whence: Int32) -> Int64 {
    if whence & disckit_avseek_size() != 0 { return end }
    let target: Int64
    switch whence & 0xFFFF {
    case SEEK_SET: target = offset
    case SEEK_CUR: target = position &+ offset
    case SEEK_END: target = end &+ offset
    default: return Int64(disckit_av_error_eio())
    }
    guard target >= 0 else { return Int64(disckit_av_error_eio()) }
    position = target
    return target
  }
}

private func matroskaWrite(
  _ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32
) -> Int32 {
  guard let opaque, let buffer, size >= 0 else { return disckit_av_error_eio() }
  let output = Unmanaged<MatroskaOutput>.fromOpaque(opaque).takeUnretainedValue()
  return output.write(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
}

private func matroskaSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32)
  -> Int64
{
  guard let opaque else { return Int64(disckit_av_error_eio()) }
  let output = Unmanaged<MatroskaOutput>.fromOpaque(opaque).takeUnretainedValue()
  return output.seek(offset, whence: whence)
}
