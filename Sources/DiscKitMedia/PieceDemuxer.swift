import CFFmpeg
import DiscKit

/// libavformat demuxing one piece of a title (a clip's byte range, a DVD cell) through a
/// ``ByteSourceInput``.
final class PieceDemuxer {
  let input: ByteSourceInput
  private(set) var format: UnsafeMutablePointer<AVFormatContext>?
  let structure: String

  convenience init(
    title: MatroskaTitle, piece: MatroskaPiece, findStreamInfo: Bool, structure: String,
    onRead: @escaping (Int64) -> Void
  ) throws(DiscKitError) {
    try self.init(
      source: title.source, container: title.container, range: piece.byteStart..<piece.byteEnd,
      findStreamInfo: findStreamInfo, structure: structure, onRead: onRead)
  }

  init(
    source: any ByteSource, container: MatroskaTitle.Container, range: Range<Int64>,
    findStreamInfo: Bool, structure: String, onRead: @escaping (Int64) -> Void
  ) throws(DiscKitError) {
    self.structure = structure
    input = try ByteSourceInput(
      source: source, range: range, structure: structure, onRead: onRead)
    guard let context = avformat_alloc_context() else {
      throw DiscKitError(.io, structure, at: range.lowerBound, "cannot allocate a demuxer")
    }
    context.pointee.pb = input.context
    context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
    let name = container == .transportStream ? "mpegts" : "mpeg"
    var opened: UnsafeMutablePointer<AVFormatContext>? = context
    let r = avformat_open_input(&opened, nil, av_find_input_format(name), nil)
    guard r >= 0, let opened else {
      throw input.error
        ?? DiscKitError(
          .malformed, structure, at: range.lowerBound,
          "libavformat cannot read it as \(name): \(averror(r))")
    }
    format = opened
    if findStreamInfo {
      let r = avformat_find_stream_info(opened, nil)
      guard r >= 0 else {
        throw input.error
          ?? DiscKitError(
            .malformed, structure, at: range.lowerBound,
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

  /// The index of the stream carrying `substream` of the stream whose multiplex id is `id`:
  /// libavformat adds a TrueHD PID's AC-3 core as a second stream with the same id.
  func streamIndex(id: Int, substream: MatroskaTrack.Substream?) -> Int? {
    guard let main = streamIndex(id: id) else { return nil }
    guard substream == .ac3Core else { return main }
    return (main + 1..<Int(format?.pointee.nb_streams ?? 0)).first { i in
      stream(at: i).map {
        Int($0.pointee.id) == id && $0.pointee.codecpar?.pointee.codec_id == AV_CODEC_ID_AC3
      } ?? false
    }
  }

  /// Whether stream `index` is a substream (a TrueHD PID's AC-3 core): not the first stream
  /// with its multiplex id.
  func isSubstream(_ index: Int) -> Bool {
    guard let s = stream(at: index) else { return false }
    return streamIndex(id: Int(s.pointee.id)) != index
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

extension PieceDemuxer {
  /// The end (90 kHz, libavformat's PTS scale) of the last video picture presented from the
  /// program stream bytes `range` of `source` (a DVD VOBU): the greatest PTS (or DTS, for
  /// pictures without one) plus the picture's duration (`frame90k` when libavformat gives
  /// none). `nil` when nothing could be read.
  static func videoEnd(source: any ByteSource, range: Range<Int64>, frame90k: Int64) -> Int64? {
    guard
      let demuxer = try? PieceDemuxer(
        source: source, container: .programStream, range: range, findStreamInfo: false,
        structure: "VOBU", onRead: { _ in }),
      let format = demuxer.format, let packet = av_packet_alloc()
    else { return nil }
    var pointer: UnsafeMutablePointer<AVPacket>? = packet
    defer { av_packet_free(&pointer) }
    let nopts = disckit_av_nopts_value()
    let ticks = AVRational(num: 1, den: 90000)
    // (decode time, presentation time or nil, duration) of each picture, 90 kHz.
    var pictures: [(dts: Int64, pts: Int64?, duration: Int64)] = []
    while av_read_frame(format, packet) >= 0 {
      defer { av_packet_unref(packet) }
      guard let stream = demuxer.stream(at: Int(packet.pointee.stream_index)),
        stream.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_VIDEO
      else { continue }
      let base = stream.pointee.time_base
      let pts = packet.pointee.pts != nopts ? av_rescale_q(packet.pointee.pts, base, ticks) : nil
      let dts = packet.pointee.dts != nopts ? av_rescale_q(packet.pointee.dts, base, ticks) : pts
      guard let dts else { continue }
      let duration =
        packet.pointee.duration > 0 ? av_rescale_q(packet.pointee.duration, base, ticks) : frame90k
      pictures.append((dts, pts, duration))
    }
    // A picture without a PTS is presented at its DTS plus the stream's reorder delay (the
    // greatest PTS - DTS seen); the last picture presented ends the VOBU.
    let delay = pictures.compactMap { p in p.pts.map { $0 - p.dts } }.max() ?? 0
    let end = pictures.map { ($0.pts ?? ($0.dts + delay)) + $0.duration }.max()
    return end
  }
}
