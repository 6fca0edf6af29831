import DiscKit
import DiscKitTestSupport
import Testing

/// The rewrite of hand-made packets: the expected bytes are the same packets built with the
/// moved timestamps (encoded by the test from the field layouts of ISO/IEC 13818-1).
@Suite("Timestamp rewrite", .toolThreads)
struct TimestampRewriteTests {
  /// A 5-byte PES timestamp field: `prefix(4) t[32..30] 1 t[29..15] 1 t[14..0] 1`.
  static func pes(_ prefix: UInt8, _ t: UInt64) -> [UInt8] {
    [
      prefix << 4 | UInt8((t >> 30) & 7) << 1 | 1, UInt8((t >> 22) & 0xFF),
      UInt8((t >> 15) & 0x7F) << 1 | 1, UInt8((t >> 7) & 0xFF), UInt8(t & 0x7F) << 1 | 1,
    ]
  }

  /// A PCR field: base(33) reserved(6, all ones) extension(9).
  static func pcr(_ base: UInt64, _ ext: UInt16) -> [UInt8] {
    [
      UInt8((base >> 25) & 0xFF), UInt8((base >> 17) & 0xFF), UInt8((base >> 9) & 0xFF),
      UInt8((base >> 1) & 0xFF), UInt8(base & 1) << 7 | 0x7E | UInt8(ext >> 8), UInt8(ext & 0xFF),
    ]
  }

  /// A 192-byte source packet: arrival time stamp, TS header, adaptation field filling the
  /// packet up to `payload`.
  static func packet(pid: UInt16, start: Bool, pcr: [UInt8]? = nil, payload: [UInt8]) -> [UInt8] {
    var p: [UInt8] = [
      0x0A, 0x0B, 0x0C, 0x0D, 0x47, (start ? 0x40 : 0) | UInt8(pid >> 8), UInt8(pid & 0xFF),
    ]
    let room = 184 - payload.count
    if room == 0 {
      p.append(0x10)
    } else {
      p.append(payload.isEmpty ? 0x20 : 0x30)
      var field: [UInt8] = [pcr == nil ? 0x00 : 0x10] + (pcr ?? [])
      field += [UInt8](repeating: 0xFF, count: max(0, room - 1 - field.count))
      p.append(UInt8(room - 1))
      p += field.prefix(room - 1)
    }
    p += payload
    precondition(p.count == 192)
    return p
  }

  /// Packets with a PCR, PES headers whole and cut across packets, and a PES without PTS.
  static func stream(_ d: UInt64) -> [UInt8] {
    let m: UInt64 = (1 << 33) - 1
    let video: [UInt8] =
      [0, 0, 1, 0xE0, 0, 0, 0x80, 0xC0, 0x0A] + pes(3, (8_589_934_000 + d) & m)
      + pes(1, (8_589_930_000 + d) & m) + [UInt8](repeating: 0x55, count: 40)
    let audio: [UInt8] =
      [0, 0, 1, 0xBD, 0, 0, 0x80, 0x80, 0x05] + pes(2, (1_000 + d) & m)
      + [UInt8](repeating: 0x66, count: 100)
    let untimed: [UInt8] =
      [0, 0, 1, 0xE0, 0, 0, 0x80, 0x00, 0x00] + [UInt8](repeating: 0x77, count: 60)
    var out: [UInt8] = []
    out += packet(pid: 0x100, start: false, pcr: pcr((8_589_934_500 + d) & m, 0x123), payload: [])
    out += packet(pid: 0x1011, start: true, payload: Array(video.prefix(12)))  // cut inside the PTS
    out += packet(pid: 0x1100, start: true, payload: audio)
    out += packet(pid: 0x1011, start: false, payload: Array(video.dropFirst(12)))
    out += packet(pid: 0x1011, start: true, payload: untimed)
    out += packet(pid: 0x1011, start: true, payload: Array(video.prefix(5)))  // cut in the start code's packet
    out += packet(pid: 0x1100, start: false, payload: [UInt8](repeating: 0x66, count: 30))
    out += packet(pid: 0x1011, start: false, payload: Array(video.dropFirst(5).prefix(10)))
    out += packet(pid: 0x1011, start: false, payload: Array(video.dropFirst(15)))
    return out
  }

