import DiscKitCLI
import DiscKitTestSupport
import Foundation
import Testing

@Suite("Helper programs")
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
}
