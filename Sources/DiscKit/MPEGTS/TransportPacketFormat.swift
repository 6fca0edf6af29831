/// The packet layout of a transport stream: plain 188-byte packets, 192-byte BDAV source packets
/// (a 4-byte `TP_extra_header` with the arrival time stamp before each 188-byte packet, as in
/// Blu-ray `.m2ts` and AVCHD `.mts`), or 204-byte packets (188 bytes plus 16 Reed-Solomon bytes).
public enum TransportPacketFormat: Int, Sendable, Hashable, CaseIterable, Codable {
  /// ISO/IEC 13818-1 packets of 188 bytes.
  case plain = 188
  /// BDAV source packets of 192 bytes: `TP_extra_header` (4 bytes) + 188-byte packet.
  case bdav = 192
  /// 188-byte packets followed by 16 bytes of Reed-Solomon parity (DVB-ASI captures).
  case reedSolomon = 204

  /// The size of one unit (source packet) in bytes.
  @inlinable public var unitSize: Int { rawValue }

  /// Where the `0x47` sync byte sits within a unit.
  @inlinable public var syncOffset: Int { self == .bdav ? 4 : 0 }

  /// The size of a transport packet proper.
  public static let packetSize = 188

  /// The sync byte that starts every transport packet.
  public static let syncByte: UInt8 = 0x47
}
