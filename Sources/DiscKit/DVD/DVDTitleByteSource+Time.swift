extension DVDTitleByteSource {
  /// The byte offset in this title of the cell that is playing at `ticks90k` into the title, and
  /// the title time at which that cell starts.
  ///
  /// Cells start with a navigation pack and a GOP, so a cell start is a valid place to begin
  /// reading. The granularity is one cell (chapter-sized on most discs); times past the end map to
  /// the last cell.
  public func cellStart(atTime ticks90k: Int64) -> (offset: Int64, time90k: Int64) {
    var time: Int64 = 0
    for (index, cell) in cells.enumerated() {
      let length = cell.playback.playbackTime.ticks90k
      if ticks90k < time &+ length || index == cells.count - 1 {
        return (cellStarts[index], time)
      }
      time &+= length
    }
    return (0, 0)
  }
}
