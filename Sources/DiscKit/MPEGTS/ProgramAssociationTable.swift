/// A program association table section (PID 0, `table_id` 0x00; ISO/IEC 13818-1 §2.4.4.3).
@_spi(Formats)
public struct ProgramAssociationTable: Sendable, Hashable {
  /// One program: its number and the PID of its program map table (or, for program 0, the
  /// network PID).
  public struct Program: Sendable, Hashable, Codable {
    /// `program_number` (0 for the network PID entry).
    public var number: UInt16
    /// `program_map_PID`, or `network_PID` for program 0 (13 bits).
    public var pid: UInt16
  }

  /// `transport_stream_id`.
  public var transportStreamID: UInt16
  /// `version_number`.
  public var version: UInt8
  /// `current_next_indicator`.
  public var isCurrent: Bool
  /// `section_number` and `last_section_number`.
  public var sectionNumber: UInt8
  /// `last_section_number`: the number of the table's last section.
  public var lastSectionNumber: UInt8
  /// The programs listed (including program 0, the network PID, when present).
  public var programs: [Program]

  /// The programs with a program map table (number ≠ 0).
  public var mappedPrograms: [Program] { programs.filter { $0.number != 0 } }

  /// Parses a whole section (from `table_id` through `CRC_32`), checking the CRC.
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` for a wrong table id or lengths;
  ///   ``DiscKitError/Code/checksumMismatch`` for a bad CRC; ``DiscKitError/Code/truncated``.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let start = reader.relativePosition
    let tableID = try reader.readUInt8()
    guard tableID == 0x00 else {
      throw reader.malformed(
        "table_id is 0x\(String(tableID, radix: 16)), expected 0x00", atRelative: start)
    }
    let lengthField = try reader.readUInt16BE()
    let length = Int(lengthField & 0x0FFF)
    guard length >= 9, length <= 1021 else {
      throw reader.malformed("section_length \(length) is outside 9...1021", atRelative: start + 1)
    }
    let sectionBytes = try reader.bytes(atRelative: start, count: 3 + length)
    guard MPEGCRC32.checksum(sectionBytes) == 0 else {
      throw reader.error(.checksumMismatch, "CRC-32 mismatch", atRelative: start)
    }
    var body = try reader.slice(length - 4)
    try reader.skip(4)
    transportStreamID = try body.readUInt16BE()
    let flags = try body.readUInt8()
    version = flags >> 1 & 0x1F
    isCurrent = flags & 1 != 0
    sectionNumber = try body.readUInt8()
    lastSectionNumber = try body.readUInt8()
    guard body.remaining % 4 == 0 else {
      throw body.malformed("program loop of \(body.remaining) bytes is not a multiple of 4")
    }
    var programs: [Program] = []
    programs.reserveCapacity(body.remaining / 4)
    while body.remaining >= 4 {
      let number = try body.readUInt16BE()
      let pid = try body.readUInt16BE() & 0x1FFF
      programs.append(Program(number: number, pid: pid))
    }
    self.programs = programs
  }
}