  @Test(arguments: [UInt64(0), 1, 90_000, 8_589_934_591, 4_294_967_296] as [UInt64])
  func movesEveryTimestampAndNothingElse(_ delta: UInt64) throws {
    let original = Self.stream(0)
    let expected = Self.stream(delta)
    let source = try ContinuousTimelineByteSource(
      base: MemoryByteSource(original),
      shifts: [TimestampShift(start: 0, end: Int64(original.count), delta90k: delta)],
      layout: .transportStream(packetSize: 192))
    #expect(try source.bytes(at: 0, count: original.count) == expected)
    // Every range, read alone, equals the full read.
    for start in stride(from: 0, to: original.count, by: 61) {
      for length in [1, 7, 192, 500] where start + length <= original.count {
        #expect(
          try source.bytes(at: Int64(start), count: length)
            == Array(expected[start..<start + length]),
          "\(start)+\(length)")
      }
    }
  }

  /// A long stream (straddling headers on both sides of every read edge): reads of random
  /// ranges, aligned or not, small or spanning many packets, equal the expected bytes.
  @Test func longStreamRandomRanges() throws {
    let delta: UInt64 = 123_456_789
    let original = [[UInt8]](repeating: Self.stream(0), count: 40).flatMap { $0 }
    let expected = [[UInt8]](repeating: Self.stream(delta), count: 40).flatMap { $0 }
    let source = try ContinuousTimelineByteSource(
      base: MemoryByteSource(original),
      shifts: [TimestampShift(start: 0, end: Int64(original.count), delta90k: delta)],
      layout: .transportStream(packetSize: 192))
    #expect(try source.bytes(at: 0, count: original.count) == expected)
    var random = SeededRandom(seed: 3)
    for _ in 0..<300 {
      let packet = Bool.random(using: &random)
      var start = Int.random(in: 0..<original.count, using: &random)
      var length = Int.random(in: 1...original.count - start, using: &random)
      if packet {
        start = start / 192 * 192
        length = max(192, min(original.count - start, length / 192 * 192))
      }
      #expect(
        try source.bytes(at: Int64(start), count: length)
          == Array(expected[start..<start + length]), "\(start)+\(length)")
    }
  }

  /// Pieces outside any shift, and pieces shifted by 0, are the original bytes.
  @Test func unshiftedPiecesPassThrough() throws {
    let original = Self.stream(0)
    let half = Int64(original.count / 192 / 2 * 192)
    let source = try ContinuousTimelineByteSource(
      base: MemoryByteSource(original),
      shifts: [TimestampShift(start: half, end: Int64(original.count), delta90k: 0)],
      layout: .transportStream(packetSize: 192))
    #expect(try source.bytes(at: 0, count: original.count) == original)
    #expect(throws: DiscKitError.self) {
      try ContinuousTimelineByteSource(
        base: MemoryByteSource(original),
        shifts: [TimestampShift(start: 0, end: Int64(original.count) + 1, delta90k: 5)],
        layout: .transportStream(packetSize: 192))
    }
  }

  /// An MPEG-2 pack header's SCR moves; its extension and marker bits stay.
  @Test func programStreamPack() throws {
    func pack(_ scr: UInt64, _ pts: UInt64) -> [UInt8] {
      var p: [UInt8] = [0, 0, 1, 0xBA]
      p += [
        0x40 | UInt8((scr >> 30) & 7) << 3 | 0x04 | UInt8((scr >> 28) & 3),
        UInt8((scr >> 20) & 0xFF),
        UInt8((scr >> 15) & 0x1F) << 3 | 0x04 | UInt8((scr >> 13) & 3),
        UInt8((scr >> 5) & 0xFF),
        UInt8(scr & 0x1F) << 3 | 0x04 | 0x01, 0x23 << 1 | 1,
        0x01, 0x89, 0xC3, 0xF8,
      ]
      let body = [UInt8](repeating: 0x42, count: 2048 - 14 - 6 - 8)
      let length = 3 + 5 + body.count
      p += [0, 0, 1, 0xE0, UInt8(length >> 8), UInt8(length & 0xFF), 0x80, 0x80, 0x05]
      p += Self.pes(2, pts) + body
      return p
    }
    let original = pack(100, 3_600) + pack(200, 7_200)
    #expect(original.count == 4096)
    let source = try ContinuousTimelineByteSource(
      base: MemoryByteSource(original),
      shifts: [TimestampShift(start: 2048, end: 4096, delta90k: 1_000_000)], layout: .programStream)
    #expect(try source.bytes(at: 0, count: 4096) == pack(100, 3_600) + pack(1_000_200, 1_007_200))
  }
}
