extension DVDDisc {
  /// A title's bytes (``byteSource(title:angle:chapters:)-(Int,_,_)``) on the chosen timeline.
  ///
  /// `.continuous` moves every pack SCR, PES PTS/DTS and navigation-pack time of cell `k` by
  /// ``timestampShifts(of:)``'s amount, so that cells whose timestamps restart (cells from
  /// different VOB files) follow each other; a title whose cells already continue each other is
  /// byte-identical to `.original`.
  public func byteSource(
    title number: Int, angle: Int = 1, chapters: ClosedRange<Int>? = nil, timeline: TitleTimeline
  ) throws(DiscKitError) -> any ByteSource {
    try byteSource(title: try title(number), angle: angle, chapters: chapters, timeline: timeline)
  }

  /// ``byteSource(title:angle:chapters:timeline:)-(Int,_,_,_)`` of a title value (a chapter
  /// range cut as a title of its own, `DVDTitle.cut(chapters:)`).
  public func byteSource(
    title: DVDTitle, angle: Int = 1, chapters: ClosedRange<Int>? = nil, timeline: TitleTimeline
  ) throws(DiscKitError) -> any ByteSource {
    let source = try byteSource(title: title, angle: angle, chapters: chapters)
    guard timeline == .continuous else { return source }
    let shifts = try timestampShifts(of: source)
    guard shifts.contains(where: { $0.delta90k != 0 }) else { return source }
    return try ContinuousTimelineByteSource(base: source, shifts: shifts, layout: .programStream)
  }

  /// The continuous timeline's shift of each cell of `source`: `start_k + base - in_k` (90 kHz,
  /// modulo 2^33), where `in_k` is the `VOBU_S_PTM` of the cell's first navigation pack, `base`
  /// the first cell's, and `start_k` the sum of the earlier cells' playback times. A cell whose
  /// first `VOBU_S_PTM` is the previous cell's last `VOBU_E_PTM` (it continues it in the same
  /// stream) keeps the previous cell's shift.
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` when a cell does not start with a navigation pack.
  public func timestampShifts(of source: DVDTitleByteSource) throws(DiscKitError)
    -> [TimestampShift]
  {
    var shifts: [TimestampShift] = []
    var start: Int64 = 0
    var base: UInt64 = 0
    var previous: (end: UInt32, delta: UInt64)?
    for (k, cell) in source.cells.enumerated() {
      let begin = source.cellStarts[k]
      let end = k + 1 < source.cells.count ? source.cellStarts[k + 1] : source.size
      guard end > begin else { continue }
      let first = try DVDNavigationPack(
        sector: try source.bytes(at: begin, count: 2048, structure: "cell \(cell.cell) NV_PCK"),
        at: begin)
      let inTime = UInt64(first.vobuStartPTM)
      if shifts.isEmpty { base = inTime }
      var delta = (UInt64(start) &+ base &- inTime) & TimestampField.mask
      if let previous, previous.end == first.vobuStartPTM { delta = previous.delta }
      shifts.append(TimestampShift(start: begin, end: end, delta90k: delta))
      start += cell.playback.ticks90kForTimeline
      var last: UInt32?
      if !cell.isInterleavedAngleCell,
        cell.playback.lastVOBUStartSector >= cell.playback.firstSector
      {
        let offset =
          begin + Int64(cell.playback.lastVOBUStartSector - cell.playback.firstSector) * 2048
        if offset + 2048 <= end,
          let pack = try? DVDNavigationPack(
            sector: try source.bytes(
              at: offset, count: 2048, structure: "cell \(cell.cell) NV_PCK"),
            at: offset)
        {
          last = pack.vobuEndPTM
        }
      }
      previous = last.map { ($0, delta) }
    }
    return shifts
  }
}

extension DVDCellPlayback {
  /// The cell's playback time in 90 kHz ticks (``DVDTime/ticks90k``).
  var ticks90kForTimeline: Int64 { playbackTime.ticks90k }
}
