@_spi(Formats) import DiscKit

/// Where a title's subtitle packets are and how their PTS land on the title timeline: one piece
/// per Blu-ray play item (its clip's bytes) or DVD cell, each with its own mapping.
///
/// - `.continuous`: the time the continuous byte source (``DiscTitle/byteSource(timeline:)``)
///   presents the packet at, from its start: `(PTS + shift_k - base) mod 2^33`, with the
///   timeline's own shifts (``BlurayTitle/timestampShifts``,
///   ``DVDDisc/timestampShifts(of:)``) and `base` its first item's in-time.
/// - `.original`: the navigation's mapping of the disc's own PTS. Blu-ray: the façade's
///   ``DiscTitle/titleTime(ofPTS:inClip:)`` (the play item's GStreamer segment; a PTS outside the
///   item's in/out range has no title time and its display set is left out). DVD: the IFO's
///   cell start (the sum of the earlier cells' playback times) plus `PTS - VOBU_S_PTM` of the
///   cell's first navigation pack.
///
/// On a Blu-ray both give the same times inside the items; on a DVD they differ where a cell
/// continues the previous one's clock but the IFO's nominal cell times drift from it (NTSC).
struct SubtitleTimeMap: Sendable {
  struct Piece: Sendable {
    /// The piece's bytes in the title's (original) bytes.
    var range: Range<Int64>
    /// Where the piece starts and ends on the title timeline (90 kHz).
    var start90k: Int64
    var end90k: Int64
    /// `.continuous`: the timeline shift; `.original` DVD: the cell's first VOBU_S_PTM.
    var delta90k: UInt64
    var inTime90k: UInt64
    /// Blu-ray: the play item's index (for the façade's mapping).
    var clip: Int?
  }

  var pieces: [Piece]
  var timeline: TitleTimeline
  var base90k: UInt64
  var title: DiscTitle

  static let wrap: Int64 = 1 << 33

  /// A 33-bit difference read as signed.
  static func signed(_ v: Int64) -> Int64 {
    var d = v % wrap
    if d < 0 { d += wrap }
    return d >= wrap / 2 ? d - wrap : d
  }

  /// The title time (90 kHz) of `pts` read in `piece`, or `nil` when it has none.
  func titleTime(ofPTS pts: Int64, in piece: Piece) -> Int64? {
    switch timeline {
    case .continuous:
      return Self.signed(pts &+ Int64(bitPattern: piece.delta90k) &- Int64(bitPattern: base90k))
    case .original:
      if let clip = piece.clip {
        return title.titleTime(ofPTS: MediaTime(ticks: pts & (Self.wrap - 1)), inClip: clip)
          .map { ($0.nanoseconds * 9 + 50_000) / 100_000 }
      }
      return piece.start90k + Self.signed(pts &- Int64(bitPattern: piece.inTime90k))
    }
  }

  init(title: DiscTitle, timeline: TitleTimeline) throws(DiscKitError) {
    self.title = title
    self.timeline = timeline
    switch title.content {
    case .bluray(let bluray):
      base90k = bluray.clips.first?.inTime90k ?? 0
      let shifts = bluray.timestampShifts
      var pieces: [Piece] = []
      for (k, clip) in bluray.clips.enumerated() where clip.byteCount > 0 {
        let range = clip.titleOffset..<(clip.titleOffset + clip.byteCount)
        let shift = shifts.first { $0.start == range.lowerBound }?.delta90k ?? 0
        let start = Int64(clip.titleTime90k)
        pieces.append(
          Piece(
            range: range, start90k: start, end90k: start + Int64(clip.duration) * 2,
            delta90k: shift, inTime90k: clip.inTime90k, clip: k))
      }
      self.pieces = pieces
    case .dvd(let dvd, let disc):
      let source = try disc.byteSource(title: dvd, angle: title.angle)
      let shifts = try disc.timestampShifts(of: source)
      var pieces: [Piece] = []
      var start: Int64 = 0
      var base: UInt64?
      for (k, cell) in source.cells.enumerated() {
        let begin = source.cellStarts[k]
        let end = k + 1 < source.cells.count ? source.cellStarts[k + 1] : source.size
        let length = cell.playback.playbackTime.ticks90k
        defer { start += length }
        guard end > begin else { continue }
        let nav = try DVDNavigationPack(
          sector: try source.bytes(at: begin, count: 2048, structure: "cell \(cell.cell) NV_PCK"),
          at: begin)
        if base == nil { base = UInt64(nav.vobuStartPTM) }
        let shift = shifts.first { $0.start == begin }?.delta90k ?? 0
        pieces.append(
          Piece(
            range: begin..<end, start90k: start, end90k: start + length,
            delta90k: shift, inTime90k: UInt64(nav.vobuStartPTM), clip: nil))
      }
      base90k = base ?? 0
      self.pieces = pieces
    }
    if timeline == .continuous {
      // On the continuous timeline a piece ends where the next one starts.
      for k in pieces.indices {
        let start = Self.signed(
          Int64(bitPattern: pieces[k].inTime90k) &+ Int64(bitPattern: pieces[k].delta90k)
            &- Int64(bitPattern: base90k))
        let length = pieces[k].end90k - pieces[k].start90k
        pieces[k].start90k = start
        pieces[k].end90k = start + length
      }
    }
  }
}
