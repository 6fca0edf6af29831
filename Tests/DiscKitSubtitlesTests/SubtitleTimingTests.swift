@_spi(Formats) import DiscKit
import DiscKitOutput
import DiscKitReference
import DiscKitSubtitles
import DiscKitTestSupport
import Foundation
import Testing

/// Cue times on the title timeline against independent readers: ffprobe's subtitle packets of
/// the disc's own clips (Blu-ray) with libbluray's clip start, in and out times, and ffprobe's
/// decoded subpictures of the continuous program stream (DVD). Discs from make-subtitles.sh: a
/// Blu-ray title of two clips in different PTS epochs, a DVD title of two VOBs.
@Suite("Subtitle timing", .toolThreads)
struct SubtitleTimingTests {
  /// The PTS (90 kHz) of the subtitle packets ffprobe reads in `file` that start a display set
  /// (their first byte is a presentation composition segment, 0x16).
  static func subtitlePTS(_ file: String) throws -> [Int64] {
    let run = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "s", "-show_entries", "packet=pts,data", "-show_data",
        "-of", "json", file,
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    var out: [Int64] = []
    for packet in json["packets"] as? [[String: Any]] ?? [] {
      guard let pts = (packet["pts"] as? NSNumber)?.int64Value,
        let data = packet["data"] as? String
      else { continue }
      // "\n00000000: 1600 ..." : the first byte's two hex digits.
      let hex = data.split(separator: ":").dropFirst().first?.trimmingCharacters(in: .whitespaces)
      if hex?.hasPrefix("16") == true { out.append(pts) }
    }
    return out
  }

  static func ms(_ ticks: Int64) -> Int64 { (ticks + 45) / 90 }

