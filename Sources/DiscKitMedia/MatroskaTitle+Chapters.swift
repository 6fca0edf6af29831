import CFFmpeg
import DiscKit

extension MatroskaTitle {
  /// The part of the title from chapter `range.lowerBound` through chapter `range.upperBound`
  /// (1-based, inclusive), as `disckit extract --chapters A-B --format mkv` writes it.
  ///
  /// The file starts at the video key frame at or before chapter A's start (the first picture
  /// that decodes on its own, so all of chapter A plays; mkvmerge's `--split parts:` starts at the
  /// key frame at or after instead): its timestamps are 0 there, which is chapter A's start itself when the chapter starts on a key frame (Blu-ray
  /// entry marks sit on EP-map entries, DVD chapters on VOBU starts). The file ends where
  /// chapter B ends (the next chapter's start or the title's end). The chapters A...B are kept,
  /// shifted by the same amount and renumbered from 1; pieces wholly outside the range are not
  /// read, and demuxing starts at chapter A's bytes.
  ///
  /// - Throws: ``DiscKitError/Code/invalidArgument`` when the title has fewer than
  ///   `range.upperBound` chapters; read errors of the key-frame search.
  public func chapters(_ range: ClosedRange<Int>) throws(DiscKitError) -> MatroskaTitle {
    guard range.lowerBound >= 1, range.upperBound <= chapters.count else {
      throw DiscKitError(
        .invalidArgument, "--chapters", at: nil, "\(name) has \(chapters.count) chapters")
    }
    let first = chapters[range.lowerBound - 1]
    let start = UInt64(clamping: first.start.ticks)
    let end =
      range.upperBound < chapters.count
      ? max(start, UInt64(clamping: chapters[range.upperBound].start.ticks))
      : max(start, duration90k)
    // Each piece's place on the title timeline; keep those that play inside start..<end.
    var kept: [MatroskaPiece] = []
    for (i, piece) in pieces.enumerated() {
      let pieceEnd =
        piece.duration90k.map { piece.titleStart90k + $0 }
        ?? (i + 1 < pieces.count ? pieces[i + 1].titleStart90k : duration90k)
      guard piece.titleStart90k < end, pieceEnd > start else { continue }
      kept.append(piece)
    }
    guard var head = kept.first else {
      throw DiscKitError(
        .invalidArgument, "--chapters", at: nil,
        "chapters \(range.lowerBound)-\(range.upperBound) of \(name) have no bytes")
    }
    if let offset = first.byteOffset, offset > head.byteStart, offset < head.byteEnd {
      head.byteStart = offset
      kept[0] = head
    }
    // No key frame before the range's end (a range without a decodable picture): cut at A.
    let found = try keyFrame(in: head, atOrBefore: start) ?? start
    let origin = found < end ? found : start
    var part = self
    part.pieces = kept
    part.window90k = origin..<end
    part.duration90k = end - origin
    part.chapters = chapters[(range.lowerBound - 1)..<range.upperBound].enumerated().map {
      i, c in
      let chapterStart = UInt64(clamping: c.start.ticks)
      let chapterEnd = min(UInt64(clamping: c.end.ticks), end)
      return MatroskaChapter(
        start: MediaTime(clamping: chapterStart - min(chapterStart, origin)),
        end: MediaTime(clamping: chapterEnd - min(chapterEnd, origin)),
        title: Self.chapterName(i + 1), byteOffset: c.byteOffset)
    }
    return part
  }

  /// The title time of the last video key frame at or before `time` in `piece` (or, when there
  /// is none, of the first one after it); `nil` when the piece's first bytes hold no video key
  /// frame. Reads at most ``keyFrameSearchLimit`` bytes.
  func keyFrame(in piece: MatroskaPiece, atOrBefore time: UInt64) throws(DiscKitError) -> UInt64? {
    let limit = min(piece.byteEnd, piece.byteStart + Self.keyFrameSearchLimit)
    let demuxer = try PieceDemuxer(
      source: source, container: container, range: piece.byteStart..<limit,
      findStreamInfo: false, structure: "\(name) key frame search", onRead: { _ in })
    guard let format = demuxer.format, let packet = av_packet_alloc() else { return nil }
    var pointer: UnsafeMutablePointer<AVPacket>? = packet
    defer { av_packet_free(&pointer) }
    let nopts = disckit_av_nopts_value()
    let ticks = AVRational(num: 1, den: 90000)
    let target = Int64(clamping: time)
    var best: Int64?
    while av_read_frame(format, packet) >= 0 {
      defer { av_packet_unref(packet) }
      guard let stream = demuxer.stream(at: Int(packet.pointee.stream_index)),
        stream.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
        tracks.contains(where: { $0.kind == .video && $0.streamID == Int(stream.pointee.id) })
      else { continue }
      let stamp = packet.pointee.pts != nopts ? packet.pointee.pts : packet.pointee.dts
      guard stamp != nopts else { continue }
      let t = piece.titleTime(ofPTS: av_rescale_q(stamp, stream.pointee.time_base, ticks))
      if packet.pointee.flags & AV_PKT_FLAG_KEY != 0 {
        if t <= target {
          best = t
        } else {
          if best == nil { best = t }
          break
        }
      } else if t > target, best != nil {
        break
      }
    }
    return best.map { UInt64(max(0, $0)) }
  }

  /// How far ``keyFrame(in:atOrBefore:)`` reads (a few GOPs of a Blu-ray at its highest rate).
  static let keyFrameSearchLimit: Int64 = 64 << 20
}
