import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitCLI

/// `disckit scan FILE --at SECONDS`: parsing, and runs of the built binary checked against ffprobe.
@Suite("disckit scan --at on stream files", .toolThreads)
struct ScanTimeSeekCLITests {
  static let stream = Fixtures.generated("ts/h264-ac3.m2ts")
  static let ready =
    EndToEndTests.haveBinary && Tool.has("ffprobe")
    && FileManager.default.fileExists(atPath: stream)
  static let notReady = Comment(
    rawValue: "needs the built disckit, ffprobe and TestImages/generated/ts")

  @Test func atParsesAndExcludesOffset() throws {
    let scan = try #require(
      try DiscKitCommand.parseAsRoot(["scan", "a.m2ts", "--at", "12.5", "--json"]) as? ScanCommand)
    #expect(scan.at == 12.5)
    #expect(scan.offset == "0")
    #expect(throws: (any Error).self) {
      try DiscKitCommand.parseAsRoot(["scan", "a.m2ts", "--at", "1", "--offset", "188"])
    }
  }

  /// ffprobe's keyframes of the first video stream: (pts, pos), and the first video PTS.
  static func keyframes(_ path: String) throws -> (first: Int64, keys: [(pts: Int64, pos: Int64)]) {
    let result = try Tool.run(
      "ffprobe",
      [
        "-v", "quiet", "-of", "json", "-select_streams", "v:0", "-show_entries",
        "packet=pts,pos,flags", path,
      ])
    let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
    let packets = json["packets"] as? [[String: Any]] ?? []
    let first = try #require(packets.first?["pts"] as? Int)
    let keys = packets.filter { ($0["flags"] as? String ?? "").hasPrefix("K") }.compactMap {
      p -> (Int64, Int64)? in
      guard let pts = p["pts"] as? Int, let pos = (p["pos"] as? String).flatMap({ Int64($0) })
      else { return nil }
      return (Int64(pts), pos)
    }
    return (Int64(first), keys)
  }

  @Test(.enabled(if: ready, notReady))
  func jsonReportStartsAtTheKeyframe() throws {
    let (first, keys) = try Self.keyframes(Self.stream)
    for t in [0.0, 2.4, 3.0, 50] {
      let run = try EndToEndTests.disckit(["scan", Self.stream, "--at", String(t), "--json"])
      #expect(run.status == 0, "\(run.stderr)")
      let report = try EndToEndTests.json(run)
      let seek = try #require(report["seek"] as? [String: Any])
      let expected = try #require(keys.last { Double($0.pts - first) <= t * 90_000 })
      #expect(seek["pts"] as? Int == Int(expected.pts), "T \(t)")
      #expect(seek["accessPointOffset"] as? Int == Int(expected.pos), "T \(t)")
      #expect(seek["placement"] as? String == "atOrBefore")
      #expect(seek["clamped"] as? Bool == (t == 50))
      // The scan starts at the seek's offset, before the PAT ffmpeg writes ahead of each keyframe.
      #expect(report["scanStart"] as? Int == seek["offset"] as? Int)
      // (BDAV: PIDs <= 0x1001 are backed over too, e.g. the SDT before the first PAT.)
      let pat = try #require(report["firstPATOffset"] as? Int)
      #expect(pat >= seek["offset"] as? Int ?? .max && pat < Int(expected.pos))
      #expect(report["pesBeforePAT"] as? Int == 0)
      let video = try #require((report["video"] as? [[String: Any]])?.first)
      #expect(video["firstIDRPTS"] as? Int == Int(expected.pts))
      #expect(video["preIDRGapSeconds"] as? Double == 0)
    }
    // Without --at the report has no seek object.
    let plain = try EndToEndTests.json(try EndToEndTests.disckit(["scan", Self.stream, "--json"]))
    #expect(plain["seek"] == nil)
  }

  @Test(.enabled(if: ready, notReady))
  func textAndErrors() throws {
    let text = try EndToEndTests.disckit(["scan", Self.stream, "--at", "2"])
    #expect(text.status == 0)
    #expect(text.text.hasPrefix("Seek to 2.0 s: idr on PID 4113"))
    let both = try EndToEndTests.disckit(["scan", Self.stream, "--at", "2", "--offset", "192"])
    #expect(both.status == 64)
    let negative = try EndToEndTests.disckit(["scan", Self.stream, "--at=-1"])
    #expect(negative.status == 64)
    #expect(negative.stderr.split(separator: "\n").count == 1)
    let title = try EndToEndTests.disckit(["scan", Self.stream, "--title", "1"])
    #expect(title.status == 64)
    let dir = try TemporaryDirectory()
    let junk = dir.file("junk.ts")
    try Data(repeating: 0x00, count: 10_000).write(to: URL(fileURLWithPath: junk))
    let malformed = try EndToEndTests.disckit(["scan", junk, "--at", "1"])
    #expect(malformed.status == 65)
  }

  @Test(
    "a stream with no video: --at exits 65 (malformed input), not 66 (cannot open)",
    .enabled(if: EndToEndTests.haveBinary && Tool.has("ffmpeg"), "needs the built disckit and ffmpeg"))
  func noVideoExits65() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("audio-only.ts")
    let made = try Tool.run(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "sine=frequency=440:sample_rate=48000:duration=4", "-c:a", "ac3", "-f", "mpegts", path,
      ])
    try #require(made.status == 0, "ffmpeg: \(made.stderr)")
    let run = try EndToEndTests.disckit(["scan", path, "--at", "3"])
    #expect(run.status == 65)
    #expect(run.stderr.split(separator: "\n").count == 1)
    #expect(run.stderr.contains("no video"))
  }

  @Test(
    .enabled(
      if: EndToEndTests.haveBinary && EndToEndTests.haveImages,
      "needs the built disckit and TestImages/scripts/make-all.sh output"))
  func discImagesStillSeekByTitle() throws {
    let report = try EndToEndTests.json(
      try EndToEndTests.disckit(["scan", EndToEndTests.dvd, "--at", "2", "--json"]))
    #expect(report["container"] as? String == "mpeg-ps")
    #expect((report["scanStart"] as? Int ?? 0) > 0)
    #expect(report["seek"] == nil)
  }
}
