/// The header of a PES packet (ISO/IEC 13818-1 §2.4.3.6): stream id, length, PTS and DTS.
package struct PESHeader: Sendable, Hashable {
  /// `stream_id` (0xE0-0xEF video, 0xC0-0xDF MPEG audio, 0xBD private stream 1, 0xFD extended).
  package var streamID: UInt8
  /// `PES_packet_length`: bytes after this field, 0 for "unbounded" (video).
  package var packetLength: Int
  /// Whether the stream id carries the optional header (flags, header data, PTS/DTS).
  package var hasOptionalHeader: Bool
  /// `PES_header_data_length` (0 without optional header).
  package var headerDataLength: Int
  /// The presentation time stamp (33 bits, 90 kHz).
  package var pts: UInt64?
  /// The decoding time stamp (33 bits, 90 kHz).
  package var dts: UInt64?
  /// Whether `data_alignment_indicator` is set.
  package var dataAlignment: Bool

  /// Creates a header from its fields.
  package init(
    streamID: UInt8, packetLength: Int, hasOptionalHeader: Bool, headerDataLength: Int,
    pts: UInt64?, dts: UInt64?,
    dataAlignment: Bool
  ) {
    self.streamID = streamID
    self.packetLength = packetLength
    self.hasOptionalHeader = hasOptionalHeader
    self.headerDataLength = headerDataLength
    self.pts = pts
    self.dts = dts
    self.dataAlignment = dataAlignment
  }

  /// The offset of the payload from the `packet_start_code_prefix`.
  package var payloadOffset: Int { hasOptionalHeader ? 9 + headerDataLength : 6 }

  /// The problems a header can have; they are reported, and the PTS/DTS then ignored.
  package enum Problem: String, Sendable, Hashable, Codable {
    /// The packet does not start with `00 00 01`.
    case missingStartCode
    /// `PES_header_data_length` is too small for the PTS/DTS the flags announce.
    case headerDataTooShort
    /// `PES_packet_length` is smaller than the header it holds.
    case packetLengthTooShort
    /// `PTS_DTS_flags` is `01` (forbidden).
    case forbiddenTimestampFlags
  }

  /// Whether a stream id has the optional PES header.
  @inlinable
  package static func hasOptionalHeader(streamID: UInt8) -> Bool {
    switch streamID {
    case 0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xF2, 0xF8, 0xFF: false
    default: true
    }
  }

  /// Decodes a header from its first bytes (up to 19: the fixed part and PTS/DTS).
  ///
  /// - Parameter declaredTotal: not used for validation beyond `PES_packet_length`.
  /// - Returns: the header, or the problem that makes it unusable; a header with a problem in
  ///   its time stamps is returned with `pts`/`dts` nil together with the problem.
  package static func decode(_ b: UnsafeRawBufferPointer) -> (header: PESHeader?, problem: Problem?)
  {
    guard b.count >= 6, b[0] == 0, b[1] == 0, b[2] == 1 else { return (nil, .missingStartCode) }
    var header = PESHeader(
      streamID: b[3], packetLength: Int(b[4]) << 8 | Int(b[5]),
      hasOptionalHeader: hasOptionalHeader(streamID: b[3]),
      headerDataLength: 0, pts: nil, dts: nil, dataAlignment: false)
    guard header.hasOptionalHeader else { return (header, nil) }
    guard b.count >= 9 else { return (header, .headerDataTooShort) }
    header.dataAlignment = b[6] & 0x04 != 0
    let flags = b[7] >> 6
    header.headerDataLength = Int(b[8])
    if header.packetLength != 0 && header.packetLength < 3 + header.headerDataLength {
      return (header, .packetLengthTooShort)
    }
    switch flags {
    case 0b10:
      guard header.headerDataLength >= 5, b.count >= 14 else {
        return (header, .headerDataTooShort)
      }
      header.pts = MPEGTimestamp.decode(b[9], b[10], b[11], b[12], b[13])
    case 0b11:
      guard header.headerDataLength >= 10, b.count >= 19 else {
        return (header, .headerDataTooShort)
      }
      header.pts = MPEGTimestamp.decode(b[9], b[10], b[11], b[12], b[13])
      header.dts = MPEGTimestamp.decode(b[14], b[15], b[16], b[17], b[18])
    case 0b01:
      return (header, .forbiddenTimestampFlags)
    default:
      break
    }
    return (header, nil)
  }

  /// Parses a header at the reader's cursor (the `packet_start_code_prefix`), leaving the cursor
  /// at the payload.
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` for a missing start code or inconsistent lengths,
  ///   ``DiscKitError/Code/truncated`` when the header runs past the data.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let start = reader.relativePosition
    let fixed = try reader.bytes(atRelative: start, count: 6)
    let streamID = fixed[fixed.startIndex + 3]
    var need = 6
    if Self.hasOptionalHeader(streamID: streamID) {
      let withFlags = try reader.bytes(atRelative: start, count: 9)
      need = 9 + Int(withFlags[withFlags.startIndex + 8])
    }
    let raw = Array(try reader.bytes(atRelative: start, count: need))
    let decoded = raw.withUnsafeBytes {
      Self.decode(UnsafeRawBufferPointer(rebasing: $0[0..<min(need, 19)]))
    }
    if let problem = decoded.problem {
      throw reader.malformed("PES header: \(problem.rawValue)", atRelative: start)
    }
    guard let header = decoded.header else {
      throw reader.malformed("PES header: missing start code", atRelative: start)
    }
    self = header
    try reader.skip(need)
  }
}
