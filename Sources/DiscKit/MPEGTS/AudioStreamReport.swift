/// What the pre-scanner found on one audio PID.
public struct AudioStreamReport: Sendable, Hashable, Encodable {
  /// The transport stream PID.
  public var pid: UInt16
  /// The PMT `stream_type` (nil when the PID is in no PMT).
  public var streamType: UInt8?
  /// The codec from the PMT, or guessed from the first PES payload when the PMT does not identify
  /// it.
  public var codec: StreamCodec
  /// The ISO 639 language of the PMT descriptor, e.g. `"eng"`.
  public var language: String?
  /// The PTS of the first PES after the PAT gate (raw 33-bit, 90 kHz).
  public var firstPTS: UInt64?
  /// The offset of the packet where that PES starts.
  public var firstPTSOffset: Int64?
  /// `(firstPTS - first video firstPTS)` modulo 2^33 as the nearest signed value, in seconds
  /// (the first video stream of the report).
  public var offsetFromVideoSeconds: Double?
  /// `(firstPTS - first video firstIDRPTS)`, likewise.
  public var offsetFromIDRSeconds: Double?
  /// PES packets that started on this PID after the gate, within the window.
  public var pesCount: Int
  /// Of those, how many started before the PMT listing this PID was read.
  public var pesBeforePMT: Int

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(pid, forKey: .pid)
    try c.encode(streamType, forKey: .streamType)
    try c.encode(codec, forKey: .codec)
    try c.encode(language, forKey: .language)
    try c.encode(firstPTS, forKey: .firstPTS)
    try c.encode(firstPTSOffset, forKey: .firstPTSOffset)
    try c.encode(offsetFromVideoSeconds, forKey: .offsetFromVideoSeconds)
    try c.encode(offsetFromIDRSeconds, forKey: .offsetFromIDRSeconds)
    try c.encode(pesCount, forKey: .pesCount)
    try c.encode(pesBeforePMT, forKey: .pesBeforePMT)
  }

  enum CodingKeys: String, CodingKey {
    case pid, streamType, codec, language, firstPTS, firstPTSOffset, offsetFromVideoSeconds,
      offsetFromIDRSeconds
    case pesCount, pesBeforePMT
  }
}
