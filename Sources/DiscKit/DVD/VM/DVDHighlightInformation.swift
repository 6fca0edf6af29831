/// The highlight information of a navigation pack's PCI (`hli_t`): the menu buttons shown while
/// the VOBU plays.
///
/// A menu can carry up to three button groups (`btngr_ns`), one per display type (a 16:9 menu
/// shown wide, letterboxed or panned and scanned needs different rectangles, and may have
/// different commands): group `g` (0-based) of `n` groups holds the button slots
/// `36 / n * g ..< 36 / n * g + btn_ns`. ``buttons`` is the first group (the one libdvdnav uses).
@_spi(Formats)
public struct DVDHighlightInformation: Sendable, Hashable {
  /// One button group.
  public struct ButtonGroup: Sendable, Hashable {
    /// `btngrN_dsp_ty`: 0 for 4:3 (normal); else bit 0 wide (16:9), bit 1 letterbox, bit 2
    /// pan & scan.
    public var displayType: Int
    /// The group's buttons, numbered 1… as the player numbers them.
    public var buttons: [DVDButton]

    /// A group from its parts.
    package init(displayType: Int, buttons: [DVDButton]) {
      self.displayType = displayType
      self.buttons = buttons
    }
  }

  /// `hli_ss` (2 bits): 0 no highlight information, 1 new, 2 same as the previous VOBU's
  /// (`buttons` still parsed), 3 same with new commands.
  public var status: Int
  /// `hli_s_ptm`, `hli_e_ptm` and `btn_se_e_ptm`: when the highlight starts and ends (90 kHz).
  public var startPTM: UInt32
  /// `hli_e_ptm`: when the highlight ends (90 kHz).
  public var endPTM: UInt32
  /// `btn_se_e_ptm`: when button selection ends (90 kHz).
  public var selectionEndPTM: UInt32
  /// `btngr_ns`: the number of button groups (1-3; 0 on packs without buttons).
  public var groupCount: Int
  /// The button groups (one with ``buttons`` when `btngr_ns` is 0 but there are buttons).
  public var groups: [ButtonGroup]
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
    let groupWord = try reader.readUInt16BE()
    groupCount = Int(groupWord >> 12 & 3)
    buttonOffset = Int(try reader.readUInt8())
    let count = min(36, Int(try reader.readUInt8()))
    numericallySelectable = Int(try reader.readUInt8())
    try reader.skip(1)
    forcedSelect = Int(try reader.readUInt8())
    forcedActivate = Int(try reader.readUInt8())
    try reader.seek(toRelative: start + 22 + 24)
    var slots: [DVDButton] = []
    slots.reserveCapacity(36)
    for index in 0..<36 {
      slots.append(try DVDButton(number: index + 1, parsing: &reader))
    }
    let first = status == 0 ? [] : Array(slots.prefix(count))
    buttons = first
    let types = [Int(groupWord >> 8 & 7), Int(groupWord >> 4 & 7), Int(groupWord & 7)]
    var list: [ButtonGroup] = []
    if !first.isEmpty {
      list.append(ButtonGroup(displayType: types[0], buttons: first))
      if groupCount > 1 {
        let size = 36 / groupCount
        for g in 1..<groupCount {
          let group = slots[size * g..<size * g + min(count, size)].enumerated().map {
            var button = $0.element
            button.number = $0.offset + 1
            return button
          }
          list.append(ButtonGroup(displayType: types[g], buttons: group))
        }
      }
    }
    self.groups = list
  }
}
