/// What the pre-scanner found on one video PID.
public struct VideoStreamReport: Sendable, Hashable, Encodable {
  /// The transport stream PID.
  public var pid: UInt16
  /// The PMT `stream_type` (nil when the PID is in no PMT).
  public var streamType: UInt8?
  /// The codec from the PMT, or guessed from the first PES payload when the PMT does not identify
  /// it.
  public var codec: StreamCodec
  /// Whether this is a dependent view (H.264 MVC: stream type 0x20, or MVC NAL units seen).
  public var dependentView: Bool
  /// The PTS of the first PES after the PAT gate (raw 33-bit, 90 kHz).
  public var firstPTS: UInt64?
  /// The offset of the packet where that PES starts.
  public var firstPTSOffset: Int64?
  /// The PTS of the first IDR (H.264/MVC/HEVC), I-picture after a sequence header (MPEG-2) or
  /// entry point (VC-1) after the gate.
  public var firstIDRPTS: UInt64?
  /// The offset of the packet where that PES starts.
  public var firstIDROffset: Int64?
  /// The kind of that access point.
  public var firstIDRKind: AccessPointKind?
  /// HEVC only: the first CRA or BLA picture (reported apart from IDR).
  public var firstCRAPTS: UInt64?
  /// The offset of the packet where that PES starts.
  public var firstCRAOffset: Int64?
  /// HEVC only: the NAL unit type of that picture (16-18 BLA, 21 CRA).
  public var firstCRANALType: UInt8?
  /// `(firstIDRPTS - firstPTS)` modulo 2^33, taken as the nearest signed value, in seconds.
  public var preIDRGapSeconds: Double?
  /// PES packets that started on this PID after the gate, within the window.
  public var pesCount: Int
  /// Of those, how many started before the PMT listing this PID was read.
  public var pesBeforePMT: Int

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(pid, forKey: .pid)
    try c.encode(streamType, forKey: .streamType)
    try c.encode(codec, forKey: .codec)
    try c.encode(dependentView, forKey: .dependentView)
    try c.encode(firstPTS, forKey: .firstPTS)
    try c.encode(firstPTSOffset, forKey: .firstPTSOffset)
    try c.encode(firstIDRPTS, forKey: .firstIDRPTS)
    try c.encode(firstIDROffset, forKey: .firstIDROffset)
    try c.encode(firstIDRKind, forKey: .firstIDRKind)
    try c.encode(firstCRAPTS, forKey: .firstCRAPTS)
    try c.encode(firstCRAOffset, forKey: .firstCRAOffset)
    try c.encode(firstCRANALType, forKey: .firstCRANALType)
    try c.encode(preIDRGapSeconds, forKey: .preIDRGapSeconds)
    try c.encode(pesCount, forKey: .pesCount)
    try c.encode(pesBeforePMT, forKey: .pesBeforePMT)
  }

  enum CodingKeys: String, CodingKey {
    case pid, streamType, codec, dependentView, firstPTS, firstPTSOffset, firstIDRPTS,
      firstIDROffset, firstIDRKind
    case firstCRAPTS, firstCRAOffset, firstCRANALType, preIDRGapSeconds, pesCount, pesBeforePMT
  }
}
