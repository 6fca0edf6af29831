import DiscKitFuzzHarnesses
import DiscKitTestSupport
import Foundation
import Testing

/// Replays every input the fuzzers ever crashed, leaked or hung on (`Tests/Fuzz/regressions/
/// HARNESS/`, kept by `Scripts/fuzz.sh --keep`) through its harness's own body
/// (``FuzzHarness``, shared with the libFuzzer entry points in `Tests/Fuzz`). A trap would end the
/// test process; a typed error, or a result, is the expected answer.
@Suite("Fuzz regressions", .toolThreads)
struct FuzzRegressionTests {
  static let root = Fixtures.packageRoot.appendingPathComponent("Tests/Fuzz/regressions")

  /// The harnesses over other modules, whose kept inputs their own suites replay
  /// (`DiscKitSubtitlesTests`: `pgs`, `dvdsub`).
  static let elsewhere: Set<String> = ["range", "pgs", "dvdsub"]

  /// (harness, file) for every kept input.
  static let cases: [FuzzCase] = {
    let harnesses = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return harnesses.sorted().filter { !elsewhere.contains($0) }.flatMap { harness in
      let dir = root.appendingPathComponent(harness).path
      return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted().map {
        FuzzCase(harness: harness, file: dir + "/" + $0)
      }
    }
  }()

  struct FuzzCase: CustomTestStringConvertible, Sendable {
    var harness: String
    var file: String
    var testDescription: String {
      harness + "/" + (file.split(separator: "/").last.map(String.init) ?? "")
    }
  }

  @Test("every kept input is answered without a trap", arguments: cases)
  func replay(_ fuzzCase: FuzzCase) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fuzzCase.file)))
    let harness = try #require(
      FuzzHarness.all.first { $0.name == fuzzCase.harness }, "unknown harness \(fuzzCase.harness)")
    bytes.withUnsafeBytes { harness.run($0) }
  }
}
