/// One entry of a program chain's cell playback table (`cell_playback_t`, 24 bytes).
///
/// Sector numbers are relative to the first sector of the title set's title VOBs
/// (`VTS_nn_1.VOB`), inclusive at both ends.
@_spi(Formats)
public struct DVDCellPlayback: Sendable, Hashable {
  /// 0 not in a block, 1 first cell of a block, 2 in a block, 3 last cell of a block.
  public var blockMode: Int
  /// 0 none, 1 angle block.
  public var blockType: Int
  /// `seamless_play`: the cell follows the previous one without a gap.
  public var seamlessPlay: Bool
  /// `interleaved`: the cell is stored in interleaved units (ILVUs).
  public var interleaved: Bool
  /// `stc_discontinuity`: the system time clock restarts at this cell.
  public var stcDiscontinuity: Bool
  /// `seamless_angle`: angle changes within the block are seamless.
  public var seamlessAngle: Bool
  /// `playback_mode`: pause (still) after each VOBU.
  public var playbackMode: Bool
  /// `restricted`: the cell's access restriction flag (raw bit).
  public var restricted: Bool
  /// `cell_type` (5 bits; used by karaoke discs, otherwise 0).
  public var cellType: Int
  /// `still_time`: seconds to hold the cell's last picture (0 none, 0xFF indefinitely).
  public var stillTime: UInt8
  /// `cell_cmd_nr`: the 1-based cell command run at the end of the cell (0 none).
  public var cellCommandNumber: UInt8
  /// The cell's playback time.
  public var playbackTime: DVDTime
  /// `first_sector`: the cell's first sector.
  public var firstSector: UInt32
  /// `first_ilvu_end_sector`: the last sector of the cell's first ILVU (interleaved cells).
  public var firstInterleavedUnitEndSector: UInt32
  /// `last_vobu_start_sector`: the first sector (navigation pack) of the cell's last VOBU.
  public var lastVOBUStartSector: UInt32
  /// `last_sector`: the cell's last sector.
  public var lastSector: UInt32
  /// The absolute offset of this entry in its IFO file (for errors).
  public var offset: Int64

  /// Reads a 24-byte entry.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
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
