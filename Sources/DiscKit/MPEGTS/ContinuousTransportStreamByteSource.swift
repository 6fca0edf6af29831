/// A transport stream (188-byte packets, or 192-byte Blu-ray source packets) whose timestamps
/// are moved piece by piece: in each ``TimestampShift`` range every PES PTS and DTS and every
/// adaptation-field PCR gets `delta90k` added, modulo 2^33. Everything else (arrival time
/// stamps, payloads, packets without timestamps) is the base source's bytes unchanged, so the
/// size is the same.
///
/// Positional and stateless: the bytes of a packet depend only on the base bytes around it, never
/// on earlier reads, so any range read from any task equals the same range of a full read. A PES
/// header cut by the end of its packet (its PTS/DTS continue in the next packets of the PID) is
/// rewritten when those packets lie within ``lookaround`` packets of it; each read looks that far
/// around its range (within the same piece) to find them. Reads work on large chunks; nothing is
/// allocated per packet.
public struct ContinuousTransportStreamByteSource: ByteSource, ExtentMappedByteSource {
  /// The bytes before the rewrite.
  public let base: any ByteSource
  /// The pieces whose timestamps move, in order, not overlapping (other bytes pass unchanged).
  public let shifts: [TimestampShift]
  /// 192 (Blu-ray M2TS: a 4-byte arrival time stamp, then the transport packet) or 188.
  public let packetSize: Int
  /// How many packets after a PES header that straddles its packet the rest of it is looked for.
  public static let lookaround = 16
  /// The largest piece rewritten in one go.
  static let chunkBytes = 4 << 20

  public var size: Int64 { base.size }

  /// Wraps `base`.
  ///
  /// - Throws: ``DiscKitError/Code/invalidArgument`` when `packetSize` is not 188 or 192 or the
  ///   shifts are out of order, overlap or lie outside the source.
  public init(base: any ByteSource, shifts: [TimestampShift], packetSize: Int = 192)
    throws(DiscKitError)
  {
    guard packetSize == 188 || packetSize == 192 else {
      throw DiscKitError(
        .invalidArgument, "continuous timeline", at: nil, "packet size \(packetSize)")
    }
    var last: Int64 = 0
    for s in shifts {
      guard s.start >= last, s.end >= s.start, s.end <= base.size else {
        throw DiscKitError(
          .invalidArgument, "continuous timeline", at: s.start,
          "timestamp shift \(s.start)..<\(s.end) is out of order or past the \(base.size)-byte source"
        )
      }
      last = s.end
    }
    self.base = base
    self.shifts = shifts.filter { $0.end > $0.start }
    self.packetSize = packetSize
  }

