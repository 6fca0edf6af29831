/// A VOBU address map (`vobu_admap_t`, VTS_VOBU_ADMAP or a menu map): the start sector of every
/// video object unit, relative to the VOBs' first sector.
@_spi(Formats)
public struct DVDVOBUAddressMap: Sendable, Hashable {
  /// The start sectors, in order.
  public var startSectors: [UInt32]

  /// Reads the map; `reader`'s window starts at the map and extends to the end of the file.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let base = reader
    let last = Int(try reader.readUInt32BE())
    guard last + 1 >= 4 else {
      throw base.malformed("last byte \(last) lies inside the map header", atRelative: 0)
    }
    let infoLength = last + 1 - 4
    guard infoLength <= reader.remaining else {
      throw DiscKitError.truncated(
        base.structure, at: reader.absoluteOffset, needed: Int64(infoLength))
    }
    startSectors = try reader.readUInt32BEArray(count: infoLength / 4)
  }
}
