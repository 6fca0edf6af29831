/// A problem in a title's structure that did not prevent building it.
///
/// ``description`` is the text `disckit titles` prints and the JSON documents carry in `warnings`.
public enum TitleWarning: Sendable, Hashable, CustomStringConvertible, Encodable {
  /// A Blu-ray play item (0-based) whose in-time is after its out-time (45 kHz values).
  case invalidTimes(playItem: Int, inTime: UInt32, outTime: UInt32)
  /// A Blu-ray clip without clip information: its play item contributes no bytes.
  case missingClipInformation(clipID: String)
  /// A Blu-ray play item (0-based) whose end packet lies before its start packet.
  case endBeforeStart(playItem: Int, startPacket: UInt32, endPacket: UInt32)

  /// The warning in words.
  public var description: String {
    switch self {
    case .invalidTimes(let item, let inTime, let outTime):
      "play item \(item): in-time \(inTime) is after out-time \(outTime)"
    case .missingClipInformation(let clipID):
      "clip \(clipID): no clip information; the item contributes no bytes"
    case .endBeforeStart(let item, let start, let end):
      "play item \(item): end packet \(end) is before start packet \(start)"
    }
  }

  /// Encodes ``description``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
