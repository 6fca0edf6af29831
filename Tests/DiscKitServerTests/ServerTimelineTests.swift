import DiscKitTestSupport
import Foundation
import Testing

/// `timeline=continuous` (the default, as `disckit extract`) and `timeline=original` on a Blu-ray
/// whose clips live hours apart (TestImages/scripts/make-epochs.sh), checked against
/// `disckit extract --timeline` and ffprobe reading over HTTP.
@Suite(
  "disckit serve timelines", .serialized,
  .enabled(
    if: ServerFixture.ready
      && FileManager.default.fileExists(atPath: Fixtures.generated("epochs/bd-epochs.iso"))
      && Tool.has("ffprobe"),
    "needs disckit-serve, curl, ffprobe and TestImages/generated/epochs (make-all.sh)"), .toolThreads)
struct ServerTimelineTests {
  static func json(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  /// ffprobe's first video packet time and the format duration of `url`.
  static func probe(_ url: String) throws -> (firstVideo: Double, duration: Double) {
    let result = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time:format=duration",
        "-read_intervals", "%+#1", "-of", "json", url,
      ])
    let object = try json(result.stdout)
    let packets = try #require(object["packets"] as? [[String: Any]])
    let first = try #require(Double(packets.first?["pts_time"] as? String ?? ""))
    let format = try #require(object["format"] as? [String: Any])
    return (first, Double(format["duration"] as? String ?? "") ?? -1)
  }

  @Test func continuousIsTheDefaultAndEqualsExtract() throws {
    let directory = try TemporaryDirectory("disckit-serve-epochs")
    try FileManager.default.copyItem(
      atPath: Fixtures.generated("epochs/bd-epochs.iso"), toPath: directory.path + "/bd-epochs.iso")
    let server = try ServerProcess(root: directory.path, ["--quiet"])
    let id = try #require(
      (try Self.json(try Curl.get(server.base + "/discs").body)["discs"] as? [[String: Any]])?
        .first?["id"] as? String)
    let base = server.base + "/discs/\(id)/titles/00000"
    let image = directory.path + "/bd-epochs.iso"
    func extract(_ timeline: String) throws -> Data {
      let result = try ServerFixture.disckit(
        ["extract", image, "--playlist", "00000", "--timeline", timeline, "-o", "-"])
      #expect(result.status == 0, "\(result.stderr)")
      return result.stdout
    }
    let continuous = try extract("continuous")
    let original = try extract("original")
    #expect(continuous != original)
    #expect(try Curl.get(base + "/stream").body == continuous)
    #expect(try Curl.get(base + "/stream?timeline=continuous").body == continuous)
    #expect(try Curl.get(base + "/stream?timeline=original").body == original)
    let tags = try ["", "?timeline=original"].map {
      try #require(try Curl.get(base + "/stream" + $0, ["-I"]).headers["etag"])
    }
    #expect(tags[0] != tags[1])

    // ffprobe over HTTP: one timeline as long as the title, starting at the first item's in-time.
    let titles = try Self.json(try Curl.get(server.base + "/discs/\(id)/titles").body)
    let row = try #require(
      (titles["titles"] as? [[String: Any]])?.first { $0["key"] as? String == "00000" })
    let duration = Double(row["duration90k"] as? Int ?? 0) / 90_000
    let clips = try #require(row["clips"] as? [[String: Any]])
    let base0 = Double(clips.first?["in90k"] as? Int ?? 0) / 90_000
    let whole = try Self.probe(base + "/stream")
    #expect(
      abs(whole.duration - duration) < 0.5, "ffprobe duration \(whole.duration) vs \(duration)")
    #expect(try Self.probe(base + "/stream?timeline=original").duration > 3000)
    // From 5 s (inside the second clip, a non-seamless one): the keyframe at or before 5 s, on
    // the title's timeline, not in the clip's own epoch.
    let secondStart = Double(clips[1]["start90k"] as? Int ?? 0) / 90_000
    let started = try Self.probe(base + "/stream?start=5")
    let titleTime = started.firstVideo - base0
    #expect(
      titleTime >= secondStart - 0.01 && titleTime <= 5.01, "first video at title time \(titleTime)"
    )
    // The bytes from there are the continuous title's bytes from the playback start.
    let scan = try Self.json(try Curl.get(base + "/scan?start=5").body)
    let offset = try #require((scan["title"] as? [String: Any])?["offset"] as? Int)
    let body = try Curl.get(base + "/stream?start=5").body
    #expect(
      body.suffix(continuous.count - offset) == continuous.subdata(in: offset..<continuous.count))

    // At 3 s the second clip (non-seamless) starts: its PSI packets before its range are sent
    // first. On the continuous timeline their PCR moves like the clip's: by start - in + in_0.
    let originalStart = try Curl.get(base + "/stream?timeline=original&start=3").body
    let continuousStart = try Curl.get(base + "/stream?start=3").body
    let startOffset = try #require(
      ((try Self.json(try Curl.get(base + "/scan?start=3").body))["title"] as? [String: Any])?[
        "offset"] as? Int)
    let prefix = continuousStart.count - (continuous.count - startOffset)
    #expect(prefix > 0 && prefix % 192 == 0, "the second clip has PSI packets before its range")
    #expect(originalStart.count == continuousStart.count)
    let delta =
      (Int64(clips[1]["start90k"] as? Int ?? 0) - Int64(clips[1]["in90k"] as? Int ?? 0)
        + Int64(clips[0]["in90k"] as? Int ?? 0)) & 0x1_FFFF_FFFF
    for packet in stride(from: 0, to: prefix, by: 192) {
      let o = Array(originalStart[packet..<packet + 192])
      let c = Array(continuousStart[packet..<packet + 192])
      guard let a = Self.pcrBase(o), let b = Self.pcrBase(c) else {
        // The same packet; its continuity counter is renumbered like the clip's (issue 20).
        var (oc, cc) = (o, c)
        oc[7] &= 0xF0
        cc[7] &= 0xF0
        #expect(oc == cc)
        continue
      }
      #expect(b == (a + delta) & 0x1_FFFF_FFFF)
    }
  }

  /// The 33-bit PCR base of a 192-byte source packet, if its adaptation field carries one.
  static func pcrBase(_ p: [UInt8]) -> Int64? {
    guard p[4] == 0x47, (p[7] >> 4) & 0x2 != 0, p[8] >= 7, p[9] & 0x10 != 0 else { return nil }
    return Int64(p[10]) << 25 | Int64(p[11]) << 17 | Int64(p[12]) << 9 | Int64(p[13]) << 1
      | Int64(p[14] >> 7)
  }
}
