import DiscKitTestSupport
import Foundation
import Testing

/// Whether Debian's Tesseract English data is installed.
enum TesseractData {
  static let english = [
    "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
    "/usr/share/tessdata",
  ].contains { FileManager.default.fileExists(atPath: $0 + "/eng.traineddata") }
}

/// The WebVTT subtitle renditions of the fMP4 HLS (issue 30) on make-subtitles.sh's Blu-ray (a
/// title of two clips in different PTS epochs, each with an English PGS stream of four captions,
/// one of them forced): the multivariant playlist's `EXT-X-MEDIA TYPE=SUBTITLES` lines, media
/// playlists aligned with the video's, segments whose cues, placed by `X-TIMESTAMP-MAP`, fall at
/// the media time of their display sets (ffprobe's PGS packets of the served stream, against the
/// `tfdt` and composition offset of the served video segment read by the tests' box reader), the
/// text drawn (the generator's manifest), ffmpeg reading the rendition through `master.m3u8`,
/// the bounded wait (503 with `Retry-After`) and the on-disk cache a restarted server reads.
@Suite(
  "disckit serve WebVTT subtitle renditions", .serialized,
  .enabled(
    if: ServerProcess.haveBinary && Curl.available && Tool.has("ffmpeg") && Tool.has("ffprobe")
      && FileManager.default.isExecutableFile(
        atPath: Fixtures.builtExecutable("disckit-subtitles"))
      && FileManager.default.fileExists(atPath: Fixtures.generated("subtitles/bluray/BDMV"))
      && TesseractData.english,
    "needs disckit-serve, disckit-subtitles, curl, ffmpeg, ffprobe, Tesseract's English data and make-subtitles.sh's output"
  ), .toolThreads)
struct ServerSubtitleHLSTests {
  /// The served folder: the Blu-ray, the DVD of the same captions, and the Blu-ray's first clip
  /// authored again with its streams in Breton (no Tesseract data unless installed).
  static func root() throws -> TemporaryDirectory {
    let dir = try TemporaryDirectory("disckit-serve-subtitles")
    try FileManager.default.copyItem(
      atPath: Fixtures.generated("subtitles/bluray"), toPath: dir.path + "/subs-bluray")
    try FileManager.default.copyItem(
      atPath: Fixtures.generated("subtitles/dvd"), toPath: dir.path + "/subs-dvd")
    let run = try ServerFixture.disckit([
      "author", "--clips", Fixtures.generated("subtitles/clips/a.ts"), "--title", "a.ts",
      "--language", "bre", "--folder", dir.path + "/subs-breton",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    return dir
  }

  /// The captions drawn, on the title timeline (clip b starts at 10 s).
  static func drawn() throws -> [(start: Double, end: Double, lines: [String], forced: Bool)] {
    var out: [(Double, Double, [String], Bool)] = []
    for (clip, offset) in [("a", 0.0), ("b", 10.0)] {
      let data = try Data(
        contentsOf: URL(fileURLWithPath: Fixtures.generated("subtitles/clips/\(clip).json")))
      let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      for caption in json["captions"] as? [[String: Any]] ?? [] {
        out.append(
          (
            (caption["start"] as? Double ?? 0) + offset, (caption["end"] as? Double ?? 0) + offset,
            caption["lines"] as? [String] ?? [], caption["forced"] as? Bool ?? false
          ))
      }
    }
    return out
  }

  /// A WebVTT segment's `MPEGTS` and cues (start and end in milliseconds, text).
  static func segment(_ text: String) -> (mpegts: Int64?, cues: [(Int64, Int64, String)]) {
    var mpegts: Int64?
    if let range = text.range(of: "X-TIMESTAMP-MAP=MPEGTS:") {
      mpegts = Int64(text[range.upperBound...].prefix { $0.isNumber })
    }
    var cues: [(Int64, Int64, String)] = []
    for block in text.components(separatedBy: "\n\n") {
      let lines = block.split(separator: "\n").map(String.init)
      guard let at = lines.firstIndex(where: { $0.contains(" --> ") }) else { continue }
      let parts = lines[at].split(separator: " ")
      guard parts.count >= 3, let a = ms(parts[0]), let b = ms(parts[2]) else { continue }
      cues.append((a, b, lines[(at + 1)...].joined(separator: "\n")))
    }
    return (mpegts, cues)
  }

  static func ms(_ text: Substring) -> Int64? {
    // HH:MM:SS.mmm or MM:SS.mmm (ffmpeg's).
    let fields = text.split(whereSeparator: { $0 == ":" || $0 == "." }).compactMap { Int64($0) }
    guard (3...4).contains(fields.count), let last = fields.last else { return nil }
    return fields.dropLast().reduce(0) { $0 * 60 + $1 } * 1000 + last
  }

  /// Edit distance over the whitespace-collapsed texts, per drawn character.
  static func errorRate(_ drawn: [String], _ read: String) -> Double {
    func words(_ text: String) -> [Character] {
      Array(text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }
    let a = words(drawn.joined(separator: " "))
    let b = words(
      read.replacingOccurrences(of: "<i>", with: "").replacingOccurrences(of: "</i>", with: ""))
    guard !a.isEmpty else { return Double(b.count) }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + [Int](repeating: 0, count: b.count)
      for j in 0..<b.count {
        current[j + 1] = min(
          previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i - 1] == b[j] ? 0 : 1))
      }
      previous = current
    }
    return Double(previous[b.count]) / Double(a.count)
  }

