/// Moves the timestamps of transport packets in place (``ContinuousTimelineByteSource``).
enum TransportStreamTimestamps {
  /// Adds `delta` to every PCR, PTS and DTS of `packets` whole packets at `p`.
  static func shift(
    _ p: UnsafeMutablePointer<UInt8>, packets: Int, packetSize: Int, delta: UInt64
  ) {
    for i in 0..<packets {
      shiftPacket(p, i, packets: packets, packetSize: packetSize, delta: delta)
    }
  }

  /// Shifts the timestamps of packet `i` of the `packets` at `p` (a PES header that straddles
  /// its packet is completed from the packets after it).
  @inline(__always)
  static func shiftPacket(
    _ p: UnsafeMutablePointer<UInt8>, _ i: Int, packets: Int, packetSize: Int, delta: UInt64
  ) {
    let ts = i * packetSize + packetSize - 188
    guard p[ts] == 0x47 else { return }
    let control = (p[ts + 3] >> 4) & 3
    var payload = ts + 4
    if control & 2 != 0 {
      let length = Int(p[ts + 4])
      payload = ts + 5 + length
      if length >= 7 && p[ts + 5] & 0x10 != 0 {
        TimestampField.shiftPCR(p + ts + 6, delta: delta)
      }
    }
    guard p[ts + 1] & 0x40 != 0, control & 1 != 0, payload < ts + 188 else { return }
    let available = ts + 188 - payload
    if available >= 19 {
      shiftPES(p, available: 19, delta: delta) { payload + $0 }
    } else {
      straddling(
        p, packet: i, payload: payload, packets: packets, packetSize: packetSize, delta: delta)
    }
  }

  /// A PES header that continues in the next packets of its PID: gathers where its first 19
  /// bytes are (up to ``ContinuousTimelineByteSource/lookaround`` packets on) and shifts what they hold.
  private static func straddling(
    _ p: UnsafeMutablePointer<UInt8>, packet i: Int, payload: Int, packets: Int, packetSize: Int,
    delta: UInt64
  ) {
    let header = packetSize - 188
    let ts = i * packetSize + header
    let pid = (UInt16(p[ts + 1] & 0x1F) << 8) | UInt16(p[ts + 2])
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 19) { positions in
      var n = 0
      var k = payload
      while k < ts + 188 && n < 19 {
        positions[n] = k
        n += 1
        k += 1
      }
      var j = i + 1
      while n < 19 && j < packets && j <= i + ContinuousTimelineByteSource.lookaround {
        let tj = j * packetSize + header
        j += 1
        guard p[tj] == 0x47, (UInt16(p[tj + 1] & 0x1F) << 8) | UInt16(p[tj + 2]) == pid else {
          continue
        }
        if p[tj + 1] & 0x40 != 0 { break }  // a new PES: the header was cut short
        let control = (p[tj + 3] >> 4) & 3
        guard control & 1 != 0 else { continue }
        var q = tj + 4
        if control & 2 != 0 { q = tj + 5 + Int(p[tj + 4]) }
        while q < tj + 188 && n < 19 {
          positions[n] = q
          n += 1
          q += 1
        }
      }
      shiftPES(p, available: n, delta: delta) { positions[$0] }
    }
  }

  /// Shifts the PTS and DTS of the PES header whose byte `k` is at `p[index(k)]`, given its
  /// first `available` bytes.
  @inline(__always)
  static func shiftPES(
    _ p: UnsafeMutablePointer<UInt8>, available: Int, delta: UInt64, _ index: (Int) -> Int
  ) {
    guard available >= 9, p[index(0)] == 0, p[index(1)] == 0, p[index(2)] == 1,
      TimestampField.hasOptionalHeader(p[index(3)]), p[index(6)] & 0xC0 == 0x80
    else { return }
    let flags = p[index(7)] >> 6
    let headerLength = Int(p[index(8)])
    guard flags & 2 != 0, headerLength >= 5, available >= 14 else { return }
    TimestampField.shiftPES(p, delta: delta) { index(9 + $0) }
    guard flags == 3, headerLength >= 10, available >= 19 else { return }
    TimestampField.shiftPES(p, delta: delta) { index(14 + $0) }
  }

}
