/// A title's bytes whose timestamps are moved piece by piece: in each ``TimestampShift`` range
/// every timestamp gets `delta90k` added, modulo 2^33. Transport streams (188-byte packets, or
/// 192-byte Blu-ray source packets): PES PTS and DTS and adaptation-field PCR. MPEG-2 program
/// streams (DVD, 2048-byte packs): pack SCR, PES PTS and DTS, and the DVD navigation pack's
/// times (PCI `VOBU_S_PTM`/`VOBU_E_PTM`/`VOBU_SE_E_PTM`, DSI `NV_PCK_SCR`). Everything else
/// (arrival time stamps, payloads, packets without timestamps) is the base source's bytes
/// unchanged, so the size is the same, except what a transport stream's `joins` change at
/// the pieces' edges (continuity counters renumbered, packets of cut-off PES made null packets).
///
/// Positional and stateless: the bytes of a packet depend only on the base bytes around it, never
/// on earlier reads, so any range read from any task equals the same range of a full read. A
/// transport-stream PES header cut by the end of its packet (its PTS/DTS continue in the next
/// packets of the PID) is rewritten when those packets lie within ``lookaround`` packets of it;
/// each read looks that far around its range (within the same piece) to find them. Whole packets
/// are rewritten in place in the caller's buffer (chunks of up to 16 384 packets, a small window
/// at each edge); nothing is allocated per packet.
public struct ContinuousTimelineByteSource: ByteSource, ExtentMappedByteSource {
  /// The bytes before the rewrite.
  public let base: any ByteSource
  /// The pieces whose timestamps move, in order, not overlapping (other bytes pass unchanged).
  public let shifts: [TimestampShift]
  /// The stream's layout.
  public let layout: Layout
  /// Per piece of ``shifts`` (same ranges), what else changes so that the pieces join cleanly
  /// (transport streams only; empty when nothing does).
  package let joins: [TransportStreamJoin]
  /// The packet (pack) size of the layout.
  var packetSize: Int {
    switch layout {
    case .transportStream(let size): size
    case .programStream: 2048
    }
  }

  /// How the stream is cut into packets.
  public enum Layout: Sendable, Hashable {
    /// 192 (Blu-ray M2TS: a 4-byte arrival time stamp, then the transport packet) or 188.
    case transportStream(packetSize: Int)
    /// MPEG-2 program stream in 2048-byte packs (DVD-Video).
    case programStream
  }
  /// How many packets after a PES header that straddles its packet the rest of it is looked for.
  public static let lookaround = 16
  /// The most packets rewritten in one go.
  static let chunkPackets = 16_384

  public var size: Int64 { base.size }

  /// Wraps `base`.
  ///
  /// - Throws: ``DiscKitError/Code/invalidArgument`` when a transport stream's packet size is
  ///   not 188 or 192 or the shifts are out of order, overlap or lie outside the source.
  public init(base: any ByteSource, shifts: [TimestampShift], layout: Layout)
    throws(DiscKitError)
  {
    try self.init(base: base, shifts: shifts, layout: layout, joins: [])
  }

