/// Reassembles PSI sections (PAT, PMT, ...) of one PID from transport packet payloads, across
/// packet boundaries, honouring the `pointer_field` and `section_length`.
///
/// Sections are checked with CRC-32/MPEG-2 by the caller (``PSISection/crcValid``). Memory is
/// bounded: a section is at most 4096 bytes (`section_length` ≤ 4093).
package struct PSISectionAssembler: Sendable {
  /// A complete section.
  package struct PSISection: Sendable, Hashable {
    /// The section's bytes from `table_id` through `CRC_32`.
    package var bytes: [UInt8]
    /// The absolute offset of the unit (packet) where the section started.
    package var packetOffset: Int64
    /// The absolute offset of the section's first byte (`table_id`).
    package var offset: Int64
    /// Whether the CRC-32 over the section is correct.
    package var crcValid: Bool { MPEGCRC32.checksum(bytes) == 0 }
    /// `table_id`.
    package var tableID: UInt8 { bytes.first ?? 0xFF }
  }

  /// Problems seen while assembling.
  package enum Problem: Sendable, Hashable {
    /// A section continued in a packet whose continuity counter skipped: the partial section was dropped.
    case discontinuity(at: Int64)
    /// `section_length` is larger than the maximum (4093).
    case invalidSectionLength(Int, at: Int64)
    /// The `pointer_field` points past the end of the packet.
    case invalidPointerField(Int, at: Int64)
  }

  private var buffer: [UInt8] = []
  private var expected = 0
  private var startPacketOffset: Int64 = 0
  private var startOffset: Int64 = 0
  private var collecting = false

  /// Creates an assembler.
  package init() {}

  /// Feeds one packet's payload.
  ///
  /// - Parameters:
  ///   - payload: the payload bytes (after any adaptation field).
  ///   - unitStart: the packet's `payload_unit_start_indicator`.
  ///   - payloadOffset: the absolute offset of `payload[0]`.
  ///   - packetOffset: the absolute offset of the packet's unit.
  ///   - continuous: false when the continuity counter skipped before this packet.
  /// - Returns: the sections completed by this packet and the problems met.
  package mutating func feed(
    _ payload: UnsafeRawBufferPointer, unitStart: Bool, payloadOffset: Int64, packetOffset: Int64,
    continuous: Bool = true
  ) -> (sections: [PSISection], problems: [Problem]) {
    var sections: [PSISection] = []
    var problems: [Problem] = []
    var i = 0
    if !continuous && collecting {
      problems.append(.discontinuity(at: packetOffset))
      collecting = false
      buffer.removeAll(keepingCapacity: true)
    }
    if unitStart {
      guard payload.count >= 1 else { return (sections, problems) }
      let pointer = Int(payload[0])
      i = 1
      if collecting {
        // The bytes before the pointed-to position finish the section in progress.
        let tail = min(pointer, payload.count - 1)
        append(payload, from: 1, count: tail, into: &sections)
      }
      guard 1 + pointer <= payload.count else {
        problems.append(.invalidPointerField(pointer, at: payloadOffset))
        collecting = false
        buffer.removeAll(keepingCapacity: true)
        return (sections, problems)
      }
      collecting = false
      buffer.removeAll(keepingCapacity: true)
      i = 1 + pointer
      // Any number of sections may start in this packet; 0xFF is stuffing.
      while i < payload.count, payload[i] != 0xFF {
        guard payload.count - i >= 3 else {
          startSection(payloadOffset: payloadOffset + Int64(i), packetOffset: packetOffset)
          buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: payload[i...]))
          expected = -1
          return (sections, problems)
        }
        let length = Int(payload[i + 1] & 0x0F) << 8 | Int(payload[i + 2])
        guard length <= 4093 else {
          problems.append(.invalidSectionLength(length, at: payloadOffset + Int64(i)))
          return (sections, problems)
        }
        startSection(payloadOffset: payloadOffset + Int64(i), packetOffset: packetOffset)
        expected = 3 + length
        let take = min(expected, payload.count - i)
        append(payload, from: i, count: take, into: &sections)
        i += take
        if collecting { break }
      }
    } else if collecting {
      append(payload, from: 0, count: payload.count, into: &sections)
      if expected < 0, buffer.count >= 3 {
        // The length field itself was split; settle the expected size now.
        let length = Int(buffer[1] & 0x0F) << 8 | Int(buffer[2])
        guard length <= 4093 else {
          problems.append(.invalidSectionLength(length, at: startOffset))
          collecting = false
          buffer.removeAll(keepingCapacity: true)
          return (sections, problems)
        }
        expected = 3 + length
        if buffer.count >= expected {
          let extra = buffer.count - expected
          buffer.removeLast(extra)
          complete(into: &sections)
        }
      }
    }
    return (sections, problems)
  }

  private mutating func startSection(payloadOffset: Int64, packetOffset: Int64) {
    buffer.removeAll(keepingCapacity: true)
    startOffset = payloadOffset
    startPacketOffset = packetOffset
    collecting = true
  }

  private mutating func append(
    _ payload: UnsafeRawBufferPointer, from: Int, count: Int, into sections: inout [PSISection]
  ) {
    guard count > 0 else { return }
    if expected < 0 {
      buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: payload[from..<from + count]))
      return
    }
    let take = min(count, expected - buffer.count)
    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: payload[from..<from + take]))
    if buffer.count >= expected { complete(into: &sections) }
  }

  private mutating func complete(into sections: inout [PSISection]) {
    sections.append(PSISection(bytes: buffer, packetOffset: startPacketOffset, offset: startOffset))
    buffer.removeAll(keepingCapacity: true)
    collecting = false
  }
}
