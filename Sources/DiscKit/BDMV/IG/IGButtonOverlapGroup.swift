/// A button overlap group (BOG): buttons drawn at the same place, one shown at a time.
package struct IGButtonOverlapGroup: Sendable, Hashable {
  /// `default_valid_button_id_ref` (0xFFFF: none).
  package var defaultValidButton: UInt16
  /// The buttons.
  package var buttons: [IGButton]

  /// Parses one group.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    defaultValidButton = try reader.readUInt16BE()
    let count = Int(try reader.readUInt8())
    buttons = []
    for _ in 0..<count { buttons.append(try IGButton(parsing: &reader)) }
  }

  /// A group (for authoring and tests).
  package init(defaultValidButton: UInt16 = 0xFFFF, buttons: [IGButton]) {
    self.defaultValidButton = defaultValidButton
    self.buttons = buttons
  }
}
