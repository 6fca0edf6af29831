/// One cell of a title in playback order: which PGC and cell it is, and its playback entry.
public struct DVDTitleCell: Sendable, Hashable {
  /// 1-based PGC number within the title set.
  public var programChain: Int
  /// 1-based cell number within the PGC.
  public var cell: Int
  /// 1-based chapter the cell belongs to.
  public var chapter: Int
  /// The cell playback entry (sectors, time, block mode).
  public var playback: DVDCellPlayback
}
