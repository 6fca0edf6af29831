import DiscKitTestSupport
import Foundation
import Testing

/// The library page (`GET /`) and its player in a real browser: Debian's chromium, headless,
/// driven by selenium (Tests/Browser/library-page.py) in real time, behind `--token`: the page
/// lists the discs and the two-clip title of `simple`, and the player plays it from the start,
/// after a seek into the middle and across the clip join (the video's clock advances, frames
/// are decoded, no media error). GStreamer's `playbin` plays the multivariant playlist and each
/// media playlist of every codec disc to the end.
@Suite(
  "disckit serve library page and players", .serialized,
  .enabled(
    if: ServerProcess.haveBinary && Curl.available
      && FileManager.default.fileExists(atPath: Fixtures.generated("bluray/simple/BDMV"))
      && FileManager.default.fileExists(atPath: Fixtures.generated("codecs/truehd-core/BDMV")),
    "needs disckit-serve, curl and the make-bluray.sh / make-codecs.sh output"), .toolThreads)
struct ServerBrowserTests {
  static let browser =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
    && ((try? Tool.run("/usr/bin/python3", ["-c", "import selenium"]).status) == 0)

  @Test func thePageIsServedFromTheBinary() throws {
    let dir = try ServerFMP4HLSTests.root()
    let server = try ServerProcess(root: dir.path, ["--quiet", "--token", "s3cret"])
    #expect(try Curl.get(server.base + "/").status == 401)
    let reply = try Curl.get(server.base + "/?token=s3cret")
    #expect(reply.status == 200)
    #expect(reply.headers["content-type"]?.hasPrefix("text/html") == true)
    let page = String(decoding: reply.body, as: UTF8.self)
    #expect(page.contains("<video"))
    // Nothing is fetched from elsewhere: no absolute URL in a src or href.
    #expect(
      !page.contains("src=\"http") && !page.contains("href=\"http") && !page.contains("//cdn"))
  }

  @Test(.enabled(if: browser, "needs /usr/bin/chromium, /usr/bin/chromedriver and selenium"))
  func chromiumPlaysATitleFromThePage() throws {
    let dir = try ServerFMP4HLSTests.root()
    let server = try ServerProcess(root: dir.path, ["--quiet", "--token", "s3cret"])
    let script = Fixtures.packageRoot.appendingPathComponent("Tests/Browser/library-page.py").path
    // simple: title 00000 = clip a (4 s) + clip b (3 s); the middle is 3.5 s, the join at 4 s.
    let run = try Tool.run(
      "/usr/bin/python3", [script, server.base + "/?token=s3cret", "simple", "00000", "3.5", "4.0"])
    #expect(run.status == 0, "\(run.text) \(run.stderr.suffix(2000))")
    let seen = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any] ?? [:]
    #expect((seen["discs"] as? [String])?.count == ServerFMP4HLSTests.discs.count)
    #expect((seen["titles"] as? [String])?.contains("00000") == true)
    // The page chose the stereo AAC rendition (the title's AC-3 transcoded) and the browser
    // decoded its audio (library-page.py checks webkitAudioDecodedByteCount in each phase).
    let start = seen["start"] as? [String: Any]
    #expect((start?["audio"] as? String)?.contains("AAC") == true, "\(seen)")
  }

  /// Audio that stops and comes back (`audio-gaps`: the AC-3 of each 14 s clip ends 2 s in,
  /// a 12 s gap, and 11 s without audio at the title's end): the page's player (the stereo AAC
  /// rendition) plays from the start, across the gap's start (a seek to 1 s) and its end
  /// (title time 14 s): the clock advances, frames and audio are decoded, no media error.
  @Test(.enabled(if: browser, "needs /usr/bin/chromium, /usr/bin/chromedriver and selenium"))
  func chromiumPlaysAcrossAnAudioGap() throws {
    let dir = try ServerFMP4HLSTests.root()
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    let script = Fixtures.packageRoot.appendingPathComponent("Tests/Browser/library-page.py").path
    let run = try Tool.run(
      "/usr/bin/python3", [script, server.base + "/", "audio-gaps", "00000", "1.0", "14.0"])
    #expect(run.status == 0, "\(run.text) \(run.stderr.suffix(2000))")
    let seen = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any] ?? [:]
    for phase in ["start", "seek", "join"] {
      let audio = (seen[phase] as? [String: Any])?["audio"] as? String
      #expect(audio?.contains("AAC") == true, "\(phase): \(seen)")
    }
  }

  /// The captions: make-subtitles.sh's Blu-ray (recognised before the browser starts), the
  /// first subtitle rendition chosen in the page, and at a caption of each clip (before and after
  /// the join) the video's text track has that cue active: its text the one drawn, its start the
  /// served cue's time placed by the segment's `X-TIMESTAMP-MAP`.
  @Test(
    .enabled(
      if: browser && TesseractData.english
        && FileManager.default.isExecutableFile(
          atPath: Fixtures.builtExecutable("disckit-subtitles"))
        && FileManager.default.fileExists(atPath: Fixtures.generated("subtitles/bluray/BDMV")),
      "needs chromium, chromedriver, selenium, disckit-subtitles, Tesseract's English data and make-subtitles.sh's output"
    ))
  func chromiumShowsTheCaptions() throws {
    let dir = try TemporaryDirectory("disckit-serve-captions")
    try FileManager.default.copyItem(
      atPath: Fixtures.generated("subtitles/bluray"), toPath: dir.path + "/subs-bluray")
    let cache = try TemporaryDirectory("disckit-subtitle-cache")
    let server = try ServerProcess(
      root: dir.path, ["--quiet"], environment: ["XDG_CACHE_HOME": cache.path])
    let base = server.base + "/discs/\(try ServerFixture.id(server, "subs-bluray"))/titles/00000/"
    let (master, _) = try ServerSubtitleHLSTests.settledMaster(base + "master.m3u8")
    let uri = try #require(
      master.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }
        .flatMap { ServerFMP4HLSTests.attributes($0)["URI"] })
    let playlist = ServerFMP4HLSTests.media(try ServerFMP4HLSTests.text(base + uri))
    let folder = base + uri.split(separator: "/").dropLast().joined(separator: "/") + "/"
    var cues: [(Int64, Int64, String)] = []
    var mpegts: Int64 = 0
    for (_, name) in playlist.segments {
      let segment = ServerSubtitleHLSTests.segment(try ServerFMP4HLSTests.text(folder + name))
      mpegts = segment.mpegts ?? 0
      for cue in segment.cues where !cues.contains(where: { $0 == cue }) { cues.append(cue) }
    }
    let drawn = try ServerSubtitleHLSTests.drawn()
    try #require(cues.count == drawn.count && drawn.count >= 5)
    // The first caption of clip a and of clip b (title time 10 s on), half a second in.
    let chosen = [0, drawn.firstIndex { $0.start >= 10 } ?? 4]
    let at = chosen.map { Double(cues[$0].0) / 1000 + Double(mpegts) / 90000 + 0.5 }
    let script = Fixtures.packageRoot.appendingPathComponent("Tests/Browser/captions.py").path
    let run = try Tool.run(
      "/usr/bin/python3", [script, server.base + "/", "00000"] + at.map { String($0) })
    #expect(run.status == 0, "\(run.text) \(run.stderr.suffix(2000))")
    let seen = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any] ?? [:]
    let results = seen["cues"] as? [[String: Any]] ?? []
    try #require(results.count == chosen.count, "\(seen)")
    for (k, result) in zip(chosen, results) {
      let active = result["active"] as? [[String: Any]] ?? []
      try #require(active.count == 1, "\(result)")
      let text = active[0]["text"] as? String ?? ""
      #expect(ServerSubtitleHLSTests.errorRate(drawn[k].lines, text) <= 0.05, "\(text)")
      let start = active[0]["start"] as? Double ?? -1
      let expected = Double(cues[k].0) / 1000 + Double(mpegts) / 90000
      #expect(abs(start - expected) < 0.002, "\(start) \(expected)")
      #expect(abs(Double(cues[k].0) / 1000 - drawn[k].start) < 0.1)
    }
  }

  @Test(.enabled(if: Tool.has("gst-launch-1.0"), "needs GStreamer's gst-launch-1.0"))
  func gstreamerPlaysEveryVariant() throws {
    let dir = try ServerFMP4HLSTests.root()
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    for name in ServerFMP4HLSTests.discs.keys.sorted() {
      let base = server.base + "/discs/\(try ServerFixture.id(server, name))/titles/00000/"
      let master = try ServerFMP4HLSTests.text(base + "master.m3u8")
      var uris = ["master.m3u8", "fmp4/video.m3u8"]
      if master.contains("fmp4/dv.m3u8") { uris.append("fmp4/dv.m3u8") }
      uris += master.split(separator: "\n").compactMap {
        $0.hasPrefix("#EXT-X-MEDIA:") ? ServerFMP4HLSTests.attributes($0)["URI"] : nil
      }
      for uri in uris {
        let run = try Tool.run(
          "gst-launch-1.0",
          ["playbin", "uri=" + base + uri, "video-sink=fakesink", "audio-sink=fakesink"])
        #expect(run.status == 0, "\(name) \(uri): \(run.stderr)")
        #expect(run.text.contains("EOS"), "\(name) \(uri): \(run.text)")
      }
    }
  }
}
