/// One stream of a play item's STN table: where it is (stream entry) and what it is (attributes).
@_spi(Formats)
public struct PlaylistStream: Sendable, Hashable, Codable {
  /// Stream entry type: 1 = in the play item's clip, 2 = in a sub-path sub-clip, 3/4 = in a sub-path.
  public var entryType: UInt8
  /// The transport stream PID.
  public var pid: UInt16
  /// The sub-path referenced (entry types 2-4).
  public var subPathID: UInt8
  /// The sub-clip referenced (entry type 2).
  public var subClipID: UInt8
  /// The coding type (0x1B H.264, 0x24 HEVC, 0xEA VC-1, 0x02 MPEG-2, 0x80-0x86 / 0xA1 / 0xA2 audio,
  /// 0x90 PG, 0x91 IG, 0x92 text subtitles).
  public var codingType: UInt8
  /// Video format (1080p = 6, 2160p = 8, ...) or audio channel layout.
  public var format: UInt8
  /// Video frame rate or audio sample rate code.
  public var rate: UInt8
  /// Text subtitle character code.
  public var characterCode: UInt8
  /// ISO 639-2 language code (audio, PG, IG, text subtitles), empty when absent.
  public var language: String
  /// HEVC dynamic range type (SDR 0, HDR10 1, Dolby Vision 2, ...).
  public var dynamicRangeType: UInt8
  /// HEVC colour space.
  public var colorSpace: UInt8
  /// HEVC `cr_flag`.
  public var crFlag: Bool
  /// HEVC HDR10+ flag.
  public var hdrPlusFlag: Bool

  /// The kind of stream, from its coding type.
  public var kind: Kind { Kind(codingType: codingType) }

  /// What a coding type carries.
  public enum Kind: String, Sendable, Codable {
    case video, audio, presentationGraphics, interactiveGraphics, textSubtitle, unknown

    /// The kind of stream `codingType` carries (``unknown`` for a type the format does not define).
    public init(codingType: UInt8) {
      switch codingType {
      case 0x01, 0x02, 0x1B, 0x20, 0x24, 0xEA: self = .video
      case 0x03, 0x04, 0x80...0x86, 0xA1, 0xA2: self = .audio
      case 0x90: self = .presentationGraphics
      case 0x91: self = .interactiveGraphics
      case 0x92: self = .textSubtitle
      default: self = .unknown
      }
    }
  }

  /// Creates a stream description.
  public init(
    entryType: UInt8 = 1, pid: UInt16, subPathID: UInt8 = 0, subClipID: UInt8 = 0,
    codingType: UInt8,
    format: UInt8 = 0, rate: UInt8 = 0, characterCode: UInt8 = 0, language: String = "",
    dynamicRangeType: UInt8 = 0, colorSpace: UInt8 = 0, crFlag: Bool = false,
    hdrPlusFlag: Bool = false
  ) {
    self.entryType = entryType
    self.pid = pid
    self.subPathID = subPathID
    self.subClipID = subClipID
    self.codingType = codingType
    self.format = format
    self.rate = rate
    self.characterCode = characterCode
    self.language = language
    self.dynamicRangeType = dynamicRangeType
    self.colorSpace = colorSpace
    self.crFlag = crFlag
    self.hdrPlusFlag = hdrPlusFlag
  }

  /// Parses a stream entry and its attributes (each skipped by its own length, as libbluray does).
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let entryLength = Int(try reader.readUInt8())
    let entryStart = reader.relativePosition
    entryType = try reader.readUInt8()
    subPathID = 0
    subClipID = 0
    pid = 0
    switch entryType {
    case 1:
      pid = try reader.readUInt16BE()
    case 2:
      subPathID = try reader.readUInt8()
      subClipID = try reader.readUInt8()
      pid = try reader.readUInt16BE()
    case 3, 4:
      subPathID = try reader.readUInt8()
      pid = try reader.readUInt16BE()
    default:
      break
    }
    try reader.seek(toRelative: entryStart + entryLength)

    let attributesLength = Int(try reader.readUInt8())
    let attributesStart = reader.relativePosition
    codingType = try reader.readUInt8()
    format = 0
    rate = 0
    characterCode = 0
    language = ""
    dynamicRangeType = 0
    colorSpace = 0
    crFlag = false
    hdrPlusFlag = false
    switch codingType {
    case 0x01, 0x02, 0xEA, 0x1B, 0x24:
      let b = try reader.readUInt8()
      format = b >> 4
      rate = b & 0x0F
      if codingType == 0x24 {
        let c = try reader.readUInt8()
        dynamicRangeType = c >> 4
        colorSpace = c & 0x0F
        let d = try reader.readUInt8()
        crFlag = d & 0x80 != 0
        hdrPlusFlag = d & 0x40 != 0
      }
    case 0x03, 0x04, 0x80...0x86, 0xA1, 0xA2:
      let b = try reader.readUInt8()
      format = b >> 4
      rate = b & 0x0F
      language = try reader.readIdentifier(3)
    case 0x90, 0x91:
      language = try reader.readIdentifier(3)
    case 0x92:
      characterCode = try reader.readUInt8()
      language = try reader.readIdentifier(3)
    default:
      break
    }
    try reader.seek(toRelative: attributesStart + attributesLength)
  }

  /// libbluray's `_stream_cmp`: the fields two streams must share for playlists to be duplicates.
  func sameForDuplicateCheck(_ other: PlaylistStream) -> Bool {
    entryType == other.entryType && codingType == other.codingType && pid == other.pid
      && subPathID == other.subPathID && subClipID == other.subClipID && format == other.format
      && rate == other.rate && characterCode == other.characterCode
      && colorSpace == other.colorSpace
      && language == other.language
  }
}