  /// The master playlist once every stream's text is known (it is `no-cache` until then):
  /// asked again each second while recognition runs.
  static func settledMaster(_ url: String) throws -> (String, Curl.Reply) {
    for _ in 0..<600 {
      let reply = try Curl.get(url)
      #expect(reply.status == 200, "\(url)")
      if reply.headers["cache-control"] != "no-cache" {
        return (String(decoding: reply.body, as: UTF8.self), reply)
      }
      Thread.sleep(forTimeInterval: 1)
    }
    throw DiscKitTestError("the subtitle text of \(url) was never recognised")
  }

  /// ffprobe's packets of `stream` (`v` or `s`) in `url`: PTS and, for subtitles, whether the
  /// packet starts a display set (a presentation composition segment, 0x16).
  static func packets(_ url: String, _ stream: String) throws -> [(pts: Int64, pcs: Bool)] {
    let run = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", stream, "-show_entries", "packet=pts,data", "-show_data",
        "-of", "json", url,
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    return (json["packets"] as? [[String: Any]] ?? []).compactMap { packet in
      guard let pts = (packet["pts"] as? NSNumber)?.int64Value else { return nil }
      let hex = (packet["data"] as? String)?.split(separator: ":").dropFirst().first?
        .trimmingCharacters(in: .whitespaces)
      return (pts, hex?.hasPrefix("16") == true)
    }
  }

