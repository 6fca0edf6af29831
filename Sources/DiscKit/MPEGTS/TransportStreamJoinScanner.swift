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
  }

  /// The last counter of a PID written so far (after renumbering) and whether that packet had a
  /// payload.
  private struct Counter {
    var cc: UInt8
    var hasPayload: Bool
  }

  /// The joins of `pieces` (in order, packet-aligned byte ranges of `source`).
  ///
  /// - Parameter expectedPIDs: per piece, the elementary-stream PIDs worth waiting for (video and
  ///   audio of the clip's program), or an empty set to read just the first window.
  package static func joins(
    source: any ByteSource, pieces: [Range<Int64>], packetSize: Int,
    expectedPIDs: [Set<UInt16>]
  ) throws(DiscKitError) -> [TransportStreamJoin] {
    var state: [UInt16: Counter] = [:]
    var result: [TransportStreamJoin] = []
    for (k, piece) in pieces.enumerated() {
      let expected = k < expectedPIDs.count ? expectedPIDs[k] : []
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
        let started = Set(head.lazy.filter(\.pusi).map(\.pid))
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
        let started = Set(tail.lazy.filter(\.pusi).map(\.pid))
        if window >= maximumWindow || expected.isSubset(of: started) { break }
        window *= 2
      }
      let whole = tailStart == headEnd
      let all = whole ? head + tail : []
      var nulling: [TransportStreamJoin.Nulling] = []

      // Head: PES packets before their PID's first PES start (the rest of a PES begun earlier).
      var firstPacket: [UInt16: Packet] = [:]
      var firstStart: [UInt16: Packet] = [:]
      var orphan: Set<UInt16> = []
      for packet in whole ? all : head where firstStart[packet.pid] == nil {
        if firstPacket[packet.pid] == nil { firstPacket[packet.pid] = packet }
        if packet.pusi {
          firstStart[packet.pid] = packet
        } else if packet.hasPayload {
          orphan.insert(packet.pid)
        }
      }
      var firstKept = firstPacket
      for (pid, start) in firstStart where start.isPES && orphan.contains(pid) {
        nulling.append(.init(pid: pid, range: piece.lowerBound..<start.offset))
        firstKept[pid] = start
      }

      // Tail: the last PES of each PID, nulled when its PES_packet_length runs past the end.
      var lastStart: [UInt16: Packet] = [:]
      var before: [UInt16: Packet] = [:]
      var last: [UInt16: Packet] = [:]
      var bytes: [UInt16: Int] = [:]
      let headNulls = Dictionary(
        nulling.map { ($0.pid, $0.range.upperBound) }, uniquingKeysWith: { a, _ in a })
      for packet in whole ? all : tail where packet.offset >= headNulls[packet.pid] ?? 0 {
        if packet.pusi {
          if let previous = last[packet.pid] { before[packet.pid] = previous }
          lastStart[packet.pid] = packet
          bytes[packet.pid] = 0
        }
        if packet.hasPayload, bytes[packet.pid] != nil {
          bytes[packet.pid, default: 0] += packet.payloadBytes
        }
        last[packet.pid] = packet
      }
      var lastKept: [UInt16: Packet?] = last.mapValues { $0 }
      for (pid, start) in lastStart {
        guard start.isPES, let length = start.pesLength, length > 0,
          (bytes[pid] ?? 0) < length + 6
        else { continue }
        let headNull = nulling.first { $0.pid == pid }?.range.upperBound ?? piece.lowerBound
        nulling.append(.init(pid: pid, range: max(start.offset, headNull)..<end))
        lastKept[pid] = .some(before[pid])
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
      if pusi, payload + 6 <= ts + 188, data[payload] == 0, data[payload + 1] == 0,
        data[payload + 2] == 1
      {
        isPES = true
        length = Int(data[payload + 4]) << 8 | Int(data[payload + 5])
      }
      result.append(
        Packet(
          offset: range.lowerBound + Int64(i), pid: pid, pusi: pusi, cc: data[ts + 3] & 0x0F,
          hasPayload: hasPayload, pesLength: length, isPES: isPES,
          payloadBytes: hasPayload ? ts + 188 - payload : 0))
    }
    return result
  }
}