  /// The shift covering `offset`, or the start of the next one (nil past the last).
  private func locate(_ offset: Int64) -> (index: Int, inside: Bool)? {
    var lo = 0
    var hi = shifts.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if shifts[mid].end <= offset { lo = mid + 1 } else { hi = mid }
    }
    guard lo < shifts.count else { return nil }
    return (lo, shifts[lo].start <= offset)
  }

  public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    let count = try clampRead(
      offset: offset, count: buffer.count, size: size, structure: "continuous timeline")
    var done = 0
    while done < count {
      let position = offset + Int64(done)
      let slice: UnsafeMutableRawBufferPointer
      if let (index, inside) = locate(position), inside, shifts[index].delta90k != 0 {
        let shift = shifts[index]
        let take = Int(min(Int64(count - done), shift.end - position, Int64(Self.chunkBytes)))
        slice = UnsafeMutableRawBufferPointer(rebasing: buffer[done..<done + take])
        try rewrite(shift, at: position, into: slice)
      } else {
        var end = Int64(count - done) + position
        if let (index, _) = locate(position) {
          let s = shifts[index]
          end = min(end, s.start > position ? s.start : s.end)
        }
        let take = Int(end - position)
        slice = UnsafeMutableRawBufferPointer(rebasing: buffer[done..<done + take])
        let got = try base.readFully(at: position, into: slice)
        guard got == take else {
          throw DiscKitError.truncated("continuous timeline", at: position, needed: Int64(take))
        }
      }
      done += slice.count
    }
    return done
  }

  /// Reads `into.count` bytes at `position` (inside `shift`), rewritten.
  private func rewrite(
    _ shift: TimestampShift, at position: Int64, into out: UnsafeMutableRawBufferPointer
  ) throws(DiscKitError) {
    let ps = Int64(packetSize)
    let end = position + Int64(out.count)
    let firstPacket = shift.start + (position - shift.start) / ps * ps
    let endPacket = min(shift.end, shift.start + (end - shift.start + ps - 1) / ps * ps)
    let around = Int64(Self.lookaround) * ps
    let windowStart = max(shift.start, firstPacket - around)
    let windowEnd = min(shift.end, endPacket + around)
    let length = Int(windowEnd - windowStart)
    let window = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 64)
    defer { window.deallocate() }
    let got = try base.readFully(at: windowStart, into: window)
    guard got == length else {
      throw DiscKitError.truncated("continuous timeline", at: windowStart, needed: Int64(length))
    }
    if let p = window.baseAddress?.assumingMemoryBound(to: UInt8.self) {
      Self.shiftTimestamps(
        p, packets: length / packetSize, packetSize: packetSize, delta: shift.delta90k)
    }
    let from = Int(position - windowStart)
    out.copyMemory(from: UnsafeRawBufferPointer(rebasing: window[from..<from + out.count]))
  }

  /// Adds `delta` to every PCR, PTS and DTS of `packets` whole packets at `p`.
  static func shiftTimestamps(
    _ p: UnsafeMutablePointer<UInt8>, packets: Int, packetSize: Int, delta: UInt64
  ) {
    let header = packetSize - 188
    for i in 0..<packets {
      let ts = i * packetSize + header
      guard p[ts] == 0x47 else { continue }
      let control = (p[ts + 3] >> 4) & 3
      var payload = ts + 4
      if control & 2 != 0 {
        let length = Int(p[ts + 4])
        payload = ts + 5 + length
        if length >= 7 && p[ts + 5] & 0x10 != 0 {
          TimestampField.shiftPCR(p + ts + 6, delta: delta)
        }
      }
      guard p[ts + 1] & 0x40 != 0, control & 1 != 0, payload < ts + 188 else { continue }
      let available = ts + 188 - payload
      if available >= 19 {
        shiftPES(p, available: 19, delta: delta) { payload + $0 }
      } else {
        straddling(p, packet: i, payload: payload, packets: packets, packetSize: packetSize,
          delta: delta)
      }
    }
  }

  /// A PES header that continues in the next packets of its PID: gathers where its first 19
  /// bytes are (up to ``lookaround`` packets on) and shifts what they hold.
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
      while n < 19 && j < packets && j <= i + lookaround {
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

  // MARK: Zero-copy

  /// Unshifted pieces map to the base source (so they can be copied by the kernel); shifted
  /// pieces are read through this source.
  public func pieces(in range: Range<Int64>) -> [ConcatenatedByteSource.Extent] {
    let lower = max(0, range.lowerBound)
    let upper = min(size, range.upperBound)
    var result: [ConcatenatedByteSource.Extent] = []
    var position = lower
    while position < upper {
      var end = upper
      var shifted = false
      if let (index, inside) = locate(position) {
        let s = shifts[index]
        if inside {
          end = min(upper, s.end)
          shifted = s.delta90k != 0
        } else {
          end = min(upper, s.start)
        }
      }
      let length = end - position
      if shifted {
        result.append(.init(source: Rewritten(source: self), offset: position, length: length))
      } else {
        result.append(.init(source: base, offset: position, length: length))
      }
      position = end
    }
    return result
  }

  /// This source seen as a plain source (not extent-mapped), for the shifted pieces.
  private struct Rewritten: ByteSource {
    let source: ContinuousTransportStreamByteSource
    var size: Int64 { source.size }
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError)
      -> Int
    {
      try source.read(at: offset, into: buffer)
    }
  }
}
