/// A program chain (`pgc_t`): the programs (chapters), cells and stream controls of a title or
/// menu part.
///
/// The fixed part is 236 bytes; the program map, cell playback and cell position tables are at
/// offsets relative to the start of the PGC. Like libdvdread, a table with a zero offset or a
/// zero count is absent (`nil`), and a table that does not fit in the file makes the PGC fail.
@_spi(Formats)
public struct DVDProgramChain: Sendable, Hashable {
  /// Size of the fixed part.
  public static let fixedSize = 236

  /// Number of programs (chapters of the PGC).
  public var programCount: Int
  /// Number of cells.
  public var cellCount: Int
  /// Playback time of the whole PGC.
  public var playbackTime: DVDTime
  /// Prohibited user operations (raw bits).
  public var prohibitedUserOperations: UInt32
  /// Audio stream control, one per audio stream of the title set (bit 15 = present, bits 8-10 = stream number).
  public var audioControl: [UInt16]
  /// Subpicture stream control, one per subpicture stream (bit 31 = present).
  public var subpictureControl: [UInt32]
  /// `next_pgc_nr`: the next PGC's number (0 = none).
  public var nextProgramChain: UInt16
  /// `prev_pgc_nr`: the previous PGC's number (0 = none).
  public var previousProgramChain: UInt16
  /// `goup_pgc_nr`: the PGC that Go Up leads to (0 = none).
  public var goUpProgramChain: UInt16
  /// `pg_playback_mode`: 0 plays the programs in order; otherwise random or shuffle (raw byte).
  public var playbackMode: UInt8
  /// `still_time`: seconds to hold the last picture after the PGC (0 none, 0xFF indefinitely).
  public var stillTime: UInt8
  /// The 16 subpicture palette entries (0x00YYCrCb).
  public var palette: [UInt32]
  /// Entry cell of each program (1-based cell numbers), or `nil` when absent.
  public var programMap: [UInt8]?
  /// The cells, or `nil` when absent.
  public var cellPlayback: [DVDCellPlayback]?
  /// The cell positions, or `nil` when absent.
  public var cellPosition: [DVDCellPosition]?
  /// The pre, post and cell commands, or `nil` when the PGC has no command table.
  public var commands: DVDCommandTable?
  /// Absolute offset of the PGC in its IFO file.
  public var offset: Int64
  /// Absolute offset of the program map (for errors), when present.
  public var programMapOffset: Int64?

  /// Reads a PGC. `reader`'s window starts at the PGC and extends to the end of the file.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let base = reader
    offset = reader.absoluteOffset
    try reader.skip(2)
    programCount = Int(try reader.readUInt8())
    cellCount = Int(try reader.readUInt8())
    playbackTime = try DVDTime(parsing: &reader)
    prohibitedUserOperations = try reader.readUInt32BE()
    var audio: [UInt16] = []
    audio.reserveCapacity(8)
    for _ in 0..<8 { audio.append(try reader.readUInt16BE()) }
    audioControl = audio
    subpictureControl = try reader.readUInt32BEArray(count: 32)
    nextProgramChain = try reader.readUInt16BE()
    previousProgramChain = try reader.readUInt16BE()
    goUpProgramChain = try reader.readUInt16BE()
    playbackMode = try reader.readUInt8()
    stillTime = try reader.readUInt8()
    palette = try reader.readUInt32BEArray(count: 16)
    let commandOffset = Int(try reader.readUInt16BE())
    let mapOffset = Int(try reader.readUInt16BE())
    let playbackOffset = Int(try reader.readUInt16BE())
    let positionOffset = Int(try reader.readUInt16BE())

    if commandOffset != 0 {
      // The command table must be readable (libdvdread fails the PGC otherwise).
      var commands = try base.slice(
        atRelative: commandOffset, count: 8, structure: base.structure + " command table")
      let pre = Int(try commands.readUInt16BE())
      let post = Int(try commands.readUInt16BE())
      let cell = Int(try commands.readUInt16BE())
      _ = try base.slice(
        atRelative: commandOffset + 8, count: (pre + post + cell) * 8,
        structure: base.structure + " command table")
      var table = try base.slice(
        atRelative: commandOffset, count: 8 + (pre + post + cell) * 8,
        structure: base.structure + " command table")
      self.commands = try DVDCommandTable(parsing: &table)
    } else {
      self.commands = nil
    }
    if mapOffset != 0 && programCount > 0 {
      let map = try base.slice(
        atRelative: mapOffset, count: programCount, structure: base.structure + " program map")
      programMap = Array(map.window)
      programMapOffset = map.absoluteOffset
    } else {
      programMap = nil
      programMapOffset = nil
    }
    if playbackOffset != 0 && cellCount > 0 {
      var table = try base.slice(
        atRelative: playbackOffset, count: cellCount * 24,
        structure: base.structure + " cell playback table")
      var cells: [DVDCellPlayback] = []
      cells.reserveCapacity(cellCount)
      for _ in 0..<cellCount { cells.append(try DVDCellPlayback(parsing: &table)) }
      cellPlayback = cells
    } else {
      cellPlayback = nil
    }
    if positionOffset != 0 && cellCount > 0 {
      var table = try base.slice(
        atRelative: positionOffset, count: cellCount * 4,
        structure: base.structure + " cell position table")
      var positions: [DVDCellPosition] = []
      positions.reserveCapacity(cellCount)
      for _ in 0..<cellCount { positions.append(try DVDCellPosition(parsing: &table)) }
      cellPosition = positions
    } else {
      cellPosition = nil
    }
  }

  /// The audio stream indices (0-based, into the title set's audio attributes) this PGC enables.
  public var enabledAudioStreams: [Int] {
    audioControl.indices.filter { audioControl[$0] & 0x8000 != 0 }
  }

  /// The subpicture stream indices (0-based) this PGC enables.
  public var enabledSubpictureStreams: [Int] {
    subpictureControl.indices.filter { subpictureControl[$0] & 0x8000_0000 != 0 }
  }
}
