/// The title search pointer table of the video manager (`tt_srpt_t`, TT_SRPT): every title of
/// the disc with its title set, number within the set, angles and chapters.
///
/// Follows libdvdread: a zero `last_byte` is computed from the count, and the count is cut to
/// the entries that fit before `last_byte`.
@_spi(Formats)
public struct DVDTitleSearchTable: Sendable, Hashable {
  /// One title (`title_info_t`, 12 bytes).
  public struct Entry: Sendable, Hashable {
    /// Playback type bits.
    public var playbackType: UInt8
    /// Number of angles.
    public var angleCount: Int
    /// Number of chapters (parts of title).
    public var partCount: Int
    /// Parental id field.
    public var parentalID: UInt16
    /// The title set (VTS) number.
    public var titleSet: Int
    /// The title's number within its title set.
    public var titleInSet: Int
    /// Start sector of the title set, relative to the disc.
    public var titleSetSector: UInt32
    /// Absolute offset of the entry in VIDEO_TS.IFO.
    public var offset: Int64
  }

  /// The titles, in disc order (title number = index + 1).
  public var titles: [Entry]

  /// Reads the table; `reader`'s window starts at the table and extends to the end of the file.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let base = reader
    let declared = Int(try reader.readUInt16BE())
    try reader.skip(2)
    var last = Int(try reader.readUInt32BE())
    if last == 0 { last = declared * 12 - 1 + 8 }
    guard last >= 7 else {
      throw base.malformed("last byte \(last) lies inside the table header", atRelative: 4)
    }
    let infoLength = last + 1 - 8
    guard infoLength <= reader.remaining else {
      throw DiscKitError.truncated(
        base.structure, at: reader.absoluteOffset, needed: Int64(infoLength))
    }
    let count = min(declared, infoLength / 12)
    var entries: [Entry] = []
    entries.reserveCapacity(count)
    for _ in 0..<count {
      let offset = reader.absoluteOffset
      let type = try reader.readUInt8()
      let angles = Int(try reader.readUInt8())
      let parts = Int(try reader.readUInt16BE())
      let parental = try reader.readUInt16BE()
      let vts = Int(try reader.readUInt8())
      let ttn = Int(try reader.readUInt8())
      let sector = try reader.readUInt32BE()
      entries.append(
        Entry(
          playbackType: type, angleCount: angles, partCount: parts, parentalID: parental,
          titleSet: vts,
          titleInSet: ttn, titleSetSector: sector, offset: offset))
    }
    titles = entries
  }
}
