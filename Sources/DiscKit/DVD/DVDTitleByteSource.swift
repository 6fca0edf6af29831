/// A DVD title as one seekable MPEG program stream: its cells' sectors, in playback order, read
/// from the title set's VOB files.
public struct DVDTitleByteSource: ByteSource {
  /// The cells, in order.
  public let cells: [DVDTitleCell]
  /// The concatenation of the cells' byte ranges.
  public let concatenation: ConcatenatedByteSource

  public var size: Int64 { concatenation.size }

  /// Maps `cells` onto `vobs` (the title VOBs, sector 0 = first byte of VTS_nn_1.VOB).
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` naming the cell's playback entry in `ifoName`
  ///   when its sector range is reversed or lies past the end of the VOBs.
  public init(cells: [DVDTitleCell], vobs: any ByteSource, ifoName: String) throws(DiscKitError) {
    var extents: [ConcatenatedByteSource.Extent] = []
    extents.reserveCapacity(cells.count)
    let vobSectors = vobs.size / 2048
    for cell in cells {
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
      extents.append(.init(source: vobs, offset: Int64(p.firstSector) * 2048, length: count * 2048))
    }
    self.cells = cells
    concatenation = try ConcatenatedByteSource(extents, structure: "DVD title")
  }

  public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    try concatenation.read(at: offset, into: buffer)
  }
}
