/// The highlight information of a navigation pack's PCI (`hli_t`): the menu buttons shown while
/// the VOBU plays.
public struct DVDHighlightInformation: Sendable, Hashable {
  /// `hli_ss` (2 bits): 0 no highlight information, 1 new, 2 same as the previous VOBU's
  /// (`buttons` still parsed), 3 same with new commands.
  public var status: Int
  /// `hli_s_ptm`, `hli_e_ptm` and `btn_se_e_ptm`: when the highlight starts and ends (90 kHz).
  public var startPTM: UInt32
  /// `hli_e_ptm`: when the highlight ends (90 kHz).
  public var endPTM: UInt32
  /// `btn_se_e_ptm`: when button selection ends (90 kHz).
  public var selectionEndPTM: UInt32
  /// `btngr_ns`: the number of button groups (1-3).
  public var groupCount: Int
  /// `btn_ofn`: the button offset number.
  public var buttonOffset: Int
  /// `nsl_btn_ns`: the number of numerically selectable buttons.
  public var numericallySelectable: Int
  /// `fosl_btnn`: the button to select when the highlight starts (0 = keep SPRM 8).
  public var forcedSelect: Int
  /// `foac_btnn`: the button to activate when the highlight starts (0 = none).
  public var forcedActivate: Int
  /// The buttons (`btn_ns` of the 36 slots, at most 36).
  public var buttons: [DVDButton]

  /// The PCI's highlight information starts 96 bytes into the PCI data (after `pci_gi` and
  /// `nsml_agli`).
  public static let pciOffset = 96
  /// The highlight information's size: 22 bytes of `hl_gi`, 24 of colours, 36 buttons of 18 bytes.
  public static let size = 22 + 24 + 36 * 18

  /// Reads `hli_t`; `reader` is at its first byte.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let start = reader.relativePosition
    status = Int(try reader.readUInt16BE() & 3)
    startPTM = try reader.readUInt32BE()
    endPTM = try reader.readUInt32BE()
    selectionEndPTM = try reader.readUInt32BE()
    let groups = try reader.readUInt16BE()
    groupCount = Int(groups >> 12 & 3)
    buttonOffset = Int(try reader.readUInt8())
    let count = min(36, Int(try reader.readUInt8()))
    numericallySelectable = Int(try reader.readUInt8())
    try reader.skip(1)
    forcedSelect = Int(try reader.readUInt8())
    forcedActivate = Int(try reader.readUInt8())
    try reader.seek(toRelative: start + 22 + 24)
    var list: [DVDButton] = []
    list.reserveCapacity(count)
    for index in 0..<count { list.append(try DVDButton(number: index + 1, parsing: &reader)) }
    buttons = status == 0 ? [] : list
  }
}
