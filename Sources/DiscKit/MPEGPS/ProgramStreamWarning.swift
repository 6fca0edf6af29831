/// A problem ``ProgramStreamScanner`` met that did not stop the scan.
///
/// Encoded (in ``ProgramStreamScanReport/warnings``) as its ``description``.
public enum ProgramStreamWarning: Sendable, Hashable, CustomStringConvertible, Encodable {
  /// A PES packet (its stream id) ends inside its header.
  case headerCutShort(streamID: UInt8)
  /// A PES packet's (its stream id) header length runs past the packet.
  case headerLengthPastPacket(streamID: UInt8, headerLength: Int)
  /// Bytes that are not start codes were skipped.
  case skippedGarbage(bytes: Int64)
  /// No pack header at all.
  case noPackHeader
  /// No video stream.
  case noVideo
  /// The first I-picture of a video stream (its stream id) carries no PTS.
  case keyframeWithoutPTS(streamID: Int)

  /// The warning in words.
  public var description: String {
    switch self {
    case .headerCutShort(let id): "PES 0x\(String(id, radix: 16)) header is cut short"
    case .headerLengthPastPacket(let id, let length):
      "PES 0x\(String(id, radix: 16)) header length \(length) runs past its packet"
    case .skippedGarbage(let bytes):
      "skipped \(bytes) bytes of garbage while looking for start codes"
    case .noPackHeader: "no MPEG program stream pack header found"
    case .noVideo: "no video stream found"
    case .keyframeWithoutPTS(let id):
      "the first I-picture of stream 0x\(String(id, radix: 16)) has no PTS"
    }
  }

  /// Encodes ``description``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
