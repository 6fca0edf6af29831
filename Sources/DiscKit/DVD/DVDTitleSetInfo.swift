/// The information of one video title set (VTS_nn_0.IFO or VTS_nn_0.BUP).
///
/// Mandatory parts, as in libdvdread's `ifoOpen(dvd, n)`: the `DVDVIDEO-VTS` header
/// (`vtsi_mat_t`, 984 bytes), the part-of-title table, the PGC table, the title cell address
/// table and the title VOBU address map. The time map table and the menu tables are optional: a
/// broken one is recorded, not fatal.
@_spi(Formats)
public struct DVDTitleSetInfo: Sendable {
  /// The file name the information was read from.
  public var fileName: String
  /// Last sector of the title set.
  public var lastSector: UInt32
  /// Last sector of the VTSI (the IFO).
  public var informationLastSector: UInt32
  /// VTS category.
  public var category: UInt32
  /// Start sector of the menu VOBs and of the title VOBs, relative to the VTS.
  public var menuVOBsSector: UInt32
  /// Start sector of the title VOBs (`vtstt_vobs`), relative to the VTS.
  public var titleVOBsSector: UInt32
  /// The title video attributes.
  public var video: DVDVideoAttributes
  /// Declared number of audio and subpicture streams.
  public var audioStreamCount: Int
  /// Declared number of subpicture streams (`nr_of_vts_subp_streams`).
  public var subpictureStreamCount: Int
  /// All 8 audio attribute slots (the PGC's audio control says which are used).
  public var audio: [DVDAudioAttributes]
  /// All 32 subpicture attribute slots.
  public var subpictures: [DVDSubpictureAttributes]
  /// The part-of-title table.
  public var partsOfTitles: DVDPartOfTitleTable
  /// The title PGC table.
  public var programChains: DVDProgramChainTable
  /// The title cell address table.
  public var cellAddresses: DVDCellAddressTable
  /// The title VOBU address map.
  public var vobuAddresses: DVDVOBUAddressMap
  /// The time map table (nil when absent), or why it could not be read.
  public var timeMaps: Result<DVDTimeMapTable, DiscKitError>?
  /// The menu cell address table (nil when absent), or why it could not be read.
  public var menuCellAddresses: Result<DVDCellAddressTable, DiscKitError>?
  /// The menu VOBU address map (nil when absent), or why it could not be read.
  public var menuVOBUAddresses: Result<DVDVOBUAddressMap, DiscKitError>?
  /// The title set menus (VTSM_PGCI_UT; nil when absent), or why they could not be read.
  public var menus: Result<DVDMenuTable, DiscKitError>?

  /// Parses a whole VTS_nn_0.IFO (or .BUP) file.
  public init(bytes: [UInt8], fileName: String = "VTS_01_0.IFO") throws(DiscKitError) {
    self.fileName = fileName
    let file = BinaryReader(bytes, structure: fileName)
    var header = try file.slice(
      atRelative: 0, count: min(984, file.count), structure: fileName + " VTSI_MAT")
    guard header.count == 984 else {
      throw DiscKitError.truncated(header.structure, at: 0, needed: 984)
    }
    let identifier = try header.readBytes(12)
    guard identifier == Array("DVDVIDEO-VTS".utf8) else {
      throw header.malformed("identifier is not DVDVIDEO-VTS", atRelative: 0)
    }
    lastSector = try header.uint32BE(atRelative: 12)
    informationLastSector = try header.uint32BE(atRelative: 28)
    category = try header.uint32BE(atRelative: 34)
    menuVOBsSector = try header.uint32BE(atRelative: 192)
    titleVOBsSector = try header.uint32BE(atRelative: 196)
    let pttSector = Int(try header.uint32BE(atRelative: 200))
    let pgcitSector = Int(try header.uint32BE(atRelative: 204))
    let tmaptSector = Int(try header.uint32BE(atRelative: 212))
    let menuTableSector = Int(try header.uint32BE(atRelative: 208))
    let menuCellSector = Int(try header.uint32BE(atRelative: 216))
    let menuVOBUSector = Int(try header.uint32BE(atRelative: 220))
    let cellSector = Int(try header.uint32BE(atRelative: 224))
    let vobuSector = Int(try header.uint32BE(atRelative: 228))
    try header.seek(toRelative: 512)
    video = try DVDVideoAttributes(parsing: &header)
    try header.skip(1)
    audioStreamCount = Int(try header.readUInt8())
    var audio: [DVDAudioAttributes] = []
    for _ in 0..<8 { audio.append(try DVDAudioAttributes(parsing: &header)) }
    self.audio = audio
    try header.seek(toRelative: 597)
    subpictureStreamCount = Int(try header.readUInt8())
    var subpictures: [DVDSubpictureAttributes] = []
    for _ in 0..<32 { subpictures.append(try DVDSubpictureAttributes(parsing: &header)) }
    self.subpictures = subpictures

    func required(_ sector: Int, _ name: String, _ pointer: Int) throws(DiscKitError)
      -> BinaryReader
    {
      guard sector != 0 else {
        throw DiscKitError(
          .malformed, fileName + " VTSI_MAT", at: Int64(pointer), "the \(name) table is missing")
      }
      return try DVDVideoManagerInfo.table(
        file, byte: sector * 2048, name: name, pointerAt: pointer)
    }
    var ptt = try required(pttSector, "VTS_PTT_SRPT", 200)
    partsOfTitles = try DVDPartOfTitleTable(parsing: &ptt)
    var pgcit = try required(pgcitSector, "VTS_PGCIT", 204)
    programChains = try DVDProgramChainTable(parsing: &pgcit)
    var cells = try required(cellSector, "VTS_C_ADT", 224)
    cellAddresses = try DVDCellAddressTable(parsing: &cells)
    var vobus = try required(vobuSector, "VTS_VOBU_ADMAP", 228)
    vobuAddresses = try DVDVOBUAddressMap(parsing: &vobus)
    timeMaps = DVDVideoManagerInfo.optionalTable(
      file, sector: tmaptSector, name: "VTS_TMAPT", pointerAt: 212
    ) { (r) throws(DiscKitError) in try DVDTimeMapTable(parsing: &r) }
    menus = DVDVideoManagerInfo.optionalTable(
      file, sector: menuTableSector, name: "VTSM_PGCI_UT", pointerAt: 208
    ) { (r) throws(DiscKitError) in try DVDMenuTable(parsing: &r) }
    menuCellAddresses = DVDVideoManagerInfo.optionalTable(
      file, sector: menuCellSector, name: "VTSM_C_ADT", pointerAt: 216
    ) { (r) throws(DiscKitError) in try DVDCellAddressTable(parsing: &r) }
    menuVOBUAddresses = DVDVideoManagerInfo.optionalTable(
      file, sector: menuVOBUSector, name: "VTSM_VOBU_ADMAP", pointerAt: 220
    ) { (r) throws(DiscKitError) in try DVDVOBUAddressMap(parsing: &r) }
  }
}