  /// Wraps `base`, also applying `joins` (one per non-empty shift, over the same range).
  package init(
    base: any ByteSource, shifts: [TimestampShift], layout: Layout, joins: [TransportStreamJoin]
  ) throws(DiscKitError) {
    if case .transportStream(let size) = layout, size != 188 && size != 192 {
      throw DiscKitError(.invalidArgument, "continuous timeline", at: nil, "packet size \(size)")
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
    self.layout = layout
    let kept = joins.filter { $0.end > $0.start }
    guard kept.isEmpty || layout != .programStream else {
      throw DiscKitError(
        .invalidArgument, "continuous timeline", at: nil, "joins need a transport stream")
    }
    guard
      kept.isEmpty
        || (kept.count == self.shifts.count
          && zip(kept, self.shifts).allSatisfy { $0.start == $1.start && $0.end == $1.end })
    else {
      throw DiscKitError(
        .invalidArgument, "continuous timeline", at: nil, "the joins are not the shifts' pieces")
    }
    self.joins = kept.contains { !$0.isEmpty } ? kept : []
  }

  /// Whether piece `index` is read through the rewrite.
  private func rewrites(_ index: Int) -> Bool {
    shifts[index].delta90k != 0 || (!joins.isEmpty && !joins[index].isEmpty)
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
      if let (index, inside) = locate(position), inside, rewrites(index) {
        let shift = shifts[index]
        // Whole packets go in chunks of at most `chunkPackets`; a partial packet alone.
        let ps = Int64(packetSize)
        let into = (position - shift.start) % ps
        var take = min(Int64(count - done), shift.end - position)
        if into != 0 {
          take = min(take, ps - into)
        } else if take >= ps {
          take = min(take, Int64(Self.chunkPackets) * ps)
          if position + take != shift.end { take = take / ps * ps }
        }
        slice = UnsafeMutableRawBufferPointer(rebasing: buffer[done..<done + Int(take)])
        try rewrite(index, at: position, into: slice)
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
  ///
  /// Whole packets are read straight into `out` and rewritten there; the first and last
  /// ``lookaround`` packets are then redone with the packets around them (a PES header that
  /// straddles the range's edge), so the result equals a full read.
  private func rewrite(
    _ index: Int, at position: Int64, into out: UnsafeMutableRawBufferPointer
  ) throws(DiscKitError) {
    let shift = shifts[index]
    let ps = Int64(packetSize)
    let end = position + Int64(out.count)
    let around = layout == .programStream ? 0 : Self.lookaround * packetSize
    guard (position - shift.start) % ps == 0, out.count % packetSize == 0 || end == shift.end,
      out.count >= 4 * around + packetSize, let p = out.baseAddress
    else { return try rewriteInWindow(index, at: position, into: out) }
    let got = try base.readFully(at: position, into: out)
    guard got == out.count else {
      throw DiscKitError.truncated("continuous timeline", at: position, needed: Int64(out.count))
    }
    shiftPackets(
      p.assumingMemoryBound(to: UInt8.self), count: out.count / packetSize, index, at: position)
    guard around > 0 else { return }
    if position > shift.start {
      try rewriteInWindow(
        index, at: position, into: UnsafeMutableRawBufferPointer(rebasing: out[0..<around]))
    }
    if end < shift.end {
      let from = out.count - around
      try rewriteInWindow(
        index, at: end - Int64(around),
        into: UnsafeMutableRawBufferPointer(rebasing: out[from..<out.count]))
    }
  }

  /// Rewrites `count` whole packets at `p`, the first at byte `position`, of piece `index`.
  private func shiftPackets(
    _ p: UnsafeMutablePointer<UInt8>, count: Int, _ index: Int, at position: Int64
  ) {
    let shift = shifts[index]
    switch layout {
    case .transportStream(let size):
      let delta = shift.delta90k
      if joins.isEmpty || joins[index].isEmpty {
        if delta != 0 {
          TransportStreamTimestamps.shift(p, packets: count, packetSize: size, delta: delta)
        }
      } else if delta == 0 {
        joins[index].apply(p, packets: count, packetSize: size, at: position)
      } else {
        // One pass: a packet's timestamps, then its counter or nulling (a straddling PES
        // header reads packets ahead, which only their counters or nulling change).
        let join = joins[index]
        for i in 0..<count {
          TransportStreamTimestamps.shiftPacket(
            p, i, packets: count, packetSize: size, delta: delta)
          join.apply(p, i, packetSize: size, at: position)
        }
      }
    case .programStream:
      ProgramStreamTimestamps.shift(p, packs: count, delta: shift.delta90k)
    }
  }

  /// ``rewrite(_:at:into:)`` through a window reaching ``lookaround`` packets around the range.
  private func rewriteInWindow(
    _ index: Int, at position: Int64, into out: UnsafeMutableRawBufferPointer
  ) throws(DiscKitError) {
    let shift = shifts[index]
    let ps = Int64(packetSize)
    let end = position + Int64(out.count)
    let firstPacket = shift.start + (position - shift.start) / ps * ps
    let endPacket = min(shift.end, shift.start + (end - shift.start + ps - 1) / ps * ps)
    let around = layout == .programStream ? 0 : Int64(Self.lookaround) * ps
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
      shiftPackets(p, count: length / packetSize, index, at: windowStart)
    }
    let from = Int(position - windowStart)
    out.copyMemory(from: UnsafeRawBufferPointer(rebasing: window[from..<from + out.count]))
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
          shifted = rewrites(index)
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
    let source: ContinuousTimelineByteSource
    var size: Int64 { source.size }
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError)
      -> Int
    {
      try source.read(at: offset, into: buffer)
    }
  }
}
