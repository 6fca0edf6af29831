/// One menu button of a navigation pack's highlight information (`btni_t`, 18 bytes).
@_spi(Formats)
public struct DVDButton: Sendable, Hashable {
  /// The 1-based button number.
  public var number: Int
  /// The button colour table number (0 = none).
  public var colorTable: Int
  /// The button rectangle (inclusive pixel coordinates).
  public var x: ClosedRange<Int>
  /// The button rectangle's rows (inclusive).
  public var y: ClosedRange<Int>
  /// `auto_action_mode`: non-zero when selecting the button also activates it.
  public var autoAction: Int
  /// The buttons reached with up, down, left and right (1-based, 0 = none).
  public var up: Int
  /// The button reached with down.
  public var down: Int
  /// The button reached with left.
  public var left: Int
  /// The button reached with right.
  public var right: Int
  /// The command run when the button is activated.
  public var command: DVDCommand

  /// Reads an 18-byte `btni_t`.
  package init(number: Int, parsing reader: inout BinaryReader) throws(DiscKitError) {
    self.number = number
    let b0 = Int(try reader.readUInt8())
    let b1 = Int(try reader.readUInt8())
    let b2 = Int(try reader.readUInt8())
    colorTable = b0 >> 6
    let x0 = (b0 & 0x3F) << 4 | b1 >> 4
    let x1 = (b1 & 0x03) << 8 | b2
    let c0 = Int(try reader.readUInt8())
    let c1 = Int(try reader.readUInt8())
    let c2 = Int(try reader.readUInt8())
    autoAction = c0 >> 6
    let y0 = (c0 & 0x3F) << 4 | c1 >> 4
    let y1 = (c1 & 0x03) << 8 | c2
    x = min(x0, x1)...max(x0, x1)
    y = min(y0, y1)...max(y0, y1)
    up = Int(try reader.readUInt8() & 0x3F)
    down = Int(try reader.readUInt8() & 0x3F)
    left = Int(try reader.readUInt8() & 0x3F)
    right = Int(try reader.readUInt8() & 0x3F)
    command = try DVDCommand(parsing: &reader)
  }
}
