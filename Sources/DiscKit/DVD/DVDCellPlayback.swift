/// One entry of a program chain's cell playback table (`cell_playback_t`, 24 bytes).
///
/// Sector numbers are relative to the first sector of the title set's title VOBs
/// (`VTS_nn_1.VOB`), inclusive at both ends.
public struct DVDCellPlayback: Sendable, Hashable {
  /// 0 not in a block, 1 first cell of a block, 2 in a block, 3 last cell of a block.
  public var blockMode: Int
  /// 0 none, 1 angle block.
  public var blockType: Int
  public var seamlessPlay: Bool
  public var interleaved: Bool
  public var stcDiscontinuity: Bool
  public var seamlessAngle: Bool
  public var playbackMode: Bool
  public var restricted: Bool
  public var cellType: Int
  public var stillTime: UInt8
  public var cellCommandNumber: UInt8
  /// The cell's playback time.
  public var playbackTime: DVDTime
  public var firstSector: UInt32
  public var firstInterleavedUnitEndSector: UInt32
  public var lastVOBUStartSector: UInt32
  public var lastSector: UInt32
  /// The absolute offset of this entry in its IFO file (for errors).
  public var offset: Int64

  /// Reads a 24-byte entry.
  public init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    offset = reader.absoluteOffset
    let b0 = try reader.readUInt8()
    let b1 = try reader.readUInt8()
    blockMode = Int(b0 >> 6)
    blockType = Int((b0 >> 4) & 3)
    seamlessPlay = b0 & 0x08 != 0
    interleaved = b0 & 0x04 != 0
    stcDiscontinuity = b0 & 0x02 != 0
    seamlessAngle = b0 & 0x01 != 0
    playbackMode = b1 & 0x40 != 0
    restricted = b1 & 0x20 != 0
    cellType = Int(b1 & 0x1f)
    stillTime = try reader.readUInt8()
    cellCommandNumber = try reader.readUInt8()
    playbackTime = try DVDTime(parsing: &reader)
    firstSector = try reader.readUInt32BE()
    firstInterleavedUnitEndSector = try reader.readUInt32BE()
    lastVOBUStartSector = try reader.readUInt32BE()
    lastSector = try reader.readUInt32BE()
  }

  /// Whether this cell belongs to an angle block.
  public var isInAngleBlock: Bool { blockType == 1 && blockMode != 0 }

  /// Whether this cell counts for durations (not a second or later angle of an angle block),
  /// the rule lsdvd and libdvdnav use (`block_mode <= 1`).
  public var countsForDuration: Bool { blockMode <= 1 }

  /// The number of sectors (`last - first + 1`), or `nil` when the range is reversed.
  public var sectorCount: Int64? {
    lastSector >= firstSector ? Int64(lastSector) - Int64(firstSector) + 1 : nil
  }
}
