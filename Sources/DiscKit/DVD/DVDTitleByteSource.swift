/// A DVD title as one seekable MPEG program stream: its cells' sectors, in playback order, read
/// from the title set's VOB files.
///
/// A cell is normally its whole sector range `first_sector...last_sector`. A cell of an
/// interleaved angle block (``DVDTitleCell/isInterleavedAngleCell``) is read like a player reads
/// it: its navigation packs are walked once, when the source is made (one 2 KiB read per VOBU),
/// to keep only the chosen angle's interleaved units (see ``DVDInterleavedCellWalk``).
@_spi(Formats)
public struct DVDTitleByteSource: ByteSource {
  /// The cells, in order.
  public let cells: [DVDTitleCell]
  /// The byte offset in this source where each cell starts (parallel to ``cells``).
  public let cellStarts: [Int64]
  /// The concatenation of the cells' byte ranges (several per interleaved cell).
  public let concatenation: ConcatenatedByteSource

  public var size: Int64 { concatenation.size }

  /// Maps `cells` onto `vobs` (the title VOBs, sector 0 = first byte of VTS_nn_1.VOB).
  ///
  /// - Parameters:
  ///   - vobsName: names the VOB set in navigation pack errors (e.g. `VTS_01 title VOBs`).
  ///   - maxVOBUsPerCell: the limit on VOBUs walked in one interleaved cell.
  /// - Throws: ``DiscKitError/Code/malformed`` naming the cell's playback entry in `ifoName`
  ///   when its sector range is reversed or lies past the end of the VOBs; for interleaved
  ///   cells, the errors of ``DVDInterleavedCellWalk`` (naming the navigation pack's byte offset
  ///   in the VOB set).
  public init(
    cells: [DVDTitleCell], vobs: any ByteSource, ifoName: String,
    vobsName: String = "title VOBs",
    maxVOBUsPerCell: Int = DVDInterleavedCellWalk.defaultMaxVOBUs
  ) throws(DiscKitError) {
    var extents: [ConcatenatedByteSource.Extent] = []
    extents.reserveCapacity(cells.count)
    var starts: [Int64] = []
    starts.reserveCapacity(cells.count)
    var position: Int64 = 0
    let vobSectors = vobs.size / 2048
    for cell in cells {
      starts.append(position)
      let p = cell.playback
      guard let count = p.sectorCount else {
        throw DiscKitError(
          .malformed, ifoName + " cell playback", at: p.offset,
          "cell \(cell.cell) of PGC \(cell.programChain) ends at sector \(p.lastSector) before it starts at \(p.firstSector)"
        )
      }
      guard Int64(p.lastSector) < vobSectors else {
        throw DiscKitError(
          .malformed, ifoName + " cell playback", at: p.offset,
          "cell \(cell.cell) of PGC \(cell.programChain) (sectors \(p.firstSector)-\(p.lastSector)) lies past the end of the title VOBs (\(vobSectors) sectors)"
        )
      }
      if cell.isInterleavedAngleCell {
        let walk = try DVDInterleavedCellWalk(
          cell: cell, angle: cell.angle, vobs: vobs, structure: vobsName,
          maxVOBUs: maxVOBUsPerCell)
        for run in walk.runs {
          extents.append(
            .init(source: vobs, offset: run.firstSector * 2048, length: run.sectorCount * 2048))
          position += run.sectorCount * 2048
        }
      } else {
        extents.append(
          .init(source: vobs, offset: Int64(p.firstSector) * 2048, length: count * 2048))
        position += count * 2048
      }
    }
    self.cells = cells
    cellStarts = starts
    concatenation = try ConcatenatedByteSource(extents, structure: "DVD title")
  }

  public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    try concatenation.read(at: offset, into: buffer)
  }
}

extension DVDTitleByteSource: ExtentMappedByteSource {
  public func pieces(in range: Range<Int64>) -> [ConcatenatedByteSource.Extent] {
    concatenation.pieces(in: range)
  }
}
