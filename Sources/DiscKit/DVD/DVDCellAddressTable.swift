/// A cell address table (`c_adt_t`, VTS_C_ADT or a menu C_ADT): where each cell of each VOB lies
/// in the VOBs, in sectors relative to the VOBs' first sector.
@_spi(Formats)
public struct DVDCellAddressTable: Sendable, Hashable {
  /// One cell piece (`cell_adr_t`, 12 bytes).
  public struct Entry: Sendable, Hashable {
    /// `vob_id`: the VOB the piece belongs to (1-based).
    public var vobID: UInt16
    /// `cell_id`: the cell within that VOB (1-based).
    public var cellID: UInt8
    /// `start_sector`: the piece's first sector (2048 bytes), relative to the first sector of the
    /// VOBs.
    public var startSector: UInt32
    /// `last_sector`: the piece's last sector (inclusive), relative to the first sector of the
    /// VOBs.
    public var lastSector: UInt32
  }

  /// The declared number of VOBs (cut, like libdvdread, to the entries present).
  public var vobCount: Int
  /// The entries.
  public var entries: [Entry]

  /// Reads the table; `reader`'s window starts at the table and extends to the end of the file.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let base = reader
    let declared = Int(try reader.readUInt16BE())
    try reader.skip(2)
    let last = Int(try reader.readUInt32BE())
    guard last + 1 >= 8 else {
      throw base.malformed("last byte \(last) lies inside the table header", atRelative: 4)
    }
    let infoLength = last + 1 - 8
    guard infoLength <= reader.remaining else {
      throw DiscKitError.truncated(
        base.structure, at: reader.absoluteOffset, needed: Int64(infoLength))
    }
    let count = infoLength / 12
    var result: [Entry] = []
    result.reserveCapacity(count)
    for _ in 0..<count {
      let vob = try reader.readUInt16BE()
      let cell = try reader.readUInt8()
      try reader.skip(1)
      let start = try reader.readUInt32BE()
      let end = try reader.readUInt32BE()
      result.append(Entry(vobID: vob, cellID: cell, startSector: start, lastSector: end))
    }
    vobCount = min(declared, count)
    entries = result
  }
}
