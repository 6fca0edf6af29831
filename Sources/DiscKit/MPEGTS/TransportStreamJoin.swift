/// What the continuous timeline changes in one piece of a transport stream, besides timestamps, so
/// that the pieces of a title join cleanly.
///
/// Two edits, both decided by the packet's position and PID alone (so a read of any range is
/// the same as that range of a full read):
/// - continuity counters: every packet of a PID in the piece gets the same amount added (modulo
///   16), so that the first packet of the PID in the piece follows on from the last one of the
///   pieces before it (ISO/IEC 13818-1 §2.4.3.3: a payload packet's counter is one more than the
///   previous packet's of its PID; a packet without payload repeats it);
/// - null packets: the packets of a PES that the piece's edge cuts (a PES that began before the
///   piece's first byte, a PES whose `PES_packet_length` runs past the piece's last byte, a PES
///   presented outside the play item) become null packets (PID 0x1FFF, no adaptation field,
///   stuffing bytes; a 192-byte packet keeps its arrival time stamp). libbluray's m2ts filter
///   only rewrites the PID of such packets, which leaves PES starts that demuxers guessing
///   streams on unknown PIDs (ffmpeg) read as an extra stream.
package struct TransportStreamJoin: Sendable, Hashable {
  /// Every packet of `pid` in the piece gets `delta` added to its continuity counter (mod 16).
  package struct Renumbering: Sendable, Hashable {
    /// The PID.
    package var pid: UInt16
    /// What is added, 1...15.
    package var delta: UInt8
  }

  /// The packets of `pid` whose first byte lies in `range` (bytes of the whole source) become
  /// null packets.
  package struct Nulling: Sendable, Hashable {
    /// The PID.
    package var pid: UInt16
    /// The byte range (of the whole source, packet-aligned).
    package var range: Range<Int64>
  }

  /// The ``Nulling/pid`` of a nulling that takes every PID's packets (the bytes of a play item
  /// past its STC sequence's end).
  package static let everyPID: UInt16 = 0xFFFF

  /// The piece: `start..<end` of the source.
  package var start: Int64
  /// The end (exclusive) of the piece.
  package var end: Int64
  /// The renumbered PIDs (sorted by PID).
  package var renumbering: [Renumbering]
  /// The packets turned into null packets.
  package var nulling: [Nulling]

  /// Where null packets may be: before `headNullEnd` or from `tailNullStart` on (so that the
  /// packets between skip the look-up).
  private let headNullEnd: Int64
  private let tailNullStart: Int64

  /// Creates the edit of `start..<end`.
  package init(start: Int64, end: Int64, renumbering: [Renumbering], nulling: [Nulling]) {
    self.start = start
    self.end = end
    self.renumbering = renumbering.sorted { $0.pid < $1.pid }
    self.nulling = nulling
    headNullEnd =
      nulling.filter { $0.range.lowerBound <= start }.map(\.range.upperBound).max() ?? start
    tailNullStart =
      nulling.filter { $0.range.lowerBound > start }.map(\.range.lowerBound).min() ?? end
  }

  /// This edit over `start..<end` with every packet from `bound` on (to `end`) a null packet.
  package func extended(to end: Int64, nullingFrom bound: Int64) -> TransportStreamJoin {
    TransportStreamJoin(
      start: start, end: end, renumbering: renumbering,
      nulling: nulling + [Nulling(pid: Self.everyPID, range: bound..<end)])
  }

  /// Whether the piece's bytes are left as they are.
  package var isEmpty: Bool { renumbering.isEmpty && nulling.isEmpty }

  /// Applies the edit to `packets` whole packets at `p`, the first of which is at byte
  /// `position` of the source (packets outside the piece are left alone).
  func apply(
    _ p: UnsafeMutablePointer<UInt8>, packets: Int, packetSize: Int, at position: Int64
  ) {
    guard !isEmpty else { return }
    for i in 0..<packets {
      apply(p, i, packetSize: packetSize, at: position)
    }
  }

  /// Applies the edit to packet `i` of the packets at `p`, the first of which is at byte
  /// `position` of the source.
  @inline(__always)
  func apply(_ p: UnsafeMutablePointer<UInt8>, _ i: Int, packetSize: Int, at position: Int64) {
    let offset = position + Int64(i * packetSize)
    guard offset >= start, offset < end else { return }
    let ts = i * packetSize + packetSize - 188
    guard p[ts] == 0x47 else { return }
    let pid = (UInt16(p[ts + 1] & 0x1F) << 8) | UInt16(p[ts + 2])
    guard pid != 0x1FFF else { return }
    if offset < headNullEnd || offset >= tailNullStart,
      nulling.contains(where: {
        ($0.pid == pid || $0.pid == Self.everyPID) && $0.range.contains(offset)
      })
    {
      // A null packet: PID 0x1FFF, payload only, stuffing (the arrival time stamp stays).
      p[ts + 1] = 0x1F
      p[ts + 2] = 0xFF
      p[ts + 3] = 0x10
      (p + ts + 4).update(repeating: 0xFF, count: 184)
      return
    }
    for r in renumbering where r.pid >= pid {
      if r.pid == pid {
        p[ts + 3] = (p[ts + 3] & 0xF0) | ((p[ts + 3] &+ r.delta) & 0x0F)
      }
      return
    }
  }
}
