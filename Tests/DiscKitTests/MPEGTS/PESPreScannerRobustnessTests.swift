import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Chunking independence and bad input: reports with warnings or typed errors, never a crash.
@Suite("PES pre-scanner robustness", .toolThreads)
struct PESPreScannerRobustnessTests {
  static let ready = FileManager.default.fileExists(atPath: Fixtures.generated("ts/h264-ac3.ts"))
  static let notReady = Comment(
    rawValue: "needs TestImages/generated/ts (run TestImages/scripts/make-all.sh)")

  /// A small stream: the first 120 KB of a generated one, cut 77 bytes into a packet and at 40%.
  static func sample(_ name: String) throws -> [UInt8] {
    let data = try TSOracle.bytes(Fixtures.generated("ts/\(name)"))
    let start = data.count * 2 / 5 / 188 * 188 + 77
    return Array(data[start..<min(data.count, start + 400_000)])
  }

  @Test(
    "same report for 1, 188, 192, 4096, 1 MiB and odd chunk sizes", .enabled(if: ready, notReady),
    arguments: [
      "h264-ac3.ts", "h264-lpcm.m2ts", "hevc-ac3.ts", "mpeg2-ac3.m2ts", "wrap-h264-aac.m2ts",
    ])
  func chunking(name: String) throws {
    let data = try Self.sample(name)
    let reference = TSOracle.scan(data, chunk: 1 << 20)
    #expect(reference.packetSize != nil)
    let video = try #require(reference.video.first)
    #expect(video.firstIDRPTS != nil || video.firstCRAPTS != nil)
    for chunk in [1, 188, 192, 4096, 7, 1000] {
      #expect(TSOracle.scan(data, chunk: chunk) == reference, Comment(rawValue: "chunk \(chunk)"))
    }
    // The library entry point over a byte source agrees as well.
    #expect(try PESPreScanner.scan(source: MemoryByteSource(data)) == reference)
  }

  @Test("0-byte input is a typed error")
  func empty() {
    #expect(throws: DiscKitError.self) { try PESPreScanner.scan(source: MemoryByteSource([])) }
    do {
      _ = try PESPreScanner.scan(source: MemoryByteSource([]))
    } catch {
      #expect(error.code == .malformed)
      #expect(error.offset == 0)
    }
  }

