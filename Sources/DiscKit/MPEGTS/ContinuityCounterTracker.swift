/// Checks the 4-bit continuity counters of every PID (ISO/IEC 13818-1 §2.4.3.3).
///
/// The counter increments with each packet that carries payload; one repeated packet
/// (a duplicate) is allowed; a jump is an error unless the packet's adaptation field sets
/// `discontinuity_indicator`. A table of 8192 entries is allocated once.
package struct ContinuityCounterTracker: Sendable {
  /// The outcome for one packet.
  package enum Result: Sendable, Hashable {
    /// The counter follows on (or is the first seen on its PID, or the packet has no payload).
    case ok
    /// The same counter as the previous packet: a duplicate packet, to be dropped.
    case duplicate
    /// The counter jumped: `expected` was due, `found` arrived.
    case discontinuity(expected: UInt8, found: UInt8)
  }

  private var last: [UInt8]
  /// Whether the last packet of a PID was already a repeat (a second repeat is an error).
  private var repeated: [Bool]

  /// Creates a tracker with no counter seen on any PID.
  package init() {
    last = [UInt8](repeating: 0xFF, count: 8192)
    repeated = [Bool](repeating: false, count: 8192)
  }

  /// Checks one packet's counter and remembers it.
  package mutating func check(_ packet: TransportPacket) -> Result {
    let header = packet.header
    return check(
      pid: header.pid, counter: header.continuityCounter, hasPayload: header.hasPayload,
      discontinuityIndicator: packet.discontinuityIndicator)
  }

  /// Checks a counter and remembers it.
  package mutating func check(
    pid: UInt16, counter: UInt8, hasPayload: Bool, discontinuityIndicator: Bool
  ) -> Result {
    let index = Int(pid & 0x1FFF)
    let previous = last[index]
    guard hasPayload else {
      return .ok
    }
    last[index] = counter
    let wasRepeated = repeated[index]
    repeated[index] = false
    if previous == 0xFF || discontinuityIndicator || pid == TransportPacketHeader.nullPID {
      return .ok
    }
    let expected = (previous &+ 1) & 0x0F
    if counter == expected { return .ok }
    if counter == previous && !wasRepeated {
      repeated[index] = true
      return .duplicate
    }
    return .discontinuity(expected: expected, found: counter)
  }

  /// The fast case of ``check(pid:counter:hasPayload:discontinuityIndicator:)`` for a packet
  /// with payload and no adaptation field: when `counter` follows the PID's previous one, records
  /// it and returns true (the result is ``Result/ok``); otherwise changes nothing and returns
  /// false (call ``check(pid:counter:hasPayload:discontinuityIndicator:)``).
  @inline(__always)
  mutating func followsOn(pid: Int, counter: UInt8) -> Bool {
    let previous = last[pid]
    guard previous != 0xFF, counter == (previous &+ 1) & 0x0F else { return false }
    last[pid] = counter
    repeated[pid] = false
    return true
  }

  /// Forgets every counter (after a resync).
  package mutating func reset() {
    for i in last.indices {
      last[i] = 0xFF
      repeated[i] = false
    }
  }
}
