import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitCLI

/// ``JSONText`` (the CLI's Foundation-free JSON) against Foundation's `JSONEncoder` with the
/// options the CLI used before, its oracle: byte-equal output on every document kind the CLI
/// prints, over every disc and stream fixture, and on synthetic values covering the escapes and
/// number forms.
@Suite("JSON text vs JSONEncoder", .toolThreads)
struct JSONTextTests {
  static func foundation<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static func expectSame<T: Encodable>(
    _ value: T, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let ours = try JSONText.encode(value)
    let theirs = try foundation(value)
    #expect(ours == theirs, "\(what)", sourceLocation: sourceLocation)
  }

  /// Every disc fixture there is: the sample, the generated Blu-rays and DVDs, the real discs.
  static var discs: [String] {
    var paths = [Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path]
    for name in [
      "bluray/simple", "bluray/simple.iso", "bluray/angles", "bluray/clips", "bluray/decoys",
      "bluray/seamless.iso", "dvd-pal", "dvd-ntsc.iso", "iso9660-joliet-rr.iso", "udf-pycdlib-260.iso",
    ] {
      let path = Fixtures.generated(name)
      if FileManager.default.fileExists(atPath: path) { paths.append(path) }
    }
    if Fixtures.hasRealData {
      for kind in ["bluray", "dvd"] {
        let root = Fixtures.real(kind)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        paths += names.sorted().map { root + "/" + $0 }
      }
    }
    return paths
  }

  @Test func discDocumentsAreByteEqual() throws {
    var documents = 0
    for path in Self.discs {
      let image: DiscImage
      do { image = try DiscImage.open(path: path) } catch {
        try Self.expectSame(TitlesBatchLine(path: path, error: error), "error line \(path)")
        continue
      }
      try Self.expectSame(InfoDocument(image: image), "info \(path)")
      if let listing = try? ListingDocument(image: image, recursive: true) {
        try Self.expectSame(listing, "ls \(path)")
      }
      documents += 1
      guard let disc = try? Disc(image: image) else { continue }
      for selection in TitleSelection.allCases {
        for all in [false, true] {
          guard
            let titles = try? TitlesDocument(
              disc: disc, selection: selection, includeExcluded: all, minimumLength: nil)
          else { continue }
          try Self.expectSame(titles, "titles \(path) \(selection) all=\(all)")
          try Self.expectSame(TitlesBatchLine(path: path, titles: titles), "batch line \(path)")
          documents += 1
        }
      }
      if let main = try? disc.mainTitle(),
        let scan = try? ScanDocument(title: main, window: 1 << 20)
      {
        try Self.expectSame(scan, "scan \(path)")
        try Self.expectSame(ScanBatchLine(path: path, scan: scan), "scan line \(path)")
        documents += 1
      }
    }
    #expect(documents >= 3, "no disc fixtures found")
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: Fixtures.generated("ts")),
      "needs TestImages/generated/ts (make images)"))
  func streamScansAreByteEqual() throws {
    let root = Fixtures.generated("ts")
    for name in try FileManager.default.contentsOfDirectory(atPath: root).sorted()
    where !name.hasPrefix("bench") {
      let source = try FileByteSource(path: root + "/" + name)
      let report = try PESPreScanner.scan(source: source, window: 4 << 20)
      let seek = try? TransportStreamTimeSeek.seek(source: source, to: 1.5)
      try Self.expectSame(
        ScanDocument(report: .transportStream(report), seek: seek), "scan \(name)")
    }
  }

  /// Escapes, number forms, optionals, nested and empty containers, dictionary keys.
  struct Synthetic: Encodable {
    var text: String
    var doubles: [Double]
    var float: Float = 0.1
    var integers: [Int64] = [0, -1, .max, .min]
    var unsigned: UInt64 = .max
    var small: [UInt8] = [0, 255]
    var flags: [Bool] = [true, false]
    var absent: Int?
    var present: Int? = 7
    var nested: [[String: [Int]]] = [[:], ["b": [], "a": [1, 2]]]
    var keys: [String: Int] = ["Z": 1, "_": 2, "a": 3, "A": 4, "a10": 5, "a9": 6, "é": 7, "e": 8]
    var empty: [String] = []
  }

  @Test func syntheticValuesAreByteEqual() throws {
    var everyByte = ""
    for scalar in 0..<0x80 { everyByte.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
    let texts = [
      everyByte, "a/b\\c\"d", "é€𝄞\u{2028}\u{2029}\u{FEFF}", "", "line\nbreak\ttab\r\u{8}\u{C}",
    ]
    var random = SeededRandom(seed: 9)
    var doubles: [Double] = [
      0, -0.0, 1, -1, 0.1, 1.5, 1e15, 1e16, 3e15, 1e20, 1e-7, 5e-324, .greatestFiniteMagnitude,
      123_456_789.125, 29.97, 23.976_023_976_023_978, 90_000,
    ]
    for _ in 0..<500 {
      doubles.append(Double(bitPattern: random.next()))
      doubles.append(Double(Int64(bitPattern: random.next()) >> 20) / 90_000)
    }
    doubles = doubles.filter(\.isFinite)
    for text in texts {
      try Self.expectSame(Synthetic(text: text, doubles: doubles), "synthetic \(text.debugDescription)")
    }
    try Self.expectSame("top-level string", "fragment")
    try Self.expectSame([1, 2, 3], "top-level array")
  }

  @Test func nonFiniteNumbersAreErrors() {
    #expect(throws: (any Error).self) { try JSONText.encode([Double.nan]) }
    #expect(throws: (any Error).self) { try JSONText.encode(["x": Double.infinity]) }
  }
}
