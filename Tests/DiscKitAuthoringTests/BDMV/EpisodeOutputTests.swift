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
  .enabled(if: Tool.has("ffmpeg"), "needs ffmpeg"), .toolThreads)
struct EpisodeOutputTests {
  static let episode = 310

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
        let got = try EpisodeDiscs.frames(path)
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
    let (disc, frames) = try EpisodeDiscs.ffmpegChapterDisc(episode: Self.episode)
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
      let s = try EpisodeDiscs.stream(
        seconds: Self.episode, offsetSeconds: 1000 * k, in: disc.directory, name: name)
      let id = "0020\(k + 1)"
      try disc.write("BDMV/STREAM/\(id).m2ts", s.bytes)
      try disc.clip(id, FFmpegTwoClipBluray.clipInformation(s))
      items.append(
        PlayItem(
          clips: [PlayItemClip(clipID: id)], connectionCondition: 1, inTime: s.keyFrames[0].pts45k,
          outTime: s.keyFrames[0].pts45k + UInt32(Self.episode) * 45_000,
          streams: FFmpegTwoClipBluray.streams()))
      sources[k] = try EpisodeDiscs.frames(disc.directory.file(name))
    }
    let marks = items.indices.map { PlaylistMark(playItemRef: UInt16($0), time: items[$0].inTime) }
    try disc.playlist(10, MoviePlaylist(playItems: items, marks: marks))
    try disc.navigation(plays: [[10]])
    try Self.check(
      try Disc.open(path: disc.path), disc.directory, sources: sources, firstFrame: [0, 0, 0])
  }

}
