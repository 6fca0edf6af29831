extension TransportStreamTimeSeek {
  /// What did not go as planned in a seek. Encoded as its ``description``.
  public enum Warning: Sendable, Hashable, CustomStringConvertible, Encodable {
    /// The time lies before the stream's first random access point: playback starts at that
    /// point, `nextSeconds` after the stream's start.
    case beforeFirstAccessPoint(nextSeconds: Double)
    /// No random access point in the `scannedBytes` before the time: playback starts at the
    /// next one, `nextSeconds` after the stream's start.
    case noAccessPointBefore(scannedBytes: Int64, nextSeconds: Double)
    /// No random access point in the `scannedBytes` before the time nor after it in the scanned
    /// windows: playback starts at the stream's first one.
    case startedAtStreamStart(scannedBytes: Int64)

    /// The warning in words.
    public var description: String {
      switch self {
      case .beforeFirstAccessPoint(let next):
        "the time lies before the stream's first random access point; starting at the next one (\(next) s)"
      case .noAccessPointBefore(let scanned, let next):
        "no random access point in the \(scanned) bytes before the time; starting at the next one (\(next) s)"
      case .startedAtStreamStart(let scanned):
        "no random access point in the \(scanned) bytes before the time; starting at the stream's first one"
      }
    }

    /// Encodes ``description``.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(description)
    }
  }
}
