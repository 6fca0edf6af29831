@_spi(Fuzzing) import DiscKitSubtitles
import DiscKitTestSupport
import Foundation
import Testing

/// Replays the inputs the `pgs` and `dvdsub` fuzz harnesses once crashed, leaked or hung on
/// (`Tests/Fuzz/regressions/pgs/`, `.../dvdsub/`, kept by `Scripts/fuzz.sh --keep`) through the
/// harnesses' own bodies (``SubtitleFuzzHarness``), and hand-made inputs at the decoders' limits.
/// A trap would end the test process; a decoded event, or none, is the expected answer.
@Suite("Subtitle decoder fuzz regressions", .toolThreads)
struct SubtitleFuzzRegressionTests {
  static let root = Fixtures.packageRoot.appendingPathComponent("Tests/Fuzz/regressions")

  static let cases: [String] = ["pgs", "dvdsub"].flatMap { harness in
    let dir = root.appendingPathComponent(harness).path
    return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted().map {
      harness + "/" + $0
    }
  }

  static func run(_ harness: String, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes {
      if harness == "pgs" {
        SubtitleFuzzHarness.pgs($0)
      } else {
        SubtitleFuzzHarness.dvdSubpicture($0)
      }
    }
  }

  @Test("every kept input is answered without a trap", arguments: cases)
  func replay(_ file: String) throws {
    let bytes = [UInt8](try Data(contentsOf: Self.root.appendingPathComponent(file)))
    Self.run(String(file.split(separator: "/")[0]), bytes)
  }

  static let sup = Fixtures.generated("subtitles/sup/eng.sup")

  @Test(
    "a generated stream goes through the harness's body",
    .enabled(if: FileManager.default.fileExists(atPath: sup), "run make images"))
  func seed() throws {
    Self.run("pgs", [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.sup))))
  }

  @Test("empty and truncated inputs")
  func truncated() {
    Self.run("pgs", [])
    Self.run("pgs", [0x50, 0x47, 0, 0])
    Self.run("pgs", [0x00, 0x05, 0x16, 0x00, 0x20, 0x07])
    Self.run("dvdsub", [])
    Self.run("dvdsub", [0xFF, 0xFF, 0xFF, 0xFF])
  }
}
