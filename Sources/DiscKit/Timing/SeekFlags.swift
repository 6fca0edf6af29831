/// `GstSeekFlags` (the bit values are GStreamer's).
public struct SeekFlags: OptionSet, Sendable, Hashable, Codable {
  /// The `GstSeekFlags` bit mask.
  public let rawValue: UInt32
  /// Creates flags from a `GstSeekFlags` bit mask.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// `GST_SEEK_FLAG_FLUSH`: flush; resets the running time (segment flag ``SegmentFlags/reset``).
  public static let flush = SeekFlags(rawValue: 1 << 0)
  /// `GST_SEEK_FLAG_ACCURATE`.
  public static let accurate = SeekFlags(rawValue: 1 << 1)
  /// `GST_SEEK_FLAG_KEY_UNIT`.
  public static let keyUnit = SeekFlags(rawValue: 1 << 2)
  /// `GST_SEEK_FLAG_SEGMENT`.
  public static let segment = SeekFlags(rawValue: 1 << 3)
  /// `GST_SEEK_FLAG_TRICKMODE`.
  public static let trickmode = SeekFlags(rawValue: 1 << 4)
  /// `GST_SEEK_FLAG_SNAP_BEFORE`.
  public static let snapBefore = SeekFlags(rawValue: 1 << 5)
  /// `GST_SEEK_FLAG_SNAP_AFTER`.
  public static let snapAfter = SeekFlags(rawValue: 1 << 6)
  /// `GST_SEEK_FLAG_TRICKMODE_KEY_UNITS`.
  public static let trickmodeKeyUnits = SeekFlags(rawValue: 1 << 7)
  /// `GST_SEEK_FLAG_TRICKMODE_NO_AUDIO`.
  public static let trickmodeNoAudio = SeekFlags(rawValue: 1 << 8)
  /// `GST_SEEK_FLAG_TRICKMODE_FORWARD_PREDICTED`.
  public static let trickmodeForwardPredicted = SeekFlags(rawValue: 1 << 9)
  /// `GST_SEEK_FLAG_INSTANT_RATE_CHANGE`: not accepted by ``Segment/doSeek(rate:flags:startType:start:stopType:stop:)``.
  public static let instantRateChange = SeekFlags(rawValue: 1 << 10)

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(UInt32.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
