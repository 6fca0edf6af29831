/// The 4-byte header of a transport packet (ISO/IEC 13818-1 §2.4.3.2).
package struct TransportPacketHeader: Sendable, Hashable {
  /// `transport_error_indicator`.
  package var transportError: Bool
  /// `payload_unit_start_indicator`: a PES packet or a PSI section starts in this packet.
  package var payloadUnitStart: Bool
  /// `transport_priority`.
  package var priority: Bool
  /// The 13-bit packet identifier.
  package var pid: UInt16
  /// `transport_scrambling_control` (0 = not scrambled).
  package var scrambling: UInt8
  /// Whether an adaptation field follows the header (`adaptation_field_control` bit 1).
  package var hasAdaptationField: Bool
  /// Whether the packet carries payload (`adaptation_field_control` bit 0).
  package var hasPayload: Bool
  /// The 4-bit `continuity_counter`.
  package var continuityCounter: UInt8

  /// The null-packet PID.
  package static let nullPID: UInt16 = 0x1FFF

  /// Decodes the header from its four bytes (the first must be the sync byte; not checked here).
  @inlinable
  package init(_ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
    transportError = b1 & 0x80 != 0
    payloadUnitStart = b1 & 0x40 != 0
    priority = b1 & 0x20 != 0
    pid = UInt16(b1 & 0x1F) << 8 | UInt16(b2)
    scrambling = b3 >> 6
    hasAdaptationField = b3 & 0x20 != 0
    hasPayload = b3 & 0x10 != 0
    continuityCounter = b3 & 0x0F
  }

  /// Parses a header, checking the sync byte.
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` when the first byte is not `0x47`;
  ///   ``DiscKitError/Code/truncated`` when fewer than four bytes remain.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let sync = try reader.readUInt8()
    guard sync == TransportPacketFormat.syncByte else {
      throw reader.malformed(
        "sync byte is 0x\(String(sync, radix: 16)), expected 0x47",
        atRelative: reader.relativePosition - 1)
    }
    let b1 = try reader.readUInt8()
    let b2 = try reader.readUInt8()
    let b3 = try reader.readUInt8()
    self.init(b1, b2, b3)
  }
}
