/// A clip's ProgramInfo: the elementary streams of each program sequence.
@_spi(Formats)
public struct ClipProgramInfo: Sendable, Hashable, Codable {
  /// One elementary stream of a program.
  public struct Stream: Sendable, Hashable, Codable {
    /// The elementary stream's PID (`stream_PID`).
    public var pid: UInt16
    /// `stream_coding_type` (e.g. 0x02 MPEG-2, 0x1B H.264, 0x24 HEVC, 0x81 AC-3, 0x90 PG).
    public var codingType: UInt8
    /// Video format / audio layout, video rate / audio sample rate, video aspect ratio.
    public var format: UInt8
    /// Video `frame_rate` or audio `sampling_frequency` code (0 for other streams).
    public var rate: UInt8
    /// Video `aspect_ratio` code (0 for other streams).
    public var aspect: UInt8
    /// Language code (audio, PG, IG, text).
    public var language: String

    /// Creates a stream entry.
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
    /// `SPN_program_sequence_start`: the source packet where the program sequence begins.
    public var spnProgramSequenceStart: UInt32
    /// `program_map_PID`: the PID of the sequence's PMT.
    public var programMapPID: UInt16
    /// `num_of_groups`.
    public var groupCount: UInt8
    /// The elementary streams of the program sequence.
    public var streams: [Stream]

    /// Creates a program sequence.
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

  /// The program sequences, in stream order.
  public var programs: [Program]

  /// Creates ProgramInfo from its program sequences.
  public init(programs: [Program]) { self.programs = programs }

  /// Parses ProgramInfo at the reader's cursor.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
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