  @Test func renditionsSegmentsAndTimes() throws {
    let dir = try Self.root()
    let cache = try TemporaryDirectory("disckit-subtitle-cache")
    let server = try ServerProcess(
      root: dir.path, ["--quiet"], environment: ["XDG_CACHE_HOME": cache.path])
    let base = server.base + "/discs/\(try ServerFixture.id(server, "subs-bluray"))/titles/00000/"
    let (master, reply) = try Self.settledMaster(base + "master.m3u8")
    #expect(reply.headers["cache-control"] == "public, max-age=86400")
    let media = master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }
      .map(ServerFMP4HLSTests.attributes)
    try #require(media.count == 2, "\(master)")
    let full = try #require(media.first { $0["FORCED"] == "NO" })
    let forced = try #require(media.first { $0["FORCED"] == "YES" })
    for rendition in media {
      #expect(rendition["GROUP-ID"] == "subs" && rendition["LANGUAGE"] == "eng")
      #expect(rendition["AUTOSELECT"] == "YES" && rendition["DEFAULT"] == "NO")
    }
    #expect(full["NAME"] != forced["NAME"])
    // Every variant names the group; the I-frame playlist does not.
    let variants = master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
    #expect(!variants.isEmpty && variants.allSatisfy { $0.contains("SUBTITLES=\"subs\"") })
    #expect(
      !master.split(separator: "\n").contains {
        $0.hasPrefix("#EXT-X-I-FRAME-STREAM-INF:") && $0.contains("SUBTITLES=")
      })

    // Media playlists aligned with the video's.
    let video = ServerFMP4HLSTests.media(try ServerFMP4HLSTests.text(base + "fmp4/video.m3u8"))
    var served: [String: [(Int64, Int64, String)]] = [:]
    var mpegts: Set<Int64> = []
    for rendition in [full, forced] {
      let uri = try #require(rendition["URI"])
      let playlist = ServerFMP4HLSTests.media(try ServerFMP4HLSTests.text(base + uri))
      #expect(playlist.target == video.target)
      #expect(playlist.segments.map(\.0) == video.segments.map(\.0))
      let folder = base + uri.split(separator: "/").dropLast().joined(separator: "/") + "/"
      var cues: [(Int64, Int64, String)] = []
      for (_, name) in playlist.segments {
        let segment = try Curl.get(folder + name)
        #expect(segment.status == 200)
        #expect(segment.headers["content-type"]?.hasPrefix("text/vtt") == true)
        let text = String(decoding: segment.body, as: UTF8.self)
        #expect(text.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:"), "\(text.prefix(80))")
        #expect(text.contains(",LOCAL:00:00:00.000\n"))
        let parsed = Self.segment(text)
        if let value = parsed.mpegts { mpegts.insert(value) }
        // A cue crossing a segment's edge is in both segments: counted once.
        for cue in parsed.cues where !cues.contains(where: { $0 == cue }) { cues.append(cue) }
        // Conditional requests.
        if let tag = segment.headers["etag"] {
          #expect(try Curl.get(folder + name, ["-H", "If-None-Match: \(tag)"]).status == 304)
        }
      }
      served[uri] = cues
    }
    #expect(mpegts.count == 1)
    let offset = try #require(mpegts.first)

    // The text drawn: every caption in the full rendition, the forced ones alone in the other.
    let drawn = try Self.drawn()
    let all = try #require(served[full["URI"] ?? ""])
    let forcedCues = try #require(served[forced["URI"] ?? ""])
    try #require(all.count == drawn.count, "\(all)")
    #expect(forcedCues.count == drawn.filter(\.forced).count)
    for (cue, caption) in zip(all, drawn) {
      #expect(Self.errorRate(caption.lines, cue.2) <= 0.05, "\(cue.2) \(caption.lines)")
    }
    for cue in forcedCues { #expect(all.contains { $0 == cue }) }

    // Times: each display set of the served stream (ffprobe's PTS, the clips' epochs joined) at
    // its media time: the first video frame's PTS is presented at the tfdt of the first video
    // segment plus its first sample's composition offset; a cue's media time is its time plus
    // MPEGTS. A cue shows at a display set and hides at the next (its clear).
    let sets = try Self.packets(base + "stream.ts", "s").filter(\.pcs).map(\.pts)
    let firstVideo = try #require(try Self.packets(base + "stream.ts", "v").first?.pts)
    let init0 = try #require(MP4Fragment(try ServerFMP4HLSTests.bytes(base + "fmp4/video-0.m4s")))
    let presented = Int64(init0.decodeTime) + Int64(init0.samples.first?.compositionOffset ?? 0)
    try #require(sets.count == 2 * all.count, "\(sets)")
    for (k, cue) in all.enumerated() {
      for (time, pts) in [(cue.0, sets[2 * k]), (cue.1, sets[2 * k + 1])] {
        let expected = pts - firstVideo + presented
        #expect(abs(time * 90 + offset - expected) <= 90, "cue \(k): \(time) ms, PTS \(pts)")
      }
    }
  }

  @Test func ffmpegReadsTheRendition() throws {
    let dir = try Self.root()
    let cache = try TemporaryDirectory("disckit-subtitle-cache")
    let server = try ServerProcess(
      root: dir.path, ["--quiet"], environment: ["XDG_CACHE_HOME": cache.path])
    let base = server.base + "/discs/\(try ServerFixture.id(server, "subs-bluray"))/titles/00000/"
    _ = try Self.settledMaster(base + "master.m3u8")
    // ffmpeg's HLS demuxer reads subtitle renditions only with `-strict experimental`; it places
    // the cues by their own times (it reads no X-TIMESTAMP-MAP), so `-copyts` keeps them as
    // served.
    let probe = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-strict", "experimental", "-show_entries",
        "stream=codec_type,codec_name:stream_tags=language",
        "-of", "json", base + "master.m3u8",
      ])
    #expect(probe.status == 0, "\(probe.stderr)")
    let streams =
      (try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any])?["streams"]
      as? [[String: Any]] ?? []
    let subtitles = streams.filter { $0["codec_type"] as? String == "subtitle" }
    #expect(subtitles.count == 2, "\(streams)")
    #expect(subtitles.allSatisfy { $0["codec_name"] as? String == "webvtt" })
    let out = try TemporaryDirectory("disckit-ffmpeg-vtt")
    let run = try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-strict", "experimental", "-copyts", "-i", base + "master.m3u8", "-map",
        "0:s:0", "-c:s", "webvtt", "-f", "webvtt", out.file("out.vtt"),
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let text = try String(contentsOfFile: out.file("out.vtt"), encoding: .utf8)
    var seen: [(Int64, Int64, String)] = []
    for cue in Self.segment(text).cues where !seen.contains(where: { $0 == cue }) {
      seen.append(cue)
    }
    // The served cues, every segment's, each once.
    let master = try ServerFMP4HLSTests.text(base + "master.m3u8")
    let uri = try #require(
      master.split(separator: "\n").first {
        $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") && $0.contains("FORCED=NO")
      }.flatMap { ServerFMP4HLSTests.attributes($0)["URI"] })
    let folder = base + uri.split(separator: "/").dropLast().joined(separator: "/") + "/"
    var served: [(Int64, Int64, String)] = []
    for (_, name) in ServerFMP4HLSTests.media(try ServerFMP4HLSTests.text(base + uri)).segments {
      for cue in Self.segment(try ServerFMP4HLSTests.text(folder + name)).cues
      where !served.contains(where: { $0 == cue }) {
        served.append(cue)
      }
    }
    let drawn = try Self.drawn()
    #expect(seen.count == served.count && seen.count == drawn.count, "\(text)")
    for (a, b) in zip(seen, served) { #expect(a == b) }
  }

  @Test func boundedWaitThenTheCache() throws {
    let dir = try Self.root()
    let cache = try TemporaryDirectory("disckit-subtitle-cache")
    var server = try ServerProcess(
      root: dir.path, ["--quiet", "--subtitle-wait", "0"],
      environment: ["XDG_CACHE_HOME": cache.path])
    var base = server.base + "/discs/\(try ServerFixture.id(server, "subs-bluray"))/titles/00000/"
    // Nothing recognised yet: the master lists the full rendition, not yet a forced one, and is
    // not to be cached; a segment is 503 with Retry-After.
    let first = try Curl.get(base + "master.m3u8")
    let text = String(decoding: first.body, as: UTF8.self)
    #expect(first.headers["cache-control"] == "no-cache")
    let media = text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }
    #expect(media.count == 1 && media[0].contains("FORCED=NO"), "\(text)")
    let uri = try #require(media.first.flatMap { ServerFMP4HLSTests.attributes($0)["URI"] })
    let segmentURL = base + uri.replacingOccurrences(of: ".m3u8", with: "-0.vtt")
    let busy = try Curl.get(segmentURL)
    #expect(busy.status == 503)
    #expect(Int(busy.headers["retry-after"] ?? "") ?? 0 >= 1)
    #expect(String(decoding: busy.body, as: UTF8.self).contains("recognised"))
    // Asked again until recognised.
    var body: Data?
    for _ in 0..<600 where body == nil {
      let reply = try Curl.get(segmentURL)
      if reply.status == 200 { body = reply.body } else { Thread.sleep(forTimeInterval: 1) }
    }
    let made = try #require(body)
    // Kept on disk: one file per stream and timeline under $XDG_CACHE_HOME/disckit/subtitles.
    let folder = cache.path + "/disckit/subtitles"
    let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
      .filter { $0.hasSuffix(".vtt") }
    try #require(files.count == 1, "\(files)")
    let stamp =
      try FileManager.default.attributesOfItem(atPath: folder + "/" + files[0])[
        .modificationDate] as? Date
    // A restarted server gets the same text from the cache (the file is not written again).
    server = try ServerProcess(
      root: dir.path, ["--quiet", "--subtitle-wait", "60"],
      environment: ["XDG_CACHE_HOME": cache.path])
    base = server.base + "/discs/\(try ServerFixture.id(server, "subs-bluray"))/titles/00000/"
    let again = try Curl.get(base + uri.replacingOccurrences(of: ".m3u8", with: "-0.vtt"))
    #expect(again.status == 200)
    #expect(again.body == made)
    #expect(
      (try FileManager.default.attributesOfItem(atPath: folder + "/" + files[0])[.modificationDate]
        as? Date) == stamp)
  }

  @Test func dvdHasNoHLSAndMissingLanguagesAreLeftOut() throws {
    let dir = try Self.root()
    let cache = try TemporaryDirectory("disckit-subtitle-cache")
    let server = try ServerProcess(
      root: dir.path, ["--quiet"], environment: ["XDG_CACHE_HOME": cache.path])
    let dvd = server.base + "/discs/\(try ServerFixture.id(server, "subs-dvd"))/titles/1/"
    let master = try Curl.get(dvd + "master.m3u8")
    #expect(master.status == 404)
    #expect(String(decoding: master.body, as: UTF8.self).contains("program stream"))
    #expect(try Curl.get(dvd + "subtitles/32.m3u8").status == 404)
    // A stream whose language has no Tesseract data: left out, the reason in the playlist.
    guard
      !FileManager.default.fileExists(atPath: "/usr/share/tesseract-ocr/5/tessdata/bre.traineddata")
    else { return }
    let breton = server.base + "/discs/\(try ServerFixture.id(server, "subs-breton"))/titles/00000/"
    let text = try ServerFMP4HLSTests.text(breton + "master.m3u8")
    #expect(!text.contains("TYPE=SUBTITLES") && !text.contains("SUBTITLES=\""), "\(text)")
    #expect(text.contains("left out") && text.contains("tesseract-ocr-bre"), "\(text)")
    #expect(try Curl.get(breton + "subtitles/4608.m3u8").status == 404)
  }
}
