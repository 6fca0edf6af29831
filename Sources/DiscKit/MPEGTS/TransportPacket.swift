/// One transport packet as delivered by ``TransportPacketReader``: a view of the bytes (valid only
/// during the ``TransportPacketConsumer/consume(_:)`` call) with its position in the stream.
package struct TransportPacket {
  /// The whole unit: 188, 192 (with the `TP_extra_header` first) or 204 bytes.
  package let unit: UnsafeRawBufferPointer
  /// The unit's layout.
  package let format: TransportPacketFormat
  /// The absolute byte offset of the unit (for BDAV, of its `TP_extra_header`).
  package let offset: Int64
  /// The number of units delivered before this one (for a clean `.m2ts` clip read from its
  /// start, this is the source packet number, SPN).
  package let index: Int64

  /// Creates a view; `unit` must hold `format.unitSize` bytes with the sync byte in place.
  @inlinable
  package init(
    unit: UnsafeRawBufferPointer, format: TransportPacketFormat, offset: Int64, index: Int64
  ) {
    self.unit = unit
    self.format = format
    self.offset = offset
    self.index = index
  }

  /// The 188-byte transport packet (starting at the sync byte).
  @inlinable
  package var bytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(
      rebasing: unit[format.syncOffset..<format.syncOffset + TransportPacketFormat.packetSize])
  }

  /// The absolute offset of the sync byte.
  @inlinable package var syncOffset: Int64 { offset + Int64(format.syncOffset) }

  /// The decoded 4-byte header.
  @inlinable
  package var header: TransportPacketHeader {
    let s = format.syncOffset
    return TransportPacketHeader(unit[s + 1], unit[s + 2], unit[s + 3])
  }

  /// The 13-bit PID.
  @inlinable
  package var pid: UInt16 {
    let s = format.syncOffset
    return UInt16(unit[s + 1] & 0x1F) << 8 | UInt16(unit[s + 2])
  }

  /// The 30-bit arrival time stamp of a BDAV source packet (27 MHz), or nil for other layouts.
  package var arrivalTimeStamp: UInt32? {
    guard format == .bdav else { return nil }
    return (UInt32(unit[0]) << 24 | UInt32(unit[1]) << 16 | UInt32(unit[2]) << 8 | UInt32(unit[3]))
      & 0x3FFF_FFFF
  }

  /// Where the payload lies within ``bytes``, or why there is none.
  package enum PayloadLayout: Sendable, Hashable {
    /// The payload occupies `bytes[range]` (possibly empty).
    case payload(Range<Int>)
    /// The packet declares no payload (`adaptation_field_control` 0b10 or 0b00).
    case none
    /// The adaptation field's length runs past the end of the packet: the payload is unusable.
    case invalidAdaptationLength(Int)
  }

  /// The payload's position, checking the adaptation field's length against the packet.
  @inlinable
  package var payloadLayout: PayloadLayout {
    let s = format.syncOffset
    let control = unit[s + 3] & 0x30
    var start = 4
    if control & 0x20 != 0 {
      let length = Int(unit[s + 4])
      if length > 183 { return .invalidAdaptationLength(length) }
      start = 5 + length
    }
    guard control & 0x10 != 0 else { return .none }
    return .payload(start..<TransportPacketFormat.packetSize)
  }

  /// The adaptation field, or nil when absent or empty. Throws when its length lies.
  package func adaptationField() throws(DiscKitError) -> AdaptationField? {
    let h = header
    guard h.hasAdaptationField else { return nil }
    let b = bytes
    let length = Int(b[4])
    guard length <= 183 else {
      throw DiscKitError.malformed(
        "transport packet adaptation field", at: syncOffset + 4,
        "adaptation_field_length \(length) exceeds the 183 bytes left in the packet")
    }
    var reader = BinaryReader(
      Array(b[4..<5 + length]), baseOffset: syncOffset + 4,
      structure: "transport packet adaptation field")
    return try AdaptationField(parsing: &reader)
  }

  /// The `random_access_indicator` of the adaptation field (false when absent or invalid).
  @inlinable
  package var randomAccessIndicator: Bool {
    let s = format.syncOffset
    guard unit[s + 3] & 0x20 != 0 else { return false }
    let length = Int(unit[s + 4])
    guard length >= 1, length <= 183 else { return false }
    return unit[s + 5] & 0x40 != 0
  }

  /// The `discontinuity_indicator` of the adaptation field (false when absent or invalid).
  @inlinable
  package var discontinuityIndicator: Bool {
    let s = format.syncOffset
    guard unit[s + 3] & 0x20 != 0 else { return false }
    let length = Int(unit[s + 4])
    guard length >= 1, length <= 183 else { return false }
    return unit[s + 5] & 0x80 != 0
  }
}
