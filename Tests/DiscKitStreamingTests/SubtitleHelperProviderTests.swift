import DiscKit
import DiscKitTestSupport
import Foundation
import Synchronization
import Testing

@testable import DiscKitStreaming

/// How the server reads the `disckit-subtitles` helper's answers: a helper program written here
/// (a shell script) stands in for it, so that each exit and stderr case is made on purpose. The
/// real helper's stderr on a damaged disc is `SubtitleTimingTests.aDamagedSegmentIsSkippedAndReported`.
@Suite("Subtitle helper provider", .toolThreads)
struct SubtitleHelperProviderTests {
  static func helper(_ body: String, in dir: TemporaryDirectory) throws -> String {
    let path = dir.path + "/helper.sh"
    try Data(("#!/bin/sh\n" + body + "\n").utf8).write(to: URL(fileURLWithPath: path))
    guard chmod(path, 0o755) == 0 else { throw DiscKitError(.io, path, "chmod failed") }
    return path
  }

  @Test func warningsOfASucceedingHelperReachTheCallbackLineByLine() throws {
    let dir = try TemporaryDirectory("disckit-subtitle-helper")
    let path = try Self.helper(
      """
      echo 'disckit-subtitles: subtitle stream 1: skipped 2 malformed part(s), the first: X' >&2
      echo WEBVTT
      echo '' >&2
      echo 'second line' >&2
      """, in: dir)
    let lines = Mutex<[String]>([])
    let provider = SubtitleHelperProvider(executable: path) { line in
      lines.withLock { $0.append(line) }
    }
    #expect(try provider.run(["hls-cues"]) == "WEBVTT\n")
    #expect(
      lines.withLock { $0 } == [
        "disckit-subtitles: subtitle stream 1: skipped 2 malformed part(s), the first: X",
        "second line",
      ])
  }

  @Test func aFailingHelpersLastStderrLineIsTheErrorNotAWarning() throws {
    let dir = try TemporaryDirectory("disckit-subtitle-helper")
    let path = try Self.helper(
      "echo 'first' >&2\necho 'disckit-subtitles: no such stream' >&2\nexit 66", in: dir)
    let lines = Mutex<[String]>([])
    let provider = SubtitleHelperProvider(executable: path) { line in
      lines.withLock { $0.append(line) }
    }
    #expect {
      try provider.run(["hls-cues"])
    } throws: { error in
      guard case .disc(let disc) = error as? StreamingError else { return false }
      return disc.code == .notFound && disc.description.contains("disckit-subtitles: no such stream")
    }
    #expect(lines.withLock { $0 }.isEmpty)
  }
}
