import DiscKitTestSupport
import Foundation
import Testing

/// `disckit extract` on a device that fails: the real binary runs with an `LD_PRELOAD` shim
/// (`Tests/oracles/eio_write_shim.c`, built here with cc) under which every write, pwrite, writev,
/// copy_file_range and sendfile to a regular file fails with EIO once 64 KiB have been written, as
/// a dying disk answers. Expected: exit 74, one error line naming the I/O error, nothing under the
/// final name and no temporary file, for both output strategies (the unnamed O_TMPFILE file and
/// the named fallback) and for both copy paths (`--timeline original` goes through
/// copy_file_range, `continuous` and DVD titles through write).
@Suite("Extract on a failing device (EIO through LD_PRELOAD)", .toolThreads)
struct FailingWriteTests {
  static let binary = EndToEndTests.binary
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
  static let failAfter = 65_536

  /// Where the shim is built (removed when the test process exits).
  static let shimDirectory = try? TemporaryDirectory.processWide("disckit-eio-shim")
  /// The shim, built once; nil without cc or on a system where it does not build.
  static let shim: String? = {
    #if os(Linux)
      guard EndToEndTests.haveBinary, Fixtures.isDynamicExecutable(binary), Tool.has("cc"),
        let dir = shimDirectory
      else { return nil }
      let source = Fixtures.packageRoot.appendingPathComponent("Tests/oracles/eio_write_shim.c")
        .path
      let library = dir.file("eio_write_shim.so")
      let build = try? Tool.run("cc", ["-shared", "-fPIC", "-O1", "-o", library, source, "-ldl"])
      return build?.status == 0 ? library : nil
    #else
      return nil
    #endif
  }()
  static let notReady = Comment(
    rawValue:
      "needs Linux, cc (to build Tests/oracles/eio_write_shim.c) and a dynamically linked disckit"
      + " (LD_PRELOAD cannot reach the static release build)")

  struct Case: CustomTestStringConvertible, Sendable {
    var image: String
    var arguments: [String]
    var fallback: Bool
    var testDescription: String {
      (image.split(separator: "/").last.map(String.init) ?? image) + " "
        + arguments.joined(separator: " ") + (fallback ? " (named fallback)" : " (O_TMPFILE)")
    }
    var environment: [String: String] { fallback ? ["DISCKIT_OUTPUT_TMPFILE": "0"] : [:] }
  }

  static let cases: [Case] = {
    var list: [Case] = []
    let dvd = Fixtures.generated("dvd-pal.iso")
    for fallback in [false, true] {
      list.append(
        Case(image: sample, arguments: ["--main", "--timeline", "original"], fallback: fallback))
      list.append(
        Case(image: sample, arguments: ["--main", "--timeline", "continuous"], fallback: fallback))
      if FileManager.default.fileExists(atPath: dvd) {
        list.append(Case(image: dvd, arguments: ["--main"], fallback: fallback))
      }
    }
    return list
  }()

  static func names(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  /// Runs `disckit extract` of `testCase` into `out/title.out` under the shim.
  static func extract(_ testCase: Case, shim: String, after: Int, out: String) throws -> Tool.Result
  {
    var environment = testCase.environment
    environment["LD_PRELOAD"] = shim
    environment["EIO_SHIM_AFTER"] = String(after)
    return try Tool.run(
      binary, ["extract", testCase.image] + testCase.arguments + ["-o", out + "/title.out"],
      environment: environment)
  }

  /// The loader check that gates these tests, against cc's own dynamic and static programs.
  @Test(.enabled(if: Tool.has("cc"), "needs cc"))
  func loaderDetection() throws {
    let dir = try TemporaryDirectory()
    let source = dir.file("main.c")
    try "int main(void) { return 0; }\n".write(toFile: source, atomically: true, encoding: .utf8)
    let dynamic = dir.file("dynamic")
    let fixed = dir.file("static")
    #expect(try Tool.run("cc", ["-o", dynamic, source]).status == 0)
    #expect(try Tool.run("cc", ["-static", "-o", fixed, source]).status == 0)
    #expect(Fixtures.isDynamicExecutable(dynamic))
    #expect(!Fixtures.isDynamicExecutable(fixed))
    #expect(!Fixtures.isDynamicExecutable(source))
  }

  @Test(
    "EIO after 64 KiB: exit 74, one line, nothing under the final name, no temporary file",
    .enabled(if: shim != nil, notReady), arguments: cases)
  func failingDevice(_ testCase: Case) throws {
    let shim = try #require(Self.shim)
    let dir = try TemporaryDirectory()
    let out = dir.file("out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

    // Control: under the same shim with a budget it never reaches, the extraction succeeds and
    // is larger than the failure point (so the failure below is the shim's EIO at 64 KiB).
    let control = try Self.extract(testCase, shim: shim, after: 1 << 40, out: out)
    #expect(control.status == 0, "\(control.stderr)")
    let size =
      (try? FileManager.default.attributesOfItem(atPath: out + "/title.out")[.size]) as? Int
    try #require((size ?? 0) > Self.failAfter, "the title must be larger than the failure point")
    try FileManager.default.removeItem(atPath: out + "/title.out")

    let run = try Self.extract(testCase, shim: shim, after: Self.failAfter, out: out)
    #expect(run.status == 74, "\(run.stderr)")
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.count == 1, "one line: \(run.stderr)")
    #expect(run.stderr.contains("I/O error after \(Self.failAfter) bytes"), "\(run.stderr)")
    #expect(Self.names(out) == [], "left behind: \(Self.names(out))")
  }
}
