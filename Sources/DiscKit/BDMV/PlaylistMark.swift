/// A PlayListMark: a chapter (entry mark) or link point, at a time inside one play item.
@_spi(Formats)
public struct PlaylistMark: Sendable, Hashable, Codable {
  /// 1 = entry mark (chapter), 2 = link point.
  public var type: UInt8
  /// The play item the mark lies in (not validated by libbluray; DiscKit checks it when it builds titles).
  public var playItemRef: UInt16
  /// The mark's time in the play item's clip (45 kHz).
  public var time: UInt32
  /// `entry_ES_PID`.
  public var entryESPID: UInt16
  /// Duration (45 kHz; 0 = until the next mark).
  public var duration: UInt32

  /// Whether this mark is a chapter.
  public var isEntry: Bool { type == 1 }

  /// Creates a mark.
  public init(
    type: UInt8 = 1, playItemRef: UInt16, time: UInt32, entryESPID: UInt16 = 0xFFFF,
    duration: UInt32 = 0
  ) {
    self.type = type
    self.playItemRef = playItemRef
    self.time = time
    self.entryESPID = entryESPID
    self.duration = duration
  }

  /// Parses one 14-byte mark.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    try reader.skip(1)
    type = try reader.readUInt8()
    playItemRef = try reader.readUInt16BE()
    time = try reader.readUInt32BE()
    entryESPID = try reader.readUInt16BE()
    duration = try reader.readUInt32BE()
  }
}
