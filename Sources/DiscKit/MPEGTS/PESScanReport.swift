/// The result of a pre-scan: where the stream can really start (first PAT, first IDR) and when
/// audio starts, in raw 33-bit 90 kHz PTS. Encodes as the JSON documented in the Scanning article (Sources/DiscKit/DiscKit.docc/Scanning.md)
/// (`null` where nothing was found).
public struct PESScanReport: Sendable, Hashable, Encodable {
  /// The absolute offset where the scan started.
  public var scanStart: Int64
  /// Bytes scanned.
  public var bytesScanned: Int64
  /// The detected packet size (188, 192, 204), nil when no packets were found.
  public var packetSize: Int?
  /// Packets read.
  public var packets: Int64
  /// The offset of the packet where the first valid PAT section starts: the gate.
  public var firstPATOffset: Int64?
  /// PES packets that started before the first PAT (ignored otherwise).
  public var pesBeforePAT: Int
  /// The offset of the packet where the first valid PMT section starts.
  public var firstPMTOffset: Int64?
  /// The PID of that PMT.
  public var pmtPID: UInt16?
  /// Its program number.
  public var programNumber: UInt16?
  /// Its PCR PID.
  public var pcrPID: UInt16?
  /// Video streams, by PID.
  public var video: [VideoStreamReport]
  /// Audio streams, by PID.
  public var audio: [AudioStreamReport]
  /// Other PIDs listed in a PMT or carrying PES packets.
  public var other: [OtherStreamReport]
  /// `(first audio firstPTS - first video firstPTS)` modulo 2^33 as the nearest signed value, in
  /// seconds: positive when audio starts after video.
  public var avOffsetSeconds: Double?
  /// Continuity counter errors.
  public var continuityErrors: Int
  /// Times the packet sync was lost and found again.
  public var resyncs: Int
  /// Bytes skipped because they were not packets.
  public var skippedBytes: Int64
  /// Problems met, in stream order (at most ``PESScanOptions/maxWarnings``).
  public var warnings: [ScanWarning]
  /// Warnings not listed.
  public var warningsOmitted: Int

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(scanStart, forKey: .scanStart)
    try c.encode(bytesScanned, forKey: .bytesScanned)
    try c.encode(packetSize, forKey: .packetSize)
    try c.encode(packets, forKey: .packets)
    try c.encode(firstPATOffset, forKey: .firstPATOffset)
    try c.encode(pesBeforePAT, forKey: .pesBeforePAT)
    try c.encode(firstPMTOffset, forKey: .firstPMTOffset)
    try c.encode(pmtPID, forKey: .pmtPID)
    try c.encode(programNumber, forKey: .programNumber)
    try c.encode(pcrPID, forKey: .pcrPID)
    try c.encode(video, forKey: .video)
    try c.encode(audio, forKey: .audio)
    try c.encode(other, forKey: .other)
    try c.encode(avOffsetSeconds, forKey: .avOffsetSeconds)
    try c.encode(continuityErrors, forKey: .continuityErrors)
    try c.encode(resyncs, forKey: .resyncs)
    try c.encode(skippedBytes, forKey: .skippedBytes)
    try c.encode(warnings, forKey: .warnings)
    try c.encode(warningsOmitted, forKey: .warningsOmitted)
  }

  enum CodingKeys: String, CodingKey {
    case scanStart, bytesScanned, packetSize, packets, firstPATOffset, pesBeforePAT, firstPMTOffset,
      pmtPID
    case programNumber, pcrPID, video, audio, other, avOffsetSeconds, continuityErrors, resyncs,
      skippedBytes
    case warnings, warningsOmitted
  }
}
