/// One entry of a program chain's cell position table (`cell_position_t`, 4 bytes): which VOB
/// and cell of the title VOBs the cell plays.
@_spi(Formats)
public struct DVDCellPosition: Sendable, Hashable {
  /// The VOB id.
  public var vobID: UInt16
  /// The cell id within the VOB.
  public var cellID: UInt8

  /// Reads a 4-byte entry.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    vobID = try reader.readUInt16BE()
    try reader.skip(1)
    cellID = try reader.readUInt8()
  }
}
