/// Works out the ``TransportStreamJoin`` of each piece of a transport stream made of pieces cut
/// from other streams (a Blu-ray title's clip ranges), reading only each piece's head and tail.
///
/// The head is read until every PID of `expectedPIDs` has started a PES (at least 64 KiB, at most
/// ``maximumWindow``), the tail from 64 KiB before the end, doubled until every expected PID
/// starts a PES in it (at most ``maximumWindow``). A PID that shows up only between the two
/// windows (a sparse subtitle stream) loses its counter state there: its next piece is not
/// renumbered.
package enum TransportStreamJoinScanner {
  /// The most bytes read at each end of a piece.
  package static let maximumWindow: Int64 = 1 << 20
  /// The first window.
  static let firstWindow: Int64 = 64 << 10

  /// One packet's header fields.
  private struct Packet {
    var offset: Int64
    var pid: UInt16
    var pusi: Bool
    var cc: UInt8
    var hasPayload: Bool
    /// For a payload unit start: whether the payload begins a PES, and its `PES_packet_length`.
    var pesLength: Int?
    var isPES: Bool
    var payloadBytes: Int
    /// The PES's PTS, when its header is in this packet.
    var pts: UInt64?
  }

  /// The last counter of a PID written so far (after renumbering) and whether that packet had a
  /// payload.
  private struct Counter {
    var cc: UInt8
    var hasPayload: Bool
  }

  /// The joins of `pieces` (in order, packet-aligned byte ranges of `source`).
  ///
  /// At each join (not at the first piece's start nor the last one's end) the pieces also drop,
  /// as libbluray's m2ts filter does, the PES presented outside their play items: at the head
  /// every PES of a PID before its first one with PTS ≥ the in-time, at the tail every PES with
  /// PTS ≥ the out-time (libbluray keeps audio and video PES presented
  /// exactly at the out-time; that frame is the next item's first on a continuous timeline, so
  /// it goes too). Only PES that start in the windows are judged.
  ///
  /// - Parameters:
  ///   - expectedPIDs: per piece, the elementary-stream PIDs worth waiting for (video and audio
  ///     of the clip's program), or an empty set to read just the first window.
  ///   - presentation: per piece, the play item's in and out times (90 kHz, the clip's epoch), or
  ///     `nil` to keep every PES.
  ///   - seamless: per piece, whether it continues the piece before it seamlessly (connection
  ///     condition 5 or 6: one stream cut in two, so a PES may run on across the join and
  ///     nothing is presented twice): no packet at that join becomes a null packet, only the
  ///     counters are renumbered.
  package static func joins(
    source: any ByteSource, pieces: [Range<Int64>], packetSize: Int,
    expectedPIDs: [Set<UInt16>], presentation: [(in90k: UInt64, out90k: UInt64)?] = [],
    seamless: [Bool] = []
  ) throws(DiscKitError) -> [TransportStreamJoin] {
    var state: [UInt16: Counter] = [:]
    var result: [TransportStreamJoin] = []
    for (k, piece) in pieces.enumerated() {
      let expected = k < expectedPIDs.count ? expectedPIDs[k] : []
      let times = k < presentation.count ? presentation[k] : nil
      // The title's own start and end are no joins: left as they are.
      let seamlessHead = k == 0 || (k < seamless.count && seamless[k])
      let seamlessTail = k == pieces.count - 1 || (k + 1 < seamless.count && seamless[k + 1])
      let ps = Int64(packetSize)
      let length = (piece.upperBound - piece.lowerBound) / ps * ps
      guard length > 0 else {
        result.append(
          TransportStreamJoin(
            start: piece.lowerBound, end: piece.upperBound, renumbering: [], nulling: []))
        continue
      }
      let end = piece.lowerBound + length
      // Head.
      var headEnd = piece.lowerBound
      var head: [Packet] = []
      var window = firstWindow
      while true {
        let to = min(end, piece.lowerBound + window / ps * ps)
        head += try packets(source, headEnd..<to, packetSize: packetSize)
        headEnd = to
        let started = Set(
          head.lazy.filter { $0.pusi && Self.passes($0, times, head: true) }.map(\.pid))
        if headEnd == end || window >= maximumWindow || expected.isSubset(of: started) { break }
        window *= 2
      }
      // Tail (from the end of the head when they meet).
      var tailStart = end
      var tail: [Packet] = []
      window = firstWindow
      while tailStart > headEnd {
        let from = max(headEnd, end - window / ps * ps)
        tail = try packets(source, from..<tailStart, packetSize: packetSize) + tail
        tailStart = from
        let started = Set(
          tail.lazy.filter { $0.pusi && Self.passes($0, times, head: false) }.map(\.pid))
        if window >= maximumWindow || expected.isSubset(of: started) { break }
        window *= 2
      }
      let whole = tailStart == headEnd
      let all = whole ? head + tail : []

      // Head: the packets of each PES PID before its first PES start presented from the
      // in-time on (the rest of a PES begun before the piece, PES presented before the in-time).
      var nulling: [TransportStreamJoin.Nulling] = []
      var passed: Set<UInt16> = []
      var early: Set<UInt16> = []
      for packet in whole ? all : head where !passed.contains(packet.pid) {
        if packet.pusi, packet.isPES, Self.passes(packet, times, head: true) {
          passed.insert(packet.pid)
          if early.contains(packet.pid), !seamlessHead {
            nulling.append(.init(pid: packet.pid, range: piece.lowerBound..<packet.offset))
          }
        } else if packet.pusi, !packet.isPES {
          passed.insert(packet.pid)  // PSI
        } else if packet.hasPayload {
          early.insert(packet.pid)
        }
      }
      let headNull = Dictionary(
        nulling.map { ($0.pid, $0.range.upperBound) }, uniquingKeysWith: { a, _ in a })
      // Tail: PES presented after the out-time, and a last PES whose PES_packet_length runs past
      // the end.
      var open: [UInt16: (start: Int64, bytes: Int, length: Int?, drop: Bool)] = [:]
      func close(_ pid: UInt16, at offset: Int64) {
        guard let unit = open[pid] else { return }
        let cut = offset == end && (unit.length.map { $0 > 0 && unit.bytes < $0 + 6 } ?? false)
        if (unit.drop || cut) && !seamlessTail {
          nulling.append(.init(pid: pid, range: unit.start..<offset))
        }
        open[pid] = nil
      }
      for packet in whole ? all : tail where packet.offset >= headNull[packet.pid] ?? 0 {
        if packet.pusi {
          close(packet.pid, at: packet.offset)
          guard packet.isPES else { continue }
          let drop = !Self.passes(packet, times, head: false)
          open[packet.pid] = (packet.offset, 0, packet.pesLength, drop)
        }
        if packet.hasPayload { open[packet.pid]?.bytes += packet.payloadBytes }
      }
      for pid in Array(open.keys) { close(pid, at: end) }
      func nulled(_ packet: Packet) -> Bool {
        nulling.contains { $0.pid == packet.pid && $0.range.contains(packet.offset) }
      }
      var firstKept: [UInt16: Packet] = [:]
      for packet in whole ? all : head where firstKept[packet.pid] == nil && !nulled(packet) {
        firstKept[packet.pid] = packet
      }
      var lastKept: [UInt16: Packet?] = [:]
      for packet in (whole ? all : tail).reversed()
      where lastKept[packet.pid] == nil && !nulled(packet) {
        lastKept[packet.pid] = .some(packet)
      }
      for packet in whole ? all : tail where lastKept[packet.pid] == nil {
        lastKept[packet.pid] = .some(nil)
      }

      // Renumbering: the first kept packet follows the last one written before the piece.
      var renumbering: [TransportStreamJoin.Renumbering] = []
      var deltas: [UInt16: UInt8] = [:]
      if k > 0 {
        for (pid, packet) in firstKept {
          guard let previous = state[pid] else { continue }
          let want = packet.hasPayload ? (previous.cc &+ 1) & 0x0F : previous.cc
          let delta = (want &+ 16 &- packet.cc) & 0x0F
          if delta != 0 {
            renumbering.append(.init(pid: pid, delta: delta))
            deltas[pid] = delta
          }
        }
      }
      if !whole {
        // What happened between the windows is unknown: only the tail's PIDs carry on.
        state = [:]
      }
      for (pid, packet) in lastKept {
        guard let packet else {
          if !whole { state[pid] = nil }
          continue
        }
        state[pid] = Counter(
          cc: (packet.cc &+ (deltas[pid] ?? 0)) & 0x0F, hasPayload: packet.hasPayload)
      }
      result.append(
        TransportStreamJoin(
          start: piece.lowerBound, end: piece.upperBound, renumbering: renumbering,
          nulling: nulling))
    }
    return result
  }

  /// Whether a PES start is kept: at the head, presented from the in-time on (a PES without PTS
  /// is not); at the tail, presented before the out-time (a PES without PTS is).
  private static func passes(
    _ packet: Packet, _ times: (in90k: UInt64, out90k: UInt64)?, head: Bool
  ) -> Bool {
    guard packet.isPES, let times else { return true }
    guard let pts = packet.pts else { return !head }
    return head ? !before(pts, times.in90k) : before(pts, times.out90k)
  }

  /// Whether 33-bit time `a` is before `b` (modulo 2^33: less than 2^32 ticks before).
  static func before(_ a: UInt64, _ b: UInt64) -> Bool {
    let d = (b &- a) & TimestampField.mask
    return d != 0 && d < 1 << 32
  }

  /// The packets of `range` (whole packets; null packets and packets without a sync byte left out).
  private static func packets(_ source: any ByteSource, _ range: Range<Int64>, packetSize: Int)
    throws(DiscKitError) -> [Packet]
  {
    let count = Int(range.upperBound - range.lowerBound)
    guard count > 0 else { return [] }
    let data = try source.bytes(
      at: range.lowerBound, count: count, structure: "transport stream join")
    let header = packetSize - 188
    var result: [Packet] = []
    var i = 0
    while i + packetSize <= data.count {
      let ts = i + header
      defer { i += packetSize }
      guard data[ts] == 0x47 else { continue }
      let pid = (UInt16(data[ts + 1] & 0x1F) << 8) | UInt16(data[ts + 2])
      guard pid != 0x1FFF else { continue }
      let control = (data[ts + 3] >> 4) & 3
      var payload = ts + 4
      if control & 2 != 0 { payload = ts + 5 + Int(data[ts + 4]) }
      let hasPayload = control & 1 != 0 && payload < ts + 188
      let pusi = data[ts + 1] & 0x40 != 0 && hasPayload
      var isPES = false
      var length: Int?
      var pts: UInt64?
      if pusi, payload + 6 <= ts + 188, data[payload] == 0, data[payload + 1] == 0,
        data[payload + 2] == 1
      {
        isPES = true
        length = Int(data[payload + 4]) << 8 | Int(data[payload + 5])
        if payload + 14 <= ts + 188, TimestampField.hasOptionalHeader(data[payload + 3]),
          data[payload + 7] & 0x80 != 0
        {
          let b = data[(payload + 9)..<(payload + 14)].map(UInt64.init)
          pts =
            (b[0] >> 1 & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1
        }
      }
      result.append(
        Packet(
          offset: range.lowerBound + Int64(i), pid: pid, pusi: pusi, cc: data[ts + 3] & 0x0F,
          hasPayload: hasPayload, pesLength: length, isPES: isPES,
          payloadBytes: hasPayload ? ts + 188 - payload : 0, pts: pts))
    }
    return result
  }
}
