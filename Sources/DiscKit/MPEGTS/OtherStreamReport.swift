/// A PID that is neither video nor audio (subtitles, menus, unknown or unlisted streams).
public struct OtherStreamReport: Sendable, Hashable, Encodable {
  /// The transport stream PID.
  public var pid: UInt16
  /// The PMT `stream_type` (nil when the PID is in no PMT).
  public var streamType: UInt8?
  /// The codec from the PMT, or guessed from the first PES payload when the PMT does not identify
  /// it.
  public var codec: StreamCodec
  /// The ISO 639 language of the PMT descriptor, e.g. `"eng"`.
  public var language: String?
  /// Whether the PID is listed in a PMT.
  public var inPMT: Bool
  /// The PTS of the first PES after the PAT gate (raw 33-bit, 90 kHz).
  public var firstPTS: UInt64?
  /// PES packets that started on this PID after the gate, within the window.
  public var pesCount: Int

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(pid, forKey: .pid)
    try c.encode(streamType, forKey: .streamType)
    try c.encode(codec, forKey: .codec)
    try c.encode(language, forKey: .language)
    try c.encode(inPMT, forKey: .inPMT)
    try c.encode(firstPTS, forKey: .firstPTS)
    try c.encode(pesCount, forKey: .pesCount)
  }

  enum CodingKeys: String, CodingKey {
    case pid, streamType, codec, language, inPMT, firstPTS, pesCount
  }
}
