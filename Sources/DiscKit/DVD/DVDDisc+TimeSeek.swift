extension DVDDisc {
  /// Where a DVD title is playing at a given time: a VOBU start in the title's bytes.
  public struct TimeSeek: Sendable, Hashable {
    /// The byte offset of the VOBU's navigation pack in the title's byte source.
    public var offset: Int64
    /// The title time (90 kHz) at which that VOBU starts: the cell's start in the title plus the
    /// VOBU's cell elapsed time (DSI `c_eltm`).
    public var time90k: Int64
    /// The cell (index into the byte source's `cells`) holding the VOBU.
    public var cellIndex: Int
  }

  /// The VOBU playing at `ticks90k` into a title: the last VOBU that starts at or before that time.
  ///
  /// The cell comes from the cells' playback times; within it the title set's VOBU address map
  /// (VOBU_ADMAP) is binary-searched, reading one navigation pack per probe for its elapsed time.
  /// A VOBU begins with a navigation pack and, on a valid disc, a GOP, so playback can start there.
  /// Cells of an interleaved angle block (and title sets without a usable address map) seek to
  /// the cell's start.
  ///
  /// - Parameter source: the title's bytes from ``byteSource(title:angle:chapters:)-(Int,_,_)``.
  /// - Throws: the navigation pack's parse error (naming its offset) when a probed sector is not
  ///   a navigation pack.
  public func timeSeek(in source: DVDTitleByteSource, titleSet: Int, to ticks90k: Int64)
    throws(DiscKitError) -> TimeSeek
  {
    guard !source.cells.isEmpty else { return TimeSeek(offset: 0, time90k: 0, cellIndex: 0) }
    var cellTime: Int64 = 0
    var index = source.cells.count - 1
    for (i, cell) in source.cells.enumerated() {
      let length = cell.playback.playbackTime.ticks90k
      if ticks90k < cellTime &+ length {
        index = i
        break
      }
      if i < source.cells.count - 1 { cellTime &+= length }
    }
    let cell = source.cells[index]
    let cellStart = source.cellStarts[index]
    let atCellStart = TimeSeek(offset: cellStart, time90k: cellTime, cellIndex: index)
    guard !cell.isInterleavedAngleCell, ticks90k > cellTime,
      let map = try? self.titleSet(titleSet).vobuAddresses.startSectors, !map.isEmpty
    else { return atCellStart }
    // The VOBUs of this cell: address-map entries within its sector range (the map is sorted).
    let first = cell.playback.firstSector
    let last = cell.playback.lastSector
    var lower = 0
    var upper = map.count
    while lower < upper {
      let mid = (lower + upper) / 2
      if map[mid] < first { lower = mid + 1 } else { upper = mid }
    }
    var end = lower
    while end < map.count && map[end] <= last { end += 1 }
    guard lower < end else { return atCellStart }
    let target = ticks90k - cellTime
    func elapsed(_ k: Int) throws(DiscKitError) -> (Int64, Int64) {
      let offset = cellStart + Int64(map[k] - first) * 2048
      let sector = try source.bytes(at: offset, count: 2048, structure: "DVD title NV_PCK")
      return (offset, try DVDNavigationPack(sector: sector, at: offset).cellElapsedTime.ticks90k)
    }
    // Binary search for the last VOBU whose elapsed time is at or before the target.
    var best = TimeSeek(offset: cellStart, time90k: cellTime, cellIndex: index)
    var lo = lower
    var hi = end - 1
    while lo <= hi {
      let mid = (lo + hi) / 2
      let (offset, time) = try elapsed(mid)
      if time <= target {
        best = TimeSeek(offset: offset, time90k: cellTime + time, cellIndex: index)
        lo = mid + 1
      } else {
        hi = mid - 1
      }
    }
    return best
  }
}
