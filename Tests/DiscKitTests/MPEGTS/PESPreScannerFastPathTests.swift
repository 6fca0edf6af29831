import DiscKitTestSupport
import Foundation
import Testing

@_spi(Benchmark) @testable import DiscKit

/// The pre-scanner's fast path (packets that only extend a PES skip the general per-packet path)
/// gives exactly the report of the general path, on every stream fixture and under every read
/// chunking.
@Suite("PES pre-scanner fast path", .toolThreads)
struct PESPreScannerFastPathTests {
  /// Every transport-stream fixture: generated streams and the real samples.
  static let fixtures: [String] = {
    var paths: [String] = []
    for folder in [Fixtures.generated("ts"), Fixtures.real("ts"), Fixtures.real("m2ts")] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      for name in names.sorted()
      where [".ts", ".m2ts", ".mts"].contains(where: { name.lowercased().hasSuffix($0) }) {
        paths.append(folder + "/" + name)
      }
    }
    return paths
  }()

  /// Up to `count` bytes of the file from `offset`.
  static func bytes(_ path: String, offset: Int, count: Int) throws -> [UInt8] {
    let source = try FileByteSource(path: path)
    let start = Int64(min(offset, Int(source.size)))
    return try source.bytes(at: start, count: Int(min(Int64(count), source.size - start)))
  }

  @Test("fixtures are present", .enabled(if: !fixtures.isEmpty, "no stream fixtures found"))
  func fixturesFound() {
    #expect(Self.fixtures.count >= 5)
  }

  @Test(
    "fast path = general path on every fixture (whole 30 MiB window, 1 MiB and odd chunks)",
    arguments: fixtures)
  func wholeWindow(path: String) throws {
    let data = try Self.bytes(path, offset: 0, count: Int(PESPreScanner.defaultWindow))
    let general = TSOracle.scan(data, chunk: 1 << 20, fastPath: false)
    // The fast path really is taken: many packets of a stream only extend a PES.
    var scanner = PESPreScanner()
    data.withUnsafeBytes { scanner.feed($0) }
    let report = scanner.finish()
    if report.packets > 1000 {
      #expect(Double(scanner.quietPacketCount) > 0.25 * Double(report.packets), "\(path)")
    }
    for chunk in [1 << 20, 65_536, 4096, 1000, 192, 188] {
      let fast = TSOracle.scan(data, chunk: chunk, fastPath: true)
      #expect(fast == general, "\(path), chunk \(chunk)")
    }
  }

  @Test(
    "fast path = general path from the middle of every fixture, byte by byte and in odd chunks",
    arguments: fixtures)
  func fromTheMiddle(path: String) throws {
    let size = try FileByteSource(path: path).size
    // Cut inside a packet, 40% in: the reader must find the sync first.
    let data = try Self.bytes(path, offset: Int(size * 2 / 5) / 188 * 188 + 77, count: 300_000)
    let general = TSOracle.scan(data, chunk: 4096, fastPath: false)
    for chunk in [1, 7, 100, 189, 4096, 1 << 20] {
      #expect(
        TSOracle.scan(data, chunk: chunk, fastPath: true) == general, "\(path), chunk \(chunk)")
    }
  }

  static let haveM2TS = fixtures.contains { $0.hasSuffix(".m2ts") }

  @Test(
    "stream boundaries (Blu-ray clip joins) reset continuity the same way on both paths",
    .enabled(if: haveM2TS, "no .m2ts stream fixture found"))
  func boundaries() throws {
    let path = try #require(Self.fixtures.first(where: { $0.hasSuffix(".m2ts") }))
    let data = try Self.bytes(path, offset: 0, count: 4 << 20)
    // Two copies back to back: the counters jump at the join unless a boundary is declared.
    let joined = data + data
    var options = PESScanOptions()
    options.streamBoundaries = [Int64(data.count)]
    for opts in [options, PESScanOptions()] {
      let general = TSOracle.scan(joined, chunk: 65_536, fastPath: false, options: opts)
      #expect(TSOracle.scan(joined, chunk: 65_536, fastPath: true, options: opts) == general)
      #expect(TSOracle.scan(joined, chunk: 192, fastPath: true, options: opts) == general)
    }
  }

  @Test(
    "seeded corruption: both paths agree on damaged streams",
    .enabled(if: !fixtures.isEmpty, "no stream fixtures found"))
  func corrupted() throws {
    let path = try #require(Self.fixtures.first)
    let clean = try Self.bytes(path, offset: 0, count: 2 << 20)
    var rng = SeededRandom(seed: 11)
    for _ in 0..<8 {
      var data = clean
      for _ in 0..<200 {
        let i = Int.random(in: 0..<data.count, using: &rng)
        data[i] = UInt8.random(in: 0...255, using: &rng)
      }
      let general = TSOracle.scan(data, chunk: 4096, fastPath: false)
      #expect(TSOracle.scan(data, chunk: 4096, fastPath: true) == general)
      #expect(
        TSOracle.scan(data, chunk: Int.random(in: 1...5000, using: &rng), fastPath: true) == general
      )
    }
  }
}
