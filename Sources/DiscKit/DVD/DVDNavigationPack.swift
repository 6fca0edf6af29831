/// A DVD-Video navigation pack (`NV_PCK`), the first sector of every VOBU: an MPEG-2 pack header,
/// a system header, the presentation control information (PCI, private stream 2 substream 0) and
/// the data search information (DSI, private stream 2 substream 1).
///
/// Only the fields needed to walk a title's VOBUs (and to follow one angle through an
/// interleaved angle block) are kept. Addresses are in 2048-byte sectors; `…Address` fields are
/// relative to this pack's sector, as on the disc. The layout follows libdvdread's `pci_t` /
/// `dsi_t` (`nav_types.h`): PCI data at byte 0x2D and DSI data at byte 0x407 of a standard pack.
@_spi(Formats)
public struct DVDNavigationPack: Sendable, Hashable {
  /// One seamless-angle entry of the DSI (`sml_agl_data_t`).
  public struct AngleAddress: Sendable, Hashable {
    /// Relative address of the angle's next ILVU: bits 0-29 the distance, bit 31 set for
    /// backwards; `0x7FFFFFFF` means the cell has no further ILVU; 0 means no such angle.
    public var address: UInt32
    /// Size of that ILVU in sectors.
    public var size: UInt16
  }

  /// `vobu_sri` value meaning "no next VOBU in this cell" (`SRI_END_OF_CELL`).
  public static let endOfCell: UInt32 = 0x3FFF_FFFF
  /// `sml_pbi.category` bits (libdvdnav's `DSI_ILVU_*`).
  public static let ilvuPreparation: UInt16 = 0x8000
  /// `DSI_ILVU_BLOCK`: the VOBU lies in an interleaved block.
  public static let ilvuBlock: UInt16 = 0x4000
  /// `DSI_ILVU_FIRST`: the VOBU is the first of its ILVU.
  public static let ilvuFirst: UInt16 = 0x2000
  /// `DSI_ILVU_LAST`: the VOBU is the last of its ILVU.
  public static let ilvuLast: UInt16 = 0x1000

  /// Byte offset of the PCI data (after the substream byte) in a standard navigation pack.
  public static let standardPCIOffset = 0x2D
  /// Byte offset of the DSI data (after the substream byte) in a standard navigation pack.
  public static let standardDSIOffset = 0x407

  /// Absolute offset of the pack (for errors).
  public var offset: Int64
  /// Where the PCI and DSI data (after their substream bytes) start in the sector.
  public var pciStart: Int
  /// Where the DSI data (after its substream byte) starts in the sector, in bytes.
  public var dsiStart: Int

  // PCI (pci_gi, nsml_agli)
  /// `pci_gi.nv_pck_lbn`: this pack's sector number.
  public var pciLogicalBlock: UInt32
  /// `pci_gi.vobu_s_ptm` / `vobu_e_ptm`: the VOBU's start and end presentation times (90 kHz).
  public var vobuStartPTM: UInt32
  /// `pci_gi.vobu_e_ptm`: the VOBU's end presentation time (90 kHz).
  public var vobuEndPTM: UInt32
  /// `nsml_agli.nsml_agl_dsta[0..<9]`: non-seamless angle destinations (0 = none).
  public var nonSeamlessAngleDestinations: [UInt32]
  /// The PCI's highlight information (menu buttons), or `nil` when the PCI packet is too short
  /// to hold it.
  public var highlight: DVDHighlightInformation?

  // DSI (dsi_gi)
  /// `dsi_gi.nv_pck_scr`.
  public var systemClockReference: UInt32
  /// `dsi_gi.nv_pck_lbn`: this pack's sector number, relative to the start of the VOB set.
  public var logicalBlock: UInt32
  /// `dsi_gi.vobu_ea`: the VOBU's last sector, relative to this pack (the VOBU is
  /// `vobuEndAddress + 1` sectors long).
  public var vobuEndAddress: UInt32
  /// `dsi_gi.vobu_vob_idn` and `vobu_c_idn`: the VOB and cell this VOBU belongs to.
  public var vobID: UInt16
  /// `dsi_gi.vobu_c_idn`: the cell this VOBU belongs to.
  public var cellID: UInt8
  /// `dsi_gi.c_eltm`: elapsed time in the cell.
  public var cellElapsedTime: DVDTime

