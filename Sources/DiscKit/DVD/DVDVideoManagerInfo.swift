/// The video manager information (VIDEO_TS.IFO or VIDEO_TS.BUP): the disc's title list.
///
/// Mandatory parts, as in libdvdread's `ifoOpen(dvd, 0)`: the `DVDVIDEO-VMG` header (`vmgi_mat_t`,
/// 510 bytes), the first-play PGC when it has an offset, the title search pointer table and the
/// title set attribute table. The menu cell address table and VOBU map are optional: a broken one
/// is recorded, not fatal.
@_spi(Formats)
public struct DVDVideoManagerInfo: Sendable {
  /// The file name the information was read from (`VIDEO_TS.IFO` or `VIDEO_TS.BUP`).
  public var fileName: String
  /// Last sector of the VMG.
  public var lastSector: UInt32
  /// Last sector of the VMGI (the IFO).
  public var informationLastSector: UInt32
  /// Specification version byte.
  public var specificationVersion: UInt8
  /// VMG category (region mask in bits 16-23).
  public var category: UInt32
  /// Number of volumes and this volume's number.
  public var volumeCount: Int
  /// This volume's number (`vmg_this_volume_nr`, 1-based).
  public var volumeNumber: Int
  /// Disc side (1 or 2).
  public var discSide: Int
  /// Declared number of title sets.
  public var titleSetCount: Int
  /// Provider identifier (32 bytes, trailing spaces and NULs removed).
  public var providerIdentifier: String
  /// The first-play PGC, if any.
  public var firstPlayProgramChain: DVDProgramChain?
  /// The title search pointer table.
  public var titles: DVDTitleSearchTable
  /// The title set attribute table.
  public var titleSetAttributes: DVDTitleSetAttributeTable
  /// The menu cell address table (nil when absent), or why it could not be read.
  public var menuCellAddresses: Result<DVDCellAddressTable, DiscKitError>?
  /// The menu VOBU address map (nil when absent), or why it could not be read.
  public var menuVOBUAddresses: Result<DVDVOBUAddressMap, DiscKitError>?
  /// The video manager menus (VMGM_PGCI_UT; nil when absent), or why they could not be read.
  public var menus: Result<DVDMenuTable, DiscKitError>?
  /// Start sector of the menu VOBs (VIDEO_TS.VOB) relative to the VMG (0 when there are none).
  public var menuVOBsSector: UInt32

  /// Parses a whole VIDEO_TS.IFO (or .BUP) file.
  public init(bytes: [UInt8], fileName: String = "VIDEO_TS.IFO") throws(DiscKitError) {
    self.fileName = fileName
    let file = BinaryReader(bytes, structure: fileName)
    var header = try file.slice(
      atRelative: 0, count: min(510, file.count), structure: fileName + " VMGI_MAT")
    guard header.count == 510 else {
      throw DiscKitError.truncated(header.structure, at: 0, needed: 510)
    }
    let identifier = try header.readBytes(12)
    guard identifier == Array("DVDVIDEO-VMG".utf8) else {
      throw header.malformed("identifier is not DVDVIDEO-VMG", atRelative: 0)
    }
    lastSector = try header.uint32BE(atRelative: 12)
    informationLastSector = try header.uint32BE(atRelative: 28)
    specificationVersion = try header.uint8(atRelative: 33)
    category = try header.uint32BE(atRelative: 34)
    volumeCount = Int(try header.uint16BE(atRelative: 38))
    volumeNumber = Int(try header.uint16BE(atRelative: 40))
    discSide = Int(try header.uint8(atRelative: 42))
    titleSetCount = Int(try header.uint16BE(atRelative: 62))
    providerIdentifier = DVDVideoManagerInfo.text(try header.bytes(atRelative: 64, count: 32))
    let firstPlay = Int(try header.uint32BE(atRelative: 132))
    let titleTableSector = Int(try header.uint32BE(atRelative: 196))
    let menuTableSector = Int(try header.uint32BE(atRelative: 200))
    menuVOBsSector = try header.uint32BE(atRelative: 192)
    let attributeSector = Int(try header.uint32BE(atRelative: 208))
    let menuCellSector = Int(try header.uint32BE(atRelative: 216))
    let menuVOBUSector = Int(try header.uint32BE(atRelative: 220))

    if firstPlay != 0 {
      var reader = try DVDVideoManagerInfo.table(
        file, byte: firstPlay, name: "FP_PGC", pointerAt: 132)
      firstPlayProgramChain = try DVDProgramChain(parsing: &reader)
    } else {
      firstPlayProgramChain = nil
    }
    guard titleTableSector != 0 else {
      throw header.malformed("the title search pointer table (TT_SRPT) is missing", atRelative: 196)
    }
    var titleReader = try DVDVideoManagerInfo.table(
      file, byte: titleTableSector * 2048, name: "TT_SRPT", pointerAt: 196)
    titles = try DVDTitleSearchTable(parsing: &titleReader)
    guard attributeSector != 0 else {
      throw header.malformed("the title set attribute table (VTS_ATRT) is missing", atRelative: 208)
    }
    var attributeReader = try DVDVideoManagerInfo.table(
      file, byte: attributeSector * 2048, name: "VTS_ATRT", pointerAt: 208)
    titleSetAttributes = try DVDTitleSetAttributeTable(parsing: &attributeReader)
    menus = DVDVideoManagerInfo.optionalTable(
      file, sector: menuTableSector, name: "VMGM_PGCI_UT", pointerAt: 200
    ) { (r) throws(DiscKitError) in try DVDMenuTable(parsing: &r) }
    menuCellAddresses = DVDVideoManagerInfo.optionalTable(
      file, sector: menuCellSector, name: "VMGM_C_ADT", pointerAt: 216
    ) { (r) throws(DiscKitError) in try DVDCellAddressTable(parsing: &r) }
    menuVOBUAddresses = DVDVideoManagerInfo.optionalTable(
      file, sector: menuVOBUSector, name: "VMGM_VOBU_ADMAP", pointerAt: 220
    ) { (r) throws(DiscKitError) in try DVDVOBUAddressMap(parsing: &r) }
  }

  /// A reader from `byte` to the end of `file`, or an error naming the pointer field.
  static func table(_ file: BinaryReader, byte: Int, name: String, pointerAt: Int)
    throws(DiscKitError) -> BinaryReader
  {
    guard byte < file.count else {
      throw DiscKitError(
        .malformed, file.structure + " " + name, at: Int64(pointerAt),
        "table at byte \(byte) lies past the end of the \(file.count)-byte file")
    }
    return try file.slice(
      atRelative: byte, count: file.count - byte, structure: file.structure + " " + name)
  }

  /// An optional table: `nil` when its sector pointer is 0, else the table parsed (or the error
  /// that stopped it: optional tables never fail the whole IFO, as in libdvdread).
  static func optionalTable<T>(
    _ file: BinaryReader, sector: Int, name: String, pointerAt: Int,
    _ parse: (inout BinaryReader) throws(DiscKitError) -> T
  ) -> Result<T, DiscKitError>? {
    guard sector != 0 else { return nil }
    return Result { () throws(DiscKitError) in
      var reader = try table(file, byte: sector * 2048, name: name, pointerAt: pointerAt)
      return try parse(&reader)
    }
  }

  /// Printable ASCII with trailing spaces/NULs removed.
  static func text(_ bytes: ArraySlice<UInt8>) -> String {
    var chars = bytes.map { $0 >= 0x20 && $0 < 0x7f ? $0 : 0x20 }
    while chars.last == 0x20 { chars.removeLast() }
    return String(decoding: chars, as: UTF8.self)
  }
}
