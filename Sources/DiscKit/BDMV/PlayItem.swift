/// One clip reference of a play item (angle 0 is the primary clip).
@_spi(Formats)
public struct PlayItemClip: Sendable, Hashable, Codable {
  /// The five-digit clip name, e.g. `"00012"` (→ `CLIPINF/00012.clpi`, `STREAM/00012.m2ts`).
  public var clipID: String
  /// `"M2TS"` (or `"FMTS"`).
  public var codecID: String
  /// The STC sequence of the clip this item plays.
  public var stcID: UInt8

  /// Creates a clip reference.
  public init(clipID: String, codecID: String = "M2TS", stcID: UInt8 = 0) {
    self.clipID = clipID
    self.codecID = codecID
    self.stcID = stcID
  }

  /// The stream file name, `00012.m2ts` (or `.fmts`).
  public var streamFileName: String { clipID + (codecID == "FMTS" ? ".fmts" : ".m2ts") }
}

/// A PlayItem: a range `[inTime, outTime)` of a clip (45 kHz clock), with its angles and streams.
@_spi(Formats)
public struct PlayItem: Sendable, Hashable, Codable {
  /// The clip of each angle; `clips[0]` is the primary clip, never empty.
  public var clips: [PlayItemClip]
  /// Connection condition with the previous item: 1 non-seamless, 5 seamless, 6 seamless (no gap).
  public var connectionCondition: UInt8
  /// Start time in the clip, 45 kHz.
  public var inTime: UInt32
  /// End time in the clip, 45 kHz.
  public var outTime: UInt32
  /// Whether the item is multi-angle.
  public var isMultiAngle: Bool
  /// `random_access_flag`.
  public var randomAccessFlag: Bool
  /// Still mode: 0 none, 1 timed still, 2 infinite still.
  public var stillMode: UInt8
  /// Still time in seconds (still mode 1).
  public var stillTime: UInt16
  /// Multi-angle: angles have different audio.
  public var isDifferentAudio: Bool
  /// Multi-angle: seamless angle change.
  public var isSeamlessAngle: Bool
  /// The STN table.
  public var streams: StreamNumberTable
  /// The absolute offset of the item in its file (for errors).
  public var fileOffset: Int64

  /// The primary clip.
  public var clip: PlayItemClip { clips.first ?? PlayItemClip(clipID: "") }
  /// The number of angles (at least 1).
  public var angleCount: Int { clips.count }

  /// Creates a play item.
  public init(
    clips: [PlayItemClip], connectionCondition: UInt8 = 1, inTime: UInt32, outTime: UInt32,
    randomAccessFlag: Bool = false, stillMode: UInt8 = 0, stillTime: UInt16 = 0,
    isDifferentAudio: Bool = false,
    isSeamlessAngle: Bool = false, streams: StreamNumberTable = StreamNumberTable()
  ) {
    self.clips = clips.isEmpty ? [PlayItemClip(clipID: "00000")] : clips
    self.connectionCondition = connectionCondition
    self.inTime = inTime
    self.outTime = outTime
    self.isMultiAngle = clips.count > 1
    self.randomAccessFlag = randomAccessFlag
    self.stillMode = stillMode
    self.stillTime = stillTime
    self.isDifferentAudio = isDifferentAudio
    self.isSeamlessAngle = isSeamlessAngle
    self.streams = streams
    self.fileOffset = 0
  }

  /// Parses a PlayItem (length u16 ≥ 18, then the fields; trailing bytes are skipped).
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    fileOffset = reader.absoluteOffset
    let length = Int(try reader.readUInt16BE())
    let start = reader.relativePosition
    guard length >= 18 else { throw reader.malformed("PlayItem length \(length) is below 18") }
    guard length <= reader.remaining else {
      throw DiscKitError.truncated(
        reader.structure, at: reader.absoluteOffset, needed: Int64(length))
    }
    let clipID = try reader.readIdentifier(5)
    let codecID = try reader.readIdentifier(4)
    let flags = try reader.readUInt16BE()
    isMultiAngle = flags & 0x10 != 0
    connectionCondition = UInt8(flags & 0x0F)
    let stc = try reader.readUInt8()
    inTime = try reader.readUInt32BE()
    outTime = try reader.readUInt32BE()
    try reader.skip(8)  // UO mask
    randomAccessFlag = try reader.readUInt8() & 0x80 != 0
    stillMode = try reader.readUInt8()
    let still = try reader.readUInt16BE()
    stillTime = stillMode == 1 ? still : 0
    var clips = [PlayItemClip(clipID: clipID, codecID: codecID, stcID: stc)]
    isDifferentAudio = false
    isSeamlessAngle = false
    if isMultiAngle {
      let count = max(1, Int(try reader.readUInt8()))
      let b = try reader.readUInt8()
      isDifferentAudio = b & 0x02 != 0
      isSeamlessAngle = b & 0x01 != 0
      guard (count - 1) * 10 <= reader.remaining else {
        throw reader.malformed("\(count) angles do not fit in the PlayItem")
      }
      for _ in 1..<count {
        let id = try reader.readIdentifier(5)
        let codec = try reader.readIdentifier(4)
        let angleSTC = try reader.readUInt8()
        clips.append(PlayItemClip(clipID: id, codecID: codec, stcID: angleSTC))
      }
    }
    self.clips = clips
    streams = try StreamNumberTable(parsing: &reader)
    try reader.seek(toRelative: start + length)
  }

  /// The item's duration in 45 kHz ticks as libbluray computes it (`out - in`, wrapping).
  public var duration45k: UInt32 { outTime &- inTime }

  /// Whether the item's PTS cross the 33-bit wrap: its out-time is before its in-time, and the
  /// wrapped duration (``duration45k``) is plausible (under 2^31 ticks, 13 h 15 min). Such items
  /// are valid (libbluray and players count their times modulo 2^32 at 45 kHz).
  public var wrapsPTS: Bool { outTime < inTime && duration45k < Self.maxWrappedDuration45k }

  /// Whether the in and out times make sense: out ≥ in, or an item across the PTS wrap
  /// (``wrapsPTS``). An out-time before the in-time by a little (a wrapped duration of ~26 h) is
  /// what broken or obfuscated playlists hold.
  public var hasValidTimes: Bool { outTime >= inTime || wrapsPTS }

  /// The longest wrapped duration read as a wrap rather than an error (2^31 ticks at 45 kHz).
  public static let maxWrappedDuration45k: UInt32 = 1 << 31
}