  // DSI (sml_pbi)
  /// `sml_pbi.category`: the ILVU flags (``ilvuBlock``, ``ilvuFirst``, ``ilvuLast``, …).
  public var seamlessCategory: UInt16
  /// `sml_pbi.ilvu_ea`: the ILVU's last sector, relative to this pack.
  public var ilvuEndAddress: UInt32
  /// `sml_pbi.ilvu_sa`: the next ILVU's start, relative to this pack.
  public var nextILVUStartAddress: UInt32
  /// `sml_pbi.size`: the next ILVU's size in sectors.
  public var nextILVUSize: UInt16

  // DSI (sml_agli, vobu_sri)
  /// `sml_agli.data[0..<9]`: each angle's next ILVU.
  public var seamlessAngles: [AngleAddress]
  /// `vobu_sri.next_video`, `next_vobu`, `prev_vobu`, `prev_video`: bits 0-29 a relative sector
  /// distance, bit 31 set when a VOBU exists; the whole value is ``endOfCell`` at the end of the cell.
  public var nextVideo: UInt32
  /// `vobu_sri.next_vobu`: the next VOBU, encoded like ``nextVideo``.
  public var nextVOBU: UInt32
  /// `vobu_sri.prev_vobu`: the previous VOBU, encoded like ``nextVideo``.
  public var previousVOBU: UInt32
  /// `vobu_sri.prev_video`: the previous VOBU with video, encoded like ``nextVideo``.
  public var previousVideo: UInt32

  /// Whether this VOBU is in an interleaved block (``ilvuBlock``).
  public var isInInterleavedBlock: Bool { seamlessCategory & Self.ilvuBlock != 0 }

  /// Whether this VOBU is the last of its ILVU (``ilvuBlock`` and ``ilvuLast``, the test
  /// libdvdnav uses before following the angle addresses).
  public var isLastOfILVU: Bool {
    seamlessCategory & 0xF000 == Self.ilvuBlock | Self.ilvuLast
  }

