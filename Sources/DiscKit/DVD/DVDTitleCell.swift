/// One cell of a title in playback order: which PGC and cell it is, and its playback entry.
@_spi(Formats)
public struct DVDTitleCell: Sendable, Hashable {
  /// 1-based PGC number within the title set.
  public var programChain: Int
  /// 1-based cell number within the PGC.
  public var cell: Int
  /// 1-based chapter the cell belongs to.
  public var chapter: Int
  /// The cell playback entry (sectors, time, block mode).
  public var playback: DVDCellPlayback
  /// The cell's 1-based position in its angle block (the angle it plays), 1 outside blocks.
  public var angle: Int = 1

  /// Whether the cell is read by walking its navigation packs: an interleaved cell of an angle
  /// block, whose sector range also holds the other angles' interleaved units.
  public var isInterleavedAngleCell: Bool {
    playback.interleaved && playback.isInAngleBlock
  }
}
