/// A SubPath: a parallel presentation path (secondary audio/video, text subtitles, 3D views, ...).
@_spi(Formats)
public struct SubPath: Sendable, Hashable, Codable {
  /// SubPath type: 2 audio of a browsable slideshow, 3 IG menu, 4 text subtitle, 5 out-of-mux
  /// synchronous elementary streams (secondary audio, PG, IG), 6 out-of-mux asynchronous and 7
  /// in-mux synchronous picture-in-picture, 8 and 9 stereoscopic (MVC) views.
  public var type: UInt8
  /// Whether the sub-path repeats.
  public var isRepeat: Bool
  /// Its items.
  public var items: [SubPlayItem]

  /// Creates a sub-path.
  public init(type: UInt8, isRepeat: Bool = false, items: [SubPlayItem] = []) {
    self.type = type
    self.isRepeat = isRepeat
    self.items = items
  }

  /// Parses a SubPath (length u32, reserved, type, repeat flag, item count, items).
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let length = Int(try reader.readUInt32BE())
    let start = reader.relativePosition
    guard length <= reader.remaining else {
      throw DiscKitError.truncated(
        reader.structure, at: reader.absoluteOffset, needed: Int64(length))
    }
    try reader.skip(1)
    type = try reader.readUInt8()
    isRepeat = try reader.readUInt16BE() & 1 != 0
    try reader.skip(1)
    let count = Int(try reader.readUInt8())
    guard count * 26 <= reader.remaining else {
      throw reader.malformed("\(count) SubPlayItems do not fit in the file")
    }
    items = []
    for _ in 0..<count { items.append(try SubPlayItem(parsing: &reader)) }
    try reader.seek(toRelative: start + length)
  }
}

/// A SubPlayItem of a ``SubPath``.
@_spi(Formats)
public struct SubPlayItem: Sendable, Hashable, Codable {
  /// The clips (several when `is_multi_clip`).
  public var clips: [PlayItemClip]
  /// Connection condition.
  public var connectionCondition: UInt8
  /// In/out time in the clip (45 kHz).
  public var inTime: UInt32
  /// `SubPlayItem_OUT_time` in the clip (45 kHz).
  public var outTime: UInt32
  /// The main-path play item this item is synchronised with, and the PTS.
  public var syncPlayItemID: UInt16
  /// `sync_start_PTS_of_PlayItem`: where in that play item this item starts (45 kHz).
  public var syncPTS: UInt32

  /// Creates a sub play item (for authoring and tests).
  public init(
    clips: [PlayItemClip], connectionCondition: UInt8 = 1, inTime: UInt32, outTime: UInt32,
    syncPlayItemID: UInt16 = 0, syncPTS: UInt32 = 0
  ) {
    self.clips = clips.isEmpty ? [PlayItemClip(clipID: "00000")] : clips
    self.connectionCondition = connectionCondition
    self.inTime = inTime
    self.outTime = outTime
    self.syncPlayItemID = syncPlayItemID
    self.syncPTS = syncPTS
  }

  /// Parses a SubPlayItem (length u16 ≥ 24).
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let length = Int(try reader.readUInt16BE())
    let start = reader.relativePosition
    guard length >= 24 else { throw reader.malformed("SubPlayItem length \(length) is below 24") }
    guard length <= reader.remaining else {
      throw DiscKitError.truncated(
        reader.structure, at: reader.absoluteOffset, needed: Int64(length))
    }
    let id = try reader.readIdentifier(5)
    let codec = try reader.readIdentifier(4)
    let flags = try reader.readUInt32BE()
    connectionCondition = UInt8((flags >> 1) & 0x0F)
    let multi = flags & 1 != 0
    let stc = try reader.readUInt8()
    inTime = try reader.readUInt32BE()
    outTime = try reader.readUInt32BE()
    syncPlayItemID = try reader.readUInt16BE()
    syncPTS = try reader.readUInt32BE()
    var clips = [PlayItemClip(clipID: id, codecID: codec, stcID: stc)]
    if multi {
      let count = max(1, Int(try reader.readUInt8()))
      try reader.skip(1)
      guard (count - 1) * 10 <= reader.remaining else {
        throw reader.malformed("\(count) sub-clips do not fit")
      }
      for _ in 1..<count {
        let cid = try reader.readIdentifier(5)
        let cc = try reader.readIdentifier(4)
        let s = try reader.readUInt8()
        clips.append(PlayItemClip(clipID: cid, codecID: cc, stcID: s))
      }
    }
    self.clips = clips
    try reader.seek(toRelative: start + length)
  }
}