  @Test("random bytes are a typed error")
  func randomBytes() {
    var rng = SplitMix64(seed: 42)
    let data = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &rng) }.map {
      $0 == 0x47 ? 0x46 : $0
    }
    do {
      _ = try PESPreScanner.scan(source: MemoryByteSource(data))
      Issue.record("random bytes were accepted")
    } catch {
      #expect(error.code == .malformed)
      #expect(error.structure == "transport stream")
    }
  }

  @Test("an offset outside the source is an invalid argument")
  func badOffset() {
    do {
      _ = try PESPreScanner.scan(source: MemoryByteSource([0x47]), offset: 5)
      Issue.record("accepted")
    } catch {
      #expect(error.code == .invalidArgument)
    }
  }

  /// Rewrites the packets of `data` (188-byte units from offset 0).
  static func editPackets(
    _ data: [UInt8], unit: Int = 188, _ edit: (inout [UInt8], Int, UInt16) -> Bool
  ) -> [UInt8] {
    var out: [UInt8] = []
    var o = 0
    let s = unit == 192 ? 4 : 0
    while o + unit <= data.count {
      var packet = Array(data[o..<o + unit])
      let pid = UInt16(packet[s + 1] & 0x1F) << 8 | UInt16(packet[s + 2])
      if edit(&packet, s, pid) { out += packet }
      o += unit
    }
    return out
  }

  static func whole(_ name: String) throws -> [UInt8] {
    try TSOracle.bytes(Fixtures.generated("ts/\(name)"))
  }

  @Test(
    "no PAT: a report with a noPAT warning, every PES counted before the gate",
    .enabled(if: ready, notReady))
  func noPAT() throws {
    let data = Self.editPackets(try Self.whole("h264-ac3.ts")) { _, _, pid in pid != 0 }
    let report = TSOracle.scan(data, chunk: 4096)
    #expect(report.firstPATOffset == nil)
    #expect(report.warnings.contains { $0.kind == .noPAT })
    #expect(report.pesBeforePAT == TSOracle.walk(data, unit: 188).pesStarts.count)
    #expect(report.video.isEmpty && report.audio.isEmpty)
  }

  @Test("no PMT: streams reported without codec, noPMT warning", .enabled(if: ready, notReady))
  func noPMT() throws {
    let data = Self.editPackets(try Self.whole("h264-ac3.ts")) { _, _, pid in pid != 0x1000 }
    let report = TSOracle.scan(data, chunk: 4096)
    #expect(report.firstPATOffset == TSOracle.walk(data, unit: 188).firstPATOffset)
    #expect(report.firstPMTOffset == nil)
    #expect(report.warnings.contains { $0.kind == .noPMT })
    #expect(report.video.isEmpty)
    // The AC-3 PID is still found (sniffed from its sync word); the video PID is listed as other.
    #expect(report.audio.map(\.pid) == [257])
    #expect(report.other.map(\.pid) == [256])
    #expect(report.warnings.contains { $0.kind == .pidNotInPMT && $0.pid == 256 })
  }

  @Test(
    "a corrupt PAT CRC: crcMismatch, the gate opens at the next good PAT",
    .enabled(if: ready, notReady))
  func badCRC() throws {
    var first = true
    let data = Self.editPackets(try Self.whole("h264-ac3.ts")) { packet, s, pid in
      if pid == 0 && first {
        first = false
        packet[s + 10] ^= 0xFF
      }
      return true
    }
    let report = TSOracle.scan(data, chunk: 4096)
    let walk = TSOracle.walk(data, unit: 188)
    #expect(report.warnings.contains { $0.kind == .crcMismatch })
    #expect(report.firstPATOffset == walk.patOffsets[1])
  }

  @Test(
    "lying PES_packet_length: pesLength warning, PTS still found", .enabled(if: ready, notReady))
  func lyingPESLength() throws {
    var edited = 0
    let data = Self.editPackets(try Self.whole("h264-ac3.ts")) { packet, s, pid in
      // AC-3 PES carry a real length; make the first three lie.
      if pid == 257, packet[s + 1] & 0x40 != 0, edited < 3 {
        var p = s + 4
        if packet[s + 3] & 0x20 != 0 { p += 1 + Int(packet[s + 4]) }
        packet[p + 4] = 0x7F
        packet[p + 5] = 0xFF
        edited += 1
      }
      return true
    }
    let report = TSOracle.scan(data, chunk: 188)
    #expect(report.warnings.filter { $0.kind == .pesLength }.count == 3)
    #expect(report.audio.first?.firstPTS != nil)
  }

  @Test(
    "PES header_data_length too short for its PTS: pesHeader warning", .enabled(if: ready, notReady)
  )
  func lyingHeaderLength() throws {
    var edited = false
    let data = Self.editPackets(try Self.whole("h264-ac3.ts")) { packet, s, pid in
      if pid == 256, packet[s + 1] & 0x40 != 0, !edited {
        var p = s + 4
        if packet[s + 3] & 0x20 != 0 { p += 1 + Int(packet[s + 4]) }
        packet[p + 8] = 2
        edited = true
      }
      return true
    }
    let report = TSOracle.scan(data, chunk: 100)
    #expect(report.warnings.contains { $0.kind == .pesHeader && $0.pid == 256 })
  }

  @Test("lying adaptation_field_length: warning, payload ignored", .enabled(if: ready, notReady))
  func lyingAdaptationLength() throws {
    var edited = 0
    let data = Self.editPackets(try Self.whole("h264-ac3.ts")) { packet, s, pid in
      if pid == 256, packet[s + 3] & 0x20 != 0, edited < 2 {
        packet[s + 4] = 200
        edited += 1
      }
      return true
    }
    let report = TSOracle.scan(data, chunk: 4096)
    #expect(report.warnings.filter { $0.kind == .adaptationFieldLength }.count == 2)
    #expect(report.video.first?.firstIDRPTS != nil)
  }

  @Test(
    "garbage inside the stream: resync, continuity errors, same first PTS",
    .enabled(if: ready, notReady))
  func resync() throws {
    let clean = try Self.whole("h264-ac3.m2ts")
    var data = Array(clean[0..<192 * 200])
    data += [UInt8](repeating: 0x47, count: 1) + [UInt8](repeating: 0xAB, count: 333)
    data += clean[192 * 200..<clean.count]
    let report = TSOracle.scan(data, chunk: 4096)
    let cleanReport = TSOracle.scan(clean, chunk: 4096)
    #expect(report.resyncs == 1)
    #expect(report.skippedBytes == 334)
    #expect(report.warnings.contains { $0.kind == .resync && $0.offset == 192 * 200 })
    #expect(report.video.first?.firstPTS == cleanReport.video.first?.firstPTS)
    #expect(report.audio.first?.firstPTS == cleanReport.audio.first?.firstPTS)
    // Dropping packets breaks continuity.
    var dropper = SplitMix64(seed: 0xD0_0D)
    let dropped = Self.editPackets(clean, unit: 192) { _, _, pid in
      pid != 0x1011 || Int.random(in: 0..<50, using: &dropper) != 0
    }
    #expect(TSOracle.scan(dropped, chunk: 4096).continuityErrors > 0)
  }

  @Test(
    "seeded fuzz: mutated streams never crash and do not depend on chunking",
    .enabled(if: ready, notReady))
  func fuzz() throws {
    let base = Array(try Self.whole("h264-ac3.ts").prefix(60_000))
    var rng = SplitMix64(seed: 0x5EED)
    for round in 0..<150 {
      var data = base
      let edits = Int.random(in: 1...40, using: &rng)
      for _ in 0..<edits {
        let i = Int.random(in: 0..<data.count, using: &rng)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: data[i] = UInt8.random(in: 0...255, using: &rng)
        case 1: data[i] = [0x00, 0x01, 0x47, 0xFF, 0xB7][Int.random(in: 0..<5, using: &rng)]
        case 2: data.removeSubrange(i..<min(data.count, i + Int.random(in: 1...300, using: &rng)))
        default:
          data.insert(
            contentsOf: (0..<Int.random(in: 1...50, using: &rng)).map { _ in
              UInt8.random(in: 0...255, using: &rng)
            }, at: i)
        }
        if data.isEmpty { break }
      }
      let a = TSOracle.scan(data, chunk: 4096)
      let b = TSOracle.scan(data, chunk: Int.random(in: 1...700, using: &rng))
      #expect(a == b, Comment(rawValue: "round \(round)"))
    }
  }
}

/// The shared seeded generator, under the name these tests use.
typealias SplitMix64 = SeededRandom
