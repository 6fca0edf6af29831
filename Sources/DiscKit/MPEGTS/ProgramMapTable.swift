/// A program map table section (`table_id` 0x02; ISO/IEC 13818-1 §2.4.4.8).
@_spi(Formats)
public struct ProgramMapTable: Sendable, Hashable {
  /// `program_number`.
  public var programNumber: UInt16
  /// `version_number`.
  public var version: UInt8
  /// `PCR_PID`.
  public var pcrPID: UInt16
  /// The program_info descriptors (e.g. the `HDMV` registration descriptor of Blu-ray clips).
  public var descriptors: [ElementaryStreamInfo.Descriptor]
  /// The elementary streams, in PMT order.
  public var streams: [ElementaryStreamInfo]

  /// The format identifier of the program's registration descriptor (`"HDMV"` on Blu-ray).
  public var registration: String? {
    guard let d = descriptors.first(where: { $0.tag == 0x05 }), d.body.count >= 4 else {
      return nil
    }
    return String(
      decoding: d.body[0..<4].map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") },
      as: UTF8.self)
  }

  /// Parses a whole section (from `table_id` through `CRC_32`), checking the CRC.
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` for a wrong table id or inconsistent lengths;
  ///   ``DiscKitError/Code/checksumMismatch`` for a bad CRC; ``DiscKitError/Code/truncated``.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let start = reader.relativePosition
    let tableID = try reader.readUInt8()
    guard tableID == 0x02 else {
      throw reader.malformed(
        "table_id is 0x\(String(tableID, radix: 16)), expected 0x02", atRelative: start)
    }
    let length = Int(try reader.readUInt16BE() & 0x0FFF)
    guard length >= 13, length <= 1021 else {
      throw reader.malformed("section_length \(length) is outside 13...1021", atRelative: start + 1)
    }
    let sectionBytes = try reader.bytes(atRelative: start, count: 3 + length)
    guard MPEGCRC32.checksum(sectionBytes) == 0 else {
      throw reader.error(.checksumMismatch, "CRC-32 mismatch", atRelative: start)
    }
    var body = try reader.slice(length - 4)
    try reader.skip(4)
    programNumber = try body.readUInt16BE()
    let flags = try body.readUInt8()
    version = flags >> 1 & 0x1F
    _ = try body.readUInt16BE()  // section_number, last_section_number
    pcrPID = try body.readUInt16BE() & 0x1FFF
    let infoLength = Int(try body.readUInt16BE() & 0x0FFF)
    guard infoLength <= body.remaining else {
      throw body.malformed(
        "program_info_length \(infoLength) exceeds the \(body.remaining) bytes left")
    }
    var info = try body.slice(infoLength)
    descriptors = try ElementaryStreamInfo.parseDescriptors(&info)
    var streams: [ElementaryStreamInfo] = []
    while body.remaining > 0 {
      guard body.remaining >= 5 else {
        throw body.malformed("\(body.remaining) stray bytes after the stream loop")
      }
      let type = try body.readUInt8()
      let pid = try body.readUInt16BE() & 0x1FFF
      let esLength = Int(try body.readUInt16BE() & 0x0FFF)
      guard esLength <= body.remaining else {
        throw body.malformed("ES_info_length \(esLength) exceeds the \(body.remaining) bytes left")
      }
      var es = try body.slice(esLength)
      streams.append(
        ElementaryStreamInfo(
          streamType: type, pid: pid, descriptors: try ElementaryStreamInfo.parseDescriptors(&es)))
    }
    self.streams = streams
  }
}
