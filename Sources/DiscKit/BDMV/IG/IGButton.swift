/// One button of an interactive-graphics page (BD-ROM part 3, 9.3.3.6 `button()`).
package struct IGButton: Sendable, Hashable {
  /// `button_id`.
  package var id: UInt16
  /// `button_numeric_select_value` (0xFFFF: none).
  package var numericSelectValue: UInt16
  /// `auto_action_flag`: selecting the button activates it.
  package var autoAction: Bool
  /// The button's position.
  package var x: UInt16
  package var y: UInt16
  /// Neighbour button ids (up, down, left, right).
  package var neighbours: [UInt16]
  /// The commands run when the button is activated.
  package var commands: [NavigationCommand]

  /// Parses one button.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    id = try reader.readUInt16BE()
    numericSelectValue = try reader.readUInt16BE()
    autoAction = try reader.readUInt8() & 0x80 != 0
    x = try reader.readUInt16BE()
    y = try reader.readUInt16BE()
    neighbours = []
    for _ in 0..<4 { neighbours.append(try reader.readUInt16BE()) }
    // normal: start, end object ids, repeat flag; selected: sound, start, end, repeat;
    // activated: sound, start, end.
    try reader.skip(5 + 6 + 5)
    let count = Int(try reader.readUInt16BE())
    guard count * 12 <= reader.remaining else {
      throw reader.error(
        .truncated, "button \(id) declares \(count) commands, only \(reader.remaining / 12) fit")
    }
    commands = []
    commands.reserveCapacity(count)
    for _ in 0..<count {
      commands.append(
        NavigationCommand(
          instruction: try reader.readUInt32BE(), destination: try reader.readUInt32BE(),
          source: try reader.readUInt32BE()))
    }
  }

  /// A button (for authoring and tests).
  package init(id: UInt16, commands: [NavigationCommand], autoAction: Bool = false) {
    self.id = id
    self.numericSelectValue = 0xFFFF
    self.autoAction = autoAction
    self.x = 0
    self.y = 0
    self.neighbours = [0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF]
    self.commands = commands
  }
}
