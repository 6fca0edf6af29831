/// A menu PGCI unit table (`pgci_ut_t`, VMGM_PGCI_UT or VTSM_PGCI_UT): one menu PGC table per
/// menu language.
///
/// Like libdvdread, a language unit whose PGC table cannot be read does not fail the table: the
/// unit holds the error instead.
@_spi(Formats)
public struct DVDMenuTable: Sendable {
  /// One language unit (`pgci_lu_t`).
  public struct LanguageUnit: Sendable {
    /// The ISO 639 language code (two ASCII letters, big-endian, as SPRM 0 holds it).
    public var languageCode: UInt16
    /// The menus present in this unit (`exists` bit mask: 0x80 title/root … as on the disc).
    public var existingMenus: UInt8
    /// The unit's menu PGCs, or why they could not be read.
    public var programChains: Result<DVDProgramChainTable, DiscKitError>
  }

  /// The language units, in disc order.
  public var units: [LanguageUnit]

  /// Reads the table; `reader`'s window starts at the table and extends to the end of the file.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let base = reader
    let count = Int(try reader.readUInt16BE())
    try reader.skip(6)  // zero, last_byte
    guard count * 8 <= reader.remaining else {
      throw DiscKitError.truncated(
        base.structure, at: reader.absoluteOffset, needed: Int64(count * 8))
    }
    var list: [LanguageUnit] = []
    list.reserveCapacity(count)
    for index in 0..<count {
      let code = try reader.readUInt16BE()
      try reader.skip(1)
      let exists = try reader.readUInt8()
      let start = Int(try reader.readUInt32BE())
      let table = Result { () throws(DiscKitError) -> DVDProgramChainTable in
        guard start >= 8, start < base.count else {
          throw DiscKitError.malformed(
            base.structure, at: base.absoluteOffset(ofRelative: 8 + index * 8 + 4),
            "language unit \(index + 1) starts at byte \(start), outside the file")
        }
        var unit = try base.slice(
          atRelative: start, count: base.count - start,
          structure: base.structure + " LU \(index + 1)")
        return try DVDProgramChainTable(parsing: &unit)
      }
      list.append(LanguageUnit(languageCode: code, existingMenus: exists, programChains: table))
    }
    units = list
  }

  /// The PGC table for menu language `language` (SPRM 0), or the first unit's when no unit has
  /// that language (libdvdnav's `get_MENU_PGCIT`); `nil` when there is no readable unit.
  public func programChains(language: UInt16) -> DVDProgramChainTable? {
    let unit = units.first { $0.languageCode == language } ?? units.first
    return try? unit?.programChains.get()
  }
}
