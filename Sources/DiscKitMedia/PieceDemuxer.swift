import CFFmpeg
import DiscKit

/// libavformat demuxing one piece of a title (a clip's byte range, a DVD cell) through a
/// ``ByteSourceInput``.
final class PieceDemuxer {
  let input: ByteSourceInput
  private(set) var format: UnsafeMutablePointer<AVFormatContext>?
  let structure: String

  init(
    title: MatroskaTitle, piece: MatroskaPiece, findStreamInfo: Bool, structure: String,
    onRead: @escaping (Int64) -> Void
  ) throws(DiscKitError) {
    self.structure = structure
    input = try ByteSourceInput(
      source: title.source, range: piece.byteStart..<piece.byteEnd, structure: structure,
      onRead: onRead)
    guard let context = avformat_alloc_context() else {
      throw DiscKitError(.io, structure, at: piece.byteStart, "cannot allocate a demuxer")
    }
    context.pointee.pb = input.context
    context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
    let name = title.container == .transportStream ? "mpegts" : "mpeg"
    var opened: UnsafeMutablePointer<AVFormatContext>? = context
    let r = avformat_open_input(&opened, nil, av_find_input_format(name), nil)
    guard r >= 0, let opened else {
      throw input.error
        ?? DiscKitError(
          .malformed, structure, at: piece.byteStart,
          "libavformat cannot read it as \(name): \(averror(r))")
    }
    format = opened
    if findStreamInfo {
      let r = avformat_find_stream_info(opened, nil)
      guard r >= 0 else {
        throw input.error
          ?? DiscKitError(
            .malformed, structure, at: piece.byteStart,
            "libavformat finds no stream information: \(averror(r))")
      }
    }
  }

  deinit {
    avformat_close_input(&format)
  }

  /// The stream at `index` (nil when out of range).
  func stream(at index: Int) -> UnsafeMutablePointer<AVStream>? {
    guard let format, index >= 0, index < Int(format.pointee.nb_streams),
      let streams = format.pointee.streams
    else { return nil }
    return streams[index]
  }

  /// The index of the stream whose multiplex id (PID, PS stream id) is `id`.
  func streamIndex(id: Int) -> Int? {
    guard let format else { return nil }
    for i in 0..<Int(format.pointee.nb_streams)
    where stream(at: i).map({ Int($0.pointee.id) }) == id {
      return i
    }
    return nil
  }
}
