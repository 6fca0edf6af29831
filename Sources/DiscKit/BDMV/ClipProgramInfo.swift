/// A clip's ProgramInfo: the elementary streams of each program sequence.
public struct ClipProgramInfo: Sendable, Hashable, Codable {
  /// One elementary stream of a program.
  public struct Stream: Sendable, Hashable, Codable {
    public var pid: UInt16
    public var codingType: UInt8
    /// Video format / audio layout, video rate / audio sample rate, video aspect ratio.
    public var format: UInt8
    public var rate: UInt8
    public var aspect: UInt8
    /// Language code (audio, PG, IG, text).
    public var language: String

    public init(
      pid: UInt16, codingType: UInt8, format: UInt8 = 0, rate: UInt8 = 0, aspect: UInt8 = 0,
      language: String = ""
    ) {
      self.pid = pid
      self.codingType = codingType
      self.format = format
      self.rate = rate
      self.aspect = aspect
      self.language = language
    }
  }

  /// One program sequence.
  public struct Program: Sendable, Hashable, Codable {
    public var spnProgramSequenceStart: UInt32
    public var programMapPID: UInt16
    public var groupCount: UInt8
    public var streams: [Stream]

    public init(
      spnProgramSequenceStart: UInt32 = 0, programMapPID: UInt16 = 0x100, groupCount: UInt8 = 0,
      streams: [Stream]
    ) {
      self.spnProgramSequenceStart = spnProgramSequenceStart
      self.programMapPID = programMapPID
      self.groupCount = groupCount
      self.streams = streams
    }
  }

  public var programs: [Program]

  public init(programs: [Program]) { self.programs = programs }

  /// Parses ProgramInfo at the reader's cursor.
  public init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    try reader.skip(5)
    let count = Int(try reader.readUInt8())
    programs = []
    for _ in 0..<count {
      let spn = try reader.readUInt32BE()
      let pmt = try reader.readUInt16BE()
      let streamCount = Int(try reader.readUInt8())
      let groups = try reader.readUInt8()
      guard streamCount * 3 <= reader.remaining else {
        throw reader.malformed("\(streamCount) program streams do not fit in the file")
      }
      var streams: [Stream] = []
      for _ in 0..<streamCount {
        let pid = try reader.readUInt16BE()
        let length = Int(try reader.readUInt8())
        let start = reader.relativePosition
        let coding = try reader.readUInt8()
        var stream = Stream(pid: pid, codingType: coding)
        switch coding {
        case 0x01, 0x02, 0xEA, 0x1B, 0x20, 0x24:
          let b = try reader.readUInt8()
          stream.format = b >> 4
          stream.rate = b & 0x0F
          stream.aspect = try reader.readUInt8() >> 4
        case 0x03, 0x04, 0x80...0x86, 0xA1, 0xA2:
          let b = try reader.readUInt8()
          stream.format = b >> 4
          stream.rate = b & 0x0F
          stream.language = try reader.readIdentifier(3)
        case 0x90, 0x91, 0xA0:
          stream.language = try reader.readIdentifier(3)
        case 0x92:
          try reader.skip(1)
          stream.language = try reader.readIdentifier(3)
        default:
          break
        }
        try reader.seek(toRelative: start + length)
        streams.append(stream)
      }
      programs.append(
        Program(
          spnProgramSequenceStart: spn, programMapPID: pmt, groupCount: groups, streams: streams))
    }
  }
}
