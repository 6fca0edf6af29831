/// One page of an interactive composition (BD-ROM part 3, 9.3.3.4 `page()`).
package struct IGPage: Sendable, Hashable {
  /// `page_id`.
  package var id: UInt8
  /// `page_version_number`.
  package var version: UInt8
  /// `default_selected_button_id_ref` (0xFFFF: none).
  package var defaultSelectedButton: UInt16
  /// `default_activated_button_id_ref` (0xFFFF: none; 0xFFFE: the selected one).
  package var defaultActivatedButton: UInt16
  /// The button overlap groups.
  package var groups: [IGButtonOverlapGroup]

  /// Every button of the page.
  package var buttons: [IGButton] { groups.flatMap(\.buttons) }

  /// Parses one page.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    id = try reader.readUInt8()
    version = try reader.readUInt8()
    try reader.skip(8)  // UO mask table
    try Self.skipEffects(&reader)  // in effects
    try Self.skipEffects(&reader)  // out effects
    try reader.skip(1)  // animation frame rate code
    defaultSelectedButton = try reader.readUInt16BE()
    defaultActivatedButton = try reader.readUInt16BE()
    try reader.skip(1)  // palette id
    let count = Int(try reader.readUInt8())
    groups = []
    for _ in 0..<count { groups.append(try IGButtonOverlapGroup(parsing: &reader)) }
  }

  /// A page (for authoring and tests).
  package init(id: UInt8, groups: [IGButtonOverlapGroup]) {
    self.id = id
    self.version = 0
    self.defaultSelectedButton = 0xFFFF
    self.defaultActivatedButton = 0xFFFF
    self.groups = groups
  }

  /// `effect_sequence()`: windows, then effects with their composition objects.
  static func skipEffects(_ reader: inout BinaryReader) throws(DiscKitError) {
    let windows = Int(try reader.readUInt8())
    try reader.skip(windows * 9)
    let effects = Int(try reader.readUInt8())
    for _ in 0..<effects {
      try reader.skip(4)  // duration, palette id
      let objects = Int(try reader.readUInt8())
      for _ in 0..<objects {
        try reader.skip(3)  // object id, window id
        let cropped = try reader.readUInt8() & 0x80 != 0
        try reader.skip(4 + (cropped ? 8 : 0))
      }
    }
  }
}
