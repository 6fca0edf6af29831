/// A video random access point: a PES that begins an IDR/I-picture/entry point.
@_spi(Formats)
public struct RandomAccessPoint: Sendable, Hashable, Codable {
  /// The video PID.
  public var pid: UInt16
  /// What kind of access point it is.
  public var kind: AccessPointKind
  /// The PES's PTS (33 bits, 90 kHz), nil when the PES has none.
  public var pts: UInt64?
  /// The PES's DTS, when present.
  public var dts: UInt64?
  /// The absolute offset of the unit (for BDAV, of its `TP_extra_header`) of the transport
  /// packet where the PES starts.
  public var offset: Int64
  /// The index of that packet among the units read (the SPN for a clip read from its start).
  public var packetIndex: Int64
  /// Whether that packet's adaptation field has `random_access_indicator` set.
  public var randomAccessIndicator: Bool
}