  @Test(
    "a damaged PGS packet on a disc: its display set is skipped and reported, the others decode",
    .enabled(if: SubtitleFixtures.present && Tool.has("ffprobe"), SubtitleFixtures.missing))
  func aDamagedSegmentIsSkippedAndReported() throws {
    let dir = try TemporaryDirectory("disckit-subtitles-damaged")
    let folder = dir.path + "/bluray"
    try FileManager.default.copyItem(atPath: SubtitleFixtures.path("bluray"), toPath: folder)
    let reference = try Reference.Bluray(path: folder)
    let first = try #require(
      reference.playlistInfo(Int(try Disc.open(path: folder).title(number: 1).key) ?? 0)?.clips
        .first)
    let file = folder + "/BDMV/STREAM/" + first.clipID + ".m2ts"
    // ffprobe's second subtitle packet that starts a display set (a PCS, 0x16): its position and
    // PTS.
    let run = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "s", "-show_entries", "packet=pts,pos,data",
        "-show_data", "-of", "json", file,
      ])
    let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    let starts = (json["packets"] as? [[String: Any]] ?? []).filter {
      ($0["data"] as? String)?.split(separator: ":").dropFirst().first?
        .trimmingCharacters(in: .whitespaces).hasPrefix("16") == true
    }
    try #require(starts.count >= 2)
    let pts = try #require((starts[1]["pts"] as? NSNumber)?.int64Value)
    let pos = try #require(Int(starts[1]["pos"] as? String ?? ""))
    // Its PCS's length (payload bytes 1-2, after the TS and PES headers) made 0xFFFF: the
    // segment runs past its packet.
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
    let sync = bytes[pos] == 0x47 ? pos : pos + 4
    try #require(bytes[sync] == 0x47 && bytes[sync + 1] & 0x40 != 0)
    var at = sync + 4
    if bytes[sync + 3] & 0x20 != 0 { at += 1 + Int(bytes[sync + 4]) }
    try #require(Array(bytes[at..<(at + 4)]) == [0, 0, 1, 0xBD])
    let payload = at + 9 + Int(bytes[at + 8])
    try #require(bytes[payload] == 0x16)
    bytes[payload + 1] = 0xFF
    bytes[payload + 2] = 0xFF
    try Data(bytes).write(to: URL(fileURLWithPath: file))

    let title = try Disc.open(path: folder).title(number: 1)
    let stream = try #require(SubtitleStreamInfo.streams(of: title).first)
    var skipped: [DiscKitError] = []
    let damaged = try SubtitleRecognizer.events(of: title, stream: stream, timeline: .original) {
      skipped.append($0)
    }
    try #require(skipped.count == 1, "\(skipped)")
    #expect(skipped[0].code == .truncated && skipped[0].structure == "PGS segment")
    // The display set at ffprobe's PTS is gone, every other one is there.
    let intactTitle = try Disc.open(path: SubtitleFixtures.path("bluray")).title(number: 1)
    let intact = try SubtitleRecognizer.events(
      of: intactTitle, stream: stream, timeline: .original)
    let lost = try #require(intact.first { $0.event.pts90k == pts })
    #expect(damaged == intact.filter { $0 != lost })
    // The error names the packet the lost display set came from.
    #expect(skipped[0].offset == lost.event.offset)
    // `extract --subtitles` says so on stderr and writes the other captions.
    guard SubtitleExtractionTests.ready, TesseractLanguage.isInstalled("eng") else { return }
    let out = dir.path + "/vtt"
    let extract = try Tool.run(
      SubtitleExtractionTests.disckit,
      ["extract", folder, "--title", "1", "--subtitles", "vtt", "-o", out])
    #expect(extract.status == 0, "\(extract.stderr)")
    #expect(
      extract.stderr.contains(
        "subtitle stream 1: skipped 1 malformed part(s), the first: PGS segment at byte"),
      "\(extract.stderr)")
    // The server's helper (`hls-cues`, through the subtitle cache) says so on stderr when it
    // recognises the stream, and succeeds; from the cache it has nothing more to say.
    let helper = Fixtures.builtExecutable("disckit-subtitles")
    let arguments = ["hls-cues", folder, title.key, "1", String(stream.id)]
    let cache = ["XDG_CACHE_HOME": dir.path + "/cache"]
    let recognised = try Tool.run(helper, arguments, environment: cache)
    #expect(recognised.status == 0, "\(recognised.stderr)")
    #expect(recognised.text.hasPrefix("WEBVTT"))
    #expect(
      recognised.stderr.contains(
        "subtitle stream 1: skipped 1 malformed part(s), the first: PGS segment at byte"),
      "\(recognised.stderr)")
    let cached = try Tool.run(helper, arguments, environment: cache)
    #expect(cached.status == 0 && cached.stderr.isEmpty && cached.stdout == recognised.stdout)
  }

  @Test(
    "Blu-ray display sets across a clip join: libbluray's clip times + ffprobe's packet PTS",
    .enabled(if: SubtitleFixtures.present && Tool.has("ffprobe"), SubtitleFixtures.missing))
  func blurayAcrossJoin() throws {
    let folder = SubtitleFixtures.path("bluray")
    let disc = try Disc.open(path: folder)
    let title = try disc.title(number: 1)
    let streams = SubtitleStreamInfo.streams(of: title)
    let stream = try #require(streams.first)
    #expect(streams.count == 1 && stream.coding == .pgs && stream.language == "eng")
    let reference = try Reference.Bluray(path: folder)
    let info = try #require(reference.playlistInfo(Int(title.key) ?? 0))
    try #require(info.clips.count == 2)
    var expected: [Int64] = []
    for clip in info.clips {
      let file = folder + "/BDMV/STREAM/" + clip.clipID + ".m2ts"
      for pts in try Self.subtitlePTS(file)
      where UInt64(pts) >= clip.inTime90k && UInt64(pts) < clip.outTime90k {
        expected.append(Int64(clip.startTime90k) + pts - Int64(clip.inTime90k))
      }
    }
    #expect(expected.count == 16)  // 8 captions, each a display set and its clear
    // ffmpeg's PGS stream is well formed: nothing is skipped.
    var skipped: [DiscKitError] = []
    let original = try SubtitleRecognizer.events(
      of: title, stream: stream, timeline: .original
    ) { skipped.append($0) }
    #expect(skipped == [])
    #expect(original.map { Self.ms($0.start90k) } == expected.map(Self.ms))

    // The continuous timeline: ffprobe's PTS in the continuous bytes, from the first item's
    // in-time.
    let dir = try TemporaryDirectory()
    let file = dir.file("title.m2ts")
    let sink = try AtomicFileWriter(destination: file, overwrite: true)
    try title.byteSource(timeline: .continuous).copy(to: sink) { _ in }
    try sink.commit()
    let base = Int64(info.clips[0].inTime90k)
    let continuousExpected = try Self.subtitlePTS(file).map { $0 - base }
    let continuous = try SubtitleRecognizer.events(
      of: title, stream: stream, timeline: .continuous)
    #expect(continuous.map { Self.ms($0.start90k) } == continuousExpected.map(Self.ms))
    #expect(continuous.map(\.start90k) == original.map(\.start90k))
  }

  @Test(
    "DVD subpictures across two VOBs: ffprobe's decoded show and hide times",
    .enabled(if: SubtitleFixtures.present && Tool.has("ffprobe"), SubtitleFixtures.missing))
  func dvdAcrossCells() throws {
    let disc = try Disc.open(path: SubtitleFixtures.path("dvd"))
    let title = try disc.title(number: 1)
    let stream = try #require(SubtitleStreamInfo.streams(of: title).first)
    #expect(stream.coding == .dvdSubpicture && stream.id == 0x20)
    let dir = try TemporaryDirectory()
    let file = dir.file("title.mpg")
    let sink = try AtomicFileWriter(destination: file, overwrite: true)
    try title.byteSource(timeline: .continuous).copy(to: sink) { _ in }
    try sink.commit()
    // ffprobe's subtitle frames: pts (microseconds) and the display delays (milliseconds).
    let run = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-show_entries",
        "subtitle=pts,start_display_time,end_display_time:stream=codec_type,start_time",
        "-show_frames", "-of", "json", file,
      ])
    let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    let frames = (json["frames"] as? [[String: Any]] ?? []).filter {
      $0["start_display_time"] != nil
    }
    let streams = json["streams"] as? [[String: Any]] ?? []
    let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
    let videoStart = try #require(Double(video["start_time"] as? String ?? ""))
    var expected: [(Int64, Int64)] = []
    for f in frames {
      guard let pts = (f["pts"] as? NSNumber)?.int64Value,
        let show = (f["start_display_time"] as? NSNumber)?.int64Value,
        let hide = (f["end_display_time"] as? NSNumber)?.int64Value
      else { continue }
      let base = pts / 1000 - Int64((videoStart * 1000).rounded())
      expected.append((base + show, base + hide))
    }
    #expect(expected.count == 8)
    // spumux's subpicture units are well formed: nothing is skipped.
    var skipped: [DiscKitError] = []
    let events = try SubtitleRecognizer.events(
      of: title, stream: stream, timeline: .continuous
    ) { skipped.append($0) }
    #expect(skipped == [])
    let got = events.map { (Self.ms($0.start90k), Self.ms($0.end90k ?? -1)) }
    #expect(got.count == expected.count)
    for (a, b) in zip(got, expected) {
      #expect(abs(a.0 - b.0) <= 1 && abs(a.1 - b.1) <= 1, "\(a) vs ffprobe \(b)")
    }
    // The second VOB's captions come after the first's, 2 s apart within each VOB.
    #expect(zip(got, got.dropFirst()).allSatisfy { $0.0 < $1.0 })
    let original = try SubtitleRecognizer.events(of: title, stream: stream, timeline: .original)
    #expect(original.count == events.count)
    #expect(original.prefix(4).map(\.start90k) == events.prefix(4).map(\.start90k))
  }
}
