@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// BD-J objects authored here (``BDJTestObjects``), read back by DiscKit; DiscKitOracleTests' suite
/// of the same name reads them with libbluray's `bd_read_bdjo`.
@Suite("BDJO", .toolThreads)
struct BDJObjectTests {
  @Test func parsesWhatWasAuthored() throws {
    for sample in BDJTestObjects.samples() {
      #expect(try BDJObject(bytes: sample.serialize()) == sample)
    }
  }

  @Test func everyTruncationIsATypedError() throws {
    let bytes = BDJTestObjects.samples()[2].serialize()
    // The last byte pads the odd-length file access information: not needed.
    for length in 0..<bytes.count - 1 {
      #expect(throws: DiscKitError.self) { try BDJObject(bytes: Array(bytes.prefix(length))) }
    }
  }

  @Test func wrongHeaderAndAddresses() throws {
    var bytes = BDJTestObjects.samples()[1].serialize()
    bytes[0] = UInt8(ascii: "X")
    #expect(throws: DiscKitError(.malformed, "BDJO", at: 0, "")) {
      try BDJObject(bytes: bytes)
    }
    bytes = BDJTestObjects.samples()[1].serialize()
    bytes[12...15] = [0x7F, 0xFF, 0xFF, 0xFF]  // application cache address past the end
    #expect(throws: DiscKitError(.malformed, "BDJO", at: 12, "")) {
      try BDJObject(bytes: bytes)
    }
  }

  /// Seeded byte flips: a typed error or a value, never a trap.
  @Test func byteFlipsNeverTrap() {
    var random = SeededRandom(seed: 0xBD10)
    let samples = BDJTestObjects.samples().map { $0.serialize() }
    for _ in 0..<3000 {
      var bytes = samples[Int.random(in: 0..<samples.count, using: &random)]
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
          in: 0...255, using: &random)
      }
      _ = try? BDJObject(bytes: bytes)
    }
  }
}
