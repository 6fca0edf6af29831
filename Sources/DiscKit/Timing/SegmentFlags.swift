/// `GstSegmentFlags`: flags a segment carries (the bit values are GStreamer's).
public struct SegmentFlags: OptionSet, Sendable, Hashable, Codable {
  /// The `GstSegmentFlags` bit mask.
  public let rawValue: UInt32
  /// Creates flags from a `GstSegmentFlags` bit mask.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// `GST_SEGMENT_FLAG_RESET`: the running time was reset (a flushing seek).
  public static let reset = SegmentFlags(rawValue: 1 << 0)
  /// `GST_SEGMENT_FLAG_SEGMENT`: a segment seek; post a segment-done message at the end.
  public static let segment = SegmentFlags(rawValue: 1 << 3)
  /// `GST_SEGMENT_FLAG_TRICKMODE` (formerly `SKIP`): decoders may skip frames.
  public static let trickmode = SegmentFlags(rawValue: 1 << 4)
  /// `GST_SEGMENT_FLAG_TRICKMODE_KEY_UNITS`: decode key units only.
  public static let trickmodeKeyUnits = SegmentFlags(rawValue: 1 << 7)
  /// `GST_SEGMENT_FLAG_TRICKMODE_NO_AUDIO`: audio may be dropped.
  public static let trickmodeNoAudio = SegmentFlags(rawValue: 1 << 8)
  /// `GST_SEGMENT_FLAG_TRICKMODE_FORWARD_PREDICTED`: decode only forward-predicted frames.
  public static let trickmodeForwardPredicted = SegmentFlags(rawValue: 1 << 9)

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(UInt32.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
