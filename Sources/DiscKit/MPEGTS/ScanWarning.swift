/// A problem the pre-scanner met; the scan goes on.
public struct ScanWarning: Sendable, Hashable, Encodable {
  /// What kind of problem.
  public enum Kind: String, Sendable, Hashable, Encodable {
    /// No packet sync was found at all.
    case noPackets
    /// Bytes that are not packets were skipped before the first packet.
    case leadingGarbage
    /// A unit lacked its sync byte; the reader searched again.
    case resync
    /// The stream ends inside a packet.
    case truncatedPacket
    /// No valid PAT in the window: every PES was left uncounted.
    case noPAT
    /// No valid PMT in the window: codecs are unknown.
    case noPMT
    /// A PSI section failed its CRC-32.
    case crcMismatch
    /// A PSI section is malformed (lengths, pointer field, table id).
    case malformedSection
    /// A continuity counter skipped.
    case continuity
    /// An adaptation field's length runs past the packet.
    case adaptationFieldLength
    /// A PES header is malformed (start code, header length too short for its time stamps).
    case pesHeader
    /// A PES's `PES_packet_length` disagrees with the bytes that arrived.
    case pesLength
    /// A packet has `transport_error_indicator` set.
    case transportError
    /// A packet is scrambled.
    case scrambled
    /// A PID carries PES packets but is in no PMT.
    case pidNotInPMT
    /// A video stream has no random access point in the window.
    case noRandomAccessPoint
    /// More PIDs carried PES packets than the scanner follows.
    case tooManyPIDs
  }

  /// What kind of problem.
  public var kind: Kind
  /// The absolute offset of the packet (unit) concerned, when there is one.
  public var offset: Int64?
  /// The PID concerned, when there is one.
  public var pid: UInt16?
  /// A human-readable explanation.
  public var detail: String

  /// Creates a warning of `kind`, with the offset and PID concerned when known.
  public init(_ kind: Kind, offset: Int64? = nil, pid: UInt16? = nil, _ detail: String) {
    self.kind = kind
    self.offset = offset
    self.pid = pid
    self.detail = detail
  }

  enum CodingKeys: String, CodingKey { case kind, offset, pid, detail }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(kind, forKey: .kind)
    try c.encode(offset, forKey: .offset)
    try c.encode(pid, forKey: .pid)
    try c.encode(detail, forKey: .detail)
  }
}
