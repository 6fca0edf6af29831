import DiscKit
import DiscKitCLI
import DiscKitTestSupport
import Foundation
import Testing

/// The library's errors say what is wrong; the CLI adds how to get past it in its own terms
/// (`--force`, `disckit titles`) when it prints them.
@Suite("CLI error hints", .toolThreads)
struct ErrorHintTests {
  static let binary = EndToEndTests.binary
  static let haveBinary = EndToEndTests.haveBinary
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
  static let haveSample = FileManager.default.fileExists(atPath: sample)

  @Test func hintsByError() {
    let exists = DiscKitError(.alreadyExists, "/tmp/out.m2ts", at: nil, "already exists")
    #expect(exists.commandLineHint == "use --force to overwrite")
    #expect(
      exists.commandLineMessage
        == "disckit: /tmp/out.m2ts: already exists (use --force to overwrite)")
    // A folder that --force would not replace gets no such hint.
    let folder = DiscKitError(
      .alreadyExists, "out", at: nil,
      "already exists; the output folder must be new or an empty directory")
    #expect(folder.commandLineHint == nil)
    let title = DiscKitError(.notFound, "title 9", at: nil, "no such title in the title list")
    #expect(
      title.commandLineMessage
        == "disckit: title 9: no such title in the title list (see `disckit titles`)")
    let malformed = DiscKitError(.malformed, "index.bdmv", at: 4, "bad version")
    #expect(malformed.commandLineMessage == "disckit: \(malformed)")
  }

  @Test(
    .enabled(
      if: haveBinary && haveSample, "needs the built disckit and TestImages/sample-bluray.iso"))
  func existingOutputNamesForce() throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("index.bdmv")
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: out))
    let run = try Tool.run(Self.binary, ["cat", Self.sample, "/BDMV/index.bdmv", "-o", out])
    #expect(run.status == 73)
    #expect(run.stderr == "disckit: \(out): already exists (use --force to overwrite)\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data([1, 2, 3]))
    let forced = try Tool.run(
      Self.binary, ["cat", Self.sample, "/BDMV/index.bdmv", "-o", out, "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
  }

  @Test(
    .enabled(
      if: haveBinary && haveSample, "needs the built disckit and TestImages/sample-bluray.iso"))
  func unknownTitleNamesTheTitlesCommand() throws {
    let dir = try TemporaryDirectory()
    let run = try Tool.run(
      Self.binary, ["extract", Self.sample, "--title", "99", "-o", dir.file("t.m2ts")])
    #expect(run.status == 66)
    #expect(run.stderr.hasSuffix("(see `disckit titles`)\n"), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1)
  }
}
