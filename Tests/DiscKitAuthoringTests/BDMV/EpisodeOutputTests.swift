@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// Every episode's bytes against ffmpeg: a clip made by ffmpeg (160x120, 5 fps, a key frame a
/// second, AC-3) holding three episodes of 310 s, which the menu starts at marks (`PlayPLatMK`
/// through GPR2 and a title), and a play-all of three such clips with no episode playlists.
/// For each episode, on both timelines: `ffmpeg -v warning -f null` prints nothing, and its video
/// frames (`framemd5`) are the source clip's frames of its range, in order, none missing.
@Suite(
  "Episode outputs decode to their range's frames",
  .enabled(if: Tool.has("ffmpeg"), "needs ffmpeg"))
struct EpisodeOutputTests {
  static let episode = 310

  /// A stream of `seconds` seconds (PTS from `offsetSeconds`), with its key frames.
  static func stream(seconds: Int, offsetSeconds: Int, in dir: TemporaryDirectory, name: String)
    throws -> FFmpegTwoClipBluray.Stream
  {
    let path = dir.file(name)
    let result = try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=5", "-f", "lavfi",
        "-i", "sine=frequency=440:sample_rate=48000", "-t", "\(seconds)", "-c:v", "libx264",
        "-preset", "ultrafast", "-g", "5", "-keyint_min", "5", "-sc_threshold", "0", "-bf", "0",
        "-pix_fmt", "yuv420p", "-c:a", "ac3", "-b:a", "64k", "-output_ts_offset",
        "\(offsetSeconds)", "-f", "mpegts", "-mpegts_m2ts_mode", "1", path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    // The key frames, found by FFmpegTwoClipBluray's independent walk.
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var keys: [(pts45k: UInt32, spn: UInt32)] = []
    var last: UInt32 = 0
    for i in 0..<bytes.count / 192 {
      let p = i * 192 + 4
      let pid = Int(bytes[p + 1] & 0x1F) << 8 | Int(bytes[p + 2])
      guard pid == 0x1011, bytes[p + 1] & 0x40 != 0 else { continue }
      var payload = p + 4
      var rai = false
      if bytes[p + 3] & 0x20 != 0 {
        let length = Int(bytes[p + 4])
        rai = length > 0 && bytes[p + 5] & 0x40 != 0
        payload += 1 + length
      }
      guard bytes[payload] == 0, bytes[payload + 1] == 0, bytes[payload + 2] == 1,
        bytes[payload + 7] & 0x80 != 0
      else { continue }
      let b = bytes[(payload + 9)...(payload + 13)].map(UInt64.init)
      let pts = (b[0] >> 1 & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1
      last = max(last, UInt32(pts / 2))
      if rai { keys.append((UInt32(pts / 2), UInt32(i))) }
    }
    return FFmpegTwoClipBluray.Stream(bytes: bytes, keyFrames: keys, lastPTS45k: last)
  }

  /// The video frames' MD5s of a file, in presentation order.
  static func frames(_ path: String) throws -> [String] {
    let result = try Tool.run(
      "ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
    #expect(result.status == 0, "\(result.stderr)")
    return result.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
      $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  /// Writes each episode on both timelines, decodes it, and compares its frames with `source`'s
  /// frames from `firstFrame[k]`.
  static func check(
    _ disc: Disc, _ dir: TemporaryDirectory, sources: [Int: [String]], firstFrame: [Int]
  ) throws {
    let list = try disc.episodeList()
    #expect(list.episodes.count == 3, "\(list.reason)")
    for (k, episode) in list.episodes.enumerated() {
      let title = try disc.title(key: episode.titleKey)
      for timeline in [TitleTimeline.original, .continuous] {
        let path = dir.file("e\(episode.number)-\(timeline).m2ts")
        try FileManager.default.createFile(
          atPath: path,
          contents: Data(
            FFmpegTwoClipBluray.readAll(try title.byteSource(timeline: timeline), chunk: 1 << 20)))
        let decode = try Tool.run("ffmpeg", ["-v", "warning", "-i", path, "-f", "null", "-"])
        #expect(decode.stderr.isEmpty, "episode \(episode.number) \(timeline): \(decode.stderr)")
        let got = try frames(path)
        let source = try #require(sources[k])
        let from = firstFrame[k]
        let count = episode.duration90k * 5 / 90_000
        #expect(Int64(got.count) == count, "episode \(episode.number) \(timeline)")
        #expect(
          Array(got.prefix(Int(count)))
            == Array(source[from..<min(source.count, from + Int(count))]),
          "episode \(episode.number) \(timeline): the range's frames")
      }
    }
  }

  @Test("three episodes in one clip, started by the menu at marks")
  func chapterRanges() throws {
    let disc = try SyntheticBluray()
    let s = try Self.stream(
      seconds: 3 * Self.episode, offsetSeconds: 0, in: disc.directory, name: "all.m2ts")
    try disc.write("BDMV/STREAM/00301.m2ts", s.bytes)
    try disc.clip("00301", FFmpegTwoClipBluray.clipInformation(s))
    let start = s.keyFrames[0].pts45k
    let item = PlayItem(
      clips: [PlayItemClip(clipID: "00301")], inTime: start,
      outTime: start + UInt32(3 * Self.episode) * 45_000, streams: FFmpegTwoClipBluray.streams())
    // Chapters at each episode's start and 100 s into it.
    let marks = [0, 100, 310, 410, 620, 720].map {
      PlaylistMark(playItemRef: 0, time: start + UInt32($0) * 45_000)
    }
    try disc.playlist(20, MoviePlaylist(playItems: [item], marks: marks))
    try Self.menu(disc, marks: [0, 2, 4], playlist: 20)
    let frames = try Self.frames(disc.directory.file("all.m2ts"))
    try Self.check(
      try Disc.open(path: disc.path), disc.directory, sources: [0: frames, 1: frames, 2: frames],
      firstFrame: [0, Self.episode * 5, 2 * Self.episode * 5])
  }

  @Test("a play-all of three episode clips, no episode playlists")
  func playAllItems() throws {
    let disc = try SyntheticBluray()
    var items: [PlayItem] = []
    var sources: [Int: [String]] = [:]
    for k in 0..<3 {
      let name = "ep\(k).m2ts"
      let s = try Self.stream(
        seconds: Self.episode, offsetSeconds: 1000 * k, in: disc.directory, name: name)
      let id = "0020\(k + 1)"
      try disc.write("BDMV/STREAM/\(id).m2ts", s.bytes)
      try disc.clip(id, FFmpegTwoClipBluray.clipInformation(s))
      items.append(
        PlayItem(
          clips: [PlayItemClip(clipID: id)], connectionCondition: 1, inTime: s.keyFrames[0].pts45k,
          outTime: s.keyFrames[0].pts45k + UInt32(Self.episode) * 45_000,
          streams: FFmpegTwoClipBluray.streams()))
      sources[k] = try Self.frames(disc.directory.file(name))
    }
    let marks = items.indices.map { PlaylistMark(playItemRef: UInt16($0), time: items[$0].inTime) }
    try disc.playlist(10, MoviePlaylist(playItems: items, marks: marks))
    try disc.navigation(plays: [[10]])
    try Self.check(
      try Disc.open(path: disc.path), disc.directory, sources: sources, firstFrame: [0, 0, 0])
  }

  /// The menu of ``EpisodeDiscs``: buttons setting GPR2 to `marks` and jumping to title 1, which
  /// plays `PlayPLatMK playlist GPR2`.
  static func menu(_ disc: SyntheticBluray, marks: [Int], playlist: Int) throws {
    try disc.clip("00050", SyntheticBluray.clipInfo(seconds: 32, packetsPerSecond: 1))
    var stn = SyntheticBluray.standardStreams
    stn.interactiveGraphics = [PlaylistStream(pid: 0x1400, codingType: 0x91, language: "eng")]
    var item = SyntheticBluray.item("00050", from: 0, to: 32)
    item.streams = stn
    try disc.playlist(EpisodeDiscs.menuPlaylist, MoviePlaylist(playItems: [item]))
    let buttons: [[NavigationCommand]] = marks.map {
      [.set(.move, .gpr(2), .immediate(UInt32($0))), .jumpTitle(.immediate(1))]
    }
    try disc.write("BDMV/STREAM/00050.m2ts", EpisodeDiscs.menuStream(buttons))
    try BlurayScenarioDiscs.navigation(
      disc,
      [
        [.jumpTitle(.immediate(0))],
        [.playPlaylist(.immediate(UInt32(EpisodeDiscs.menuPlaylist))), .goto(.immediate(0))],
        [.playPlaylist(.immediate(UInt32(playlist)), mark: .gpr(2)), .jumpTitle(.immediate(0))],
      ], titleObjects: [2])
  }
}