  /// Parses one 2048-byte sector.
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` (structure `NV_PCK`, this sector's absolute
  ///   offset) when the sector is not an MPEG-2 pack holding a PCI packet followed by a DSI
  ///   packet, or ``DiscKitError/Code/truncated`` when a packet does not hold the fields read.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let packOffset = reader.absoluteOffset
    offset = packOffset
    let start = reader.relativePosition
    func fail(_ detail: String) -> DiscKitError {
      DiscKitError(.malformed, "NV_PCK", at: packOffset, detail)
    }
    guard try reader.readUInt32BE() == 0x0000_01BA else {
      throw fail("expected a navigation pack (pack start code 00 00 01 BA)")
    }
    guard try reader.uint8(atRelative: start + 4) & 0xC0 == 0x40 else {
      throw fail("not an MPEG-2 pack header")
    }
    let stuffing = Int(try reader.uint8(atRelative: start + 13) & 7)
    try reader.seek(toRelative: start + 14 + stuffing)
    var code = try reader.readUInt32BE()
    if code == 0x0000_01BB {  // system header
      let length = Int(try reader.readUInt16BE())
      try reader.skip(length)
      code = try reader.readUInt32BE()
    }
    guard code == 0x0000_01BF else {
      throw fail(
        "expected the PCI packet (private stream 2) at byte \(reader.relativePosition - start - 4)")
    }
    let pciLength = Int(try reader.readUInt16BE())
    let pciPacket = reader.relativePosition
    guard pciLength >= 97, try reader.uint8(atRelative: pciPacket) == 0x00 else {
      throw fail(
        "the first private stream 2 packet is not a PCI (substream 0) of at least 97 bytes")
    }
    let pci = pciPacket + 1
    pciStart = pci - start
    try reader.seek(toRelative: pci)
    pciLogicalBlock = try reader.readUInt32BE()
    try reader.skip(8)  // vobu_cat, zero1, vobu_uop_ctl
    vobuStartPTM = try reader.readUInt32BE()
    vobuEndPTM = try reader.readUInt32BE()
    try reader.seek(toRelative: pci + 60)
    var nsml: [UInt32] = []
    nsml.reserveCapacity(9)
    for _ in 0..<9 { nsml.append(try reader.readUInt32BE()) }
    nonSeamlessAngleDestinations = nsml
    if pciLength - 1 >= DVDHighlightInformation.pciOffset + DVDHighlightInformation.size {
      try reader.seek(toRelative: pci + DVDHighlightInformation.pciOffset)
      highlight = try DVDHighlightInformation(parsing: &reader)
    } else {
      highlight = nil
    }

    try reader.seek(toRelative: pciPacket + pciLength)
    guard try reader.readUInt32BE() == 0x0000_01BF else {
      throw fail(
        "expected the DSI packet (private stream 2) at byte \(reader.relativePosition - start - 4)")
    }
    let dsiLength = Int(try reader.readUInt16BE())
    let dsiPacket = reader.relativePosition
    guard dsiLength >= 403, try reader.uint8(atRelative: dsiPacket) == 0x01 else {
      throw fail(
        "the second private stream 2 packet is not a DSI (substream 1) of at least 403 bytes")
    }
    guard dsiPacket + dsiLength - start <= 2048 else {
      throw DiscKitError(
        .truncated, "NV_PCK", at: packOffset,
        "the DSI packet runs past the end of the 2048-byte sector")
    }
    let dsi = dsiPacket + 1
    dsiStart = dsi - start
    try reader.seek(toRelative: dsi)
    systemClockReference = try reader.readUInt32BE()
    logicalBlock = try reader.readUInt32BE()
    vobuEndAddress = try reader.readUInt32BE()
    try reader.skip(12)  // 1st/2nd/3rd reference end addresses
    vobID = try reader.readUInt16BE()
    try reader.skip(1)
    cellID = try reader.readUInt8()
    cellElapsedTime = try DVDTime(parsing: &reader)
    seamlessCategory = try reader.readUInt16BE()
    ilvuEndAddress = try reader.readUInt32BE()
    nextILVUStartAddress = try reader.readUInt32BE()
    nextILVUSize = try reader.readUInt16BE()
    try reader.seek(toRelative: dsi + 180)
    var angles: [AngleAddress] = []
    angles.reserveCapacity(9)
    for _ in 0..<9 {
      let address = try reader.readUInt32BE()
      let size = try reader.readUInt16BE()
      angles.append(AngleAddress(address: address, size: size))
    }
    seamlessAngles = angles
    nextVideo = try reader.readUInt32BE()
    try reader.skip(19 * 4)  // fwda
    nextVOBU = try reader.readUInt32BE()
    previousVOBU = try reader.readUInt32BE()
    try reader.skip(19 * 4)  // bwda
    previousVideo = try reader.readUInt32BE()
  }

  /// Parses the 2048-byte sector `bytes` found at absolute offset `offset`.
  public init(sector bytes: [UInt8], at offset: Int64) throws(DiscKitError) {
    guard bytes.count >= 2048 else {
      throw DiscKitError(
        .truncated, "NV_PCK", at: offset, "\(bytes.count) bytes where a 2048-byte sector is needed")
    }
    var reader = BinaryReader(
      bytes.count == 2048 ? bytes : Array(bytes.prefix(2048)), baseOffset: offset,
      structure: "NV_PCK")
    try self.init(parsing: &reader)
  }
}
