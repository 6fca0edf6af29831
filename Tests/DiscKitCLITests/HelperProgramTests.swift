import DiscKitCLI
import DiscKitTestSupport
import Foundation
import Testing

@Suite("Helper programs", .toolThreads)
struct HelperProgramTests {
  @Test func locatesBesideTheExecutableBeforePath() throws {
    let dir = try TemporaryDirectory()
    let beside = dir.url.appendingPathComponent("beside")
    let onPath = dir.url.appendingPathComponent("onpath")
    for folder in [beside, onPath] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let tool = folder.appendingPathComponent("disckit-helper-test")
      try Data("#!/bin/sh\n".utf8).write(to: tool)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
    }
    #expect(
      HelperProgram.locate("disckit-helper-test", besides: beside.path, path: onPath.path)
        == beside.path + "/disckit-helper-test")
    #expect(
      HelperProgram.locate("disckit-helper-test", besides: "/nonexistent", path: "/x:" + onPath.path)
        == onPath.path + "/disckit-helper-test")
    #expect(HelperProgram.locate("disckit-helper-test", besides: nil, path: "/nonexistent") == nil)
  }

  @Test func onlyDelegatedSubcommandsAreDispatched() {
    #expect(HelperProgram.program(forCommandLine: ["disckit"]) == nil)
    #expect(HelperProgram.program(forCommandLine: ["disckit", "titles", "x.iso"]) == nil)
    for (command, program) in HelperProgram.programs {
      #expect(HelperProgram.program(forCommandLine: ["disckit", command]) == program)
    }
  }

  static let image = Fixtures.generated("udf-genisoimage.iso")
  static let ready =
    EndToEndTests.haveBinary && FileManager.default.fileExists(atPath: image)
    && FileManager.default.isExecutableFile(
      atPath: URL(fileURLWithPath: EndToEndTests.binary).deletingLastPathComponent()
        .appendingPathComponent("disckit-crosscheck").path)

  @Test(
    "crosscheck runs in disckit-crosscheck beside disckit",
    .enabled(if: ready, "needs the built disckit, disckit-crosscheck and the generated images"))
  func crosscheckThroughTheHelper() throws {
    #expect(HelperProgram.programs["crosscheck"] == "disckit-crosscheck")
    let result = try Tool.run(EndToEndTests.binary, ["crosscheck", Self.image])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.text.contains("crosscheck: no differences"))
    // The helper's own usage errors keep the sysexits code.
    #expect(try Tool.run(EndToEndTests.binary, ["crosscheck"]).status == 64)
    // `disckit --help` still lists the command.
    #expect(try Tool.run(EndToEndTests.binary, ["--help"]).text.contains("crosscheck"))
  }

  @Test(
    "without disckit-crosscheck, crosscheck is one line on stderr and exit 69",
    .enabled(if: ready, "needs the built disckit and the generated images"))
  func crosscheckWithoutTheHelper() throws {
    let dir = try TemporaryDirectory()
    let lonely = dir.file("disckit")
    try FileManager.default.copyItem(atPath: EndToEndTests.binary, toPath: lonely)
    let result = try Tool.run(
      lonely, ["crosscheck", Self.image], environment: ["PATH": "/usr/bin:/bin"])
    #expect(result.status == HelperProgram.unavailableExitCode)
    #expect(result.text.isEmpty)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(result.stderr.hasPrefix("disckit: ") && result.stderr.contains("disckit-crosscheck"))
    // Other commands do not need the helper.
    #expect(try Tool.run(lonely, ["--version"], environment: ["PATH": "/usr/bin:/bin"]).status == 0)
  }
}

