import DiscKit
import DiscKitCLI
import DiscKitTestSupport
import Foundation
import Testing

/// The exit code `disckit` gives the time seek's typed errors (DiscKitCLI's mapping), on a real
/// sample and a stream ffmpeg makes.
@Suite("Transport stream time seek: exit codes", .toolThreads)
struct TimeSeekExitCodeTests {
  static let haveFFmpeg = Tool.has("ffmpeg") && Tool.has("ffprobe")

  /// Makes a stream with ffmpeg.
  static func make(_ path: String, seconds: Int, args: [String]) throws {
    let result = try Tool.run(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "testsrc=size=320x240:rate=25:duration=\(seconds)", "-f", "lavfi", "-i",
        "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
      ] + args + [path])
    try #require(result.status == 0, "ffmpeg: \(result.stderr)")
  }

  @Test(
    "real sample whose video PID carries no packets: malformed (exit 65)",
    .enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)))
  func realSampleWithoutVideoPackets() throws {
    let source = try FileByteSource(path: Fixtures.real("ts/tsduck_test-151_h264_aac_eac3.ts"))
    #expect {
      try TransportStreamTimeSeek.seek(source: source, to: 3)
    } throws: { error in
      let e = error as? DiscKitError
      return e?.code == .malformed && e?.code.exitCode == 65
    }
  }

  @Test(
    "a stream without video: unsupported (exit 65, not 66)",
    .enabled(if: haveFFmpeg, "needs ffmpeg"))
  func noVideo() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("audio.ts")
    try Self.make(path, seconds: 2, args: ["-vn", "-c:a", "ac3", "-f", "mpegts"])
    #expect {
      try TransportStreamTimeSeek.seek(source: FileByteSource(path: path), to: 1)
    } throws: { error in
      let e = error as? DiscKitError
      return e?.code == .unsupported && e?.code.exitCode == 65
        && e?.detail.contains("no video") == true
    }
  }
}
