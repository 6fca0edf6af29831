/// A PID that is neither video nor audio (subtitles, menus, unknown or unlisted streams).
public struct OtherStreamReport: Sendable, Hashable, Encodable {
  public var pid: UInt16
  public var streamType: UInt8?
  public var codec: StreamCodec
  public var language: String?
  /// Whether the PID is listed in a PMT.
  public var inPMT: Bool
  public var firstPTS: UInt64?
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
