@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitTestSupport
import Foundation
import Testing

/// Episode discs over real streams made by ffmpeg (160x120, 5 fps, a key frame a second, AC-3),
/// for the tests that decode episode outputs (M2TS, Matroska).
extension EpisodeDiscs {
  /// A stream of `seconds` seconds (PTS from `offsetSeconds`), with its key frames.
  package static func stream(
    seconds: Int, offsetSeconds: Int, in dir: TemporaryDirectory, name: String
  )
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
    return try FFmpegTwoClipBluray.Stream(walking: path)
  }

  /// The video frames' MD5s of a file, in presentation order.
  package static func frames(_ path: String) throws -> [String] {
    let result = try Tool.run(
      "ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
    #expect(result.status == 0, "\(result.stderr)")
    return result.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
      $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  /// One clip of three episodes of `episode` seconds (chapters at each start and 100 s into it)
  /// in playlist 00020, started by the menu at marks 0, 2 and 4; with the clip's video frames.
  package static func ffmpegChapterDisc(episode: Int) throws -> (SyntheticBluray, [String]) {
    let disc = try SyntheticBluray()
    let s = try stream(seconds: 3 * episode, offsetSeconds: 0, in: disc.directory, name: "all.m2ts")
    try disc.write("BDMV/STREAM/00301.m2ts", s.bytes)
    try disc.clip("00301", FFmpegTwoClipBluray.clipInformation(s))
    let start = s.keyFrames[0].pts45k
    let item = PlayItem(
      clips: [PlayItemClip(clipID: "00301")], inTime: start,
      outTime: start + UInt32(3 * episode) * 45_000, streams: FFmpegTwoClipBluray.streams())
    let marks = [0, 100, episode, episode + 100, 2 * episode, 2 * episode + 100].map {
      PlaylistMark(playItemRef: 0, time: start + UInt32($0) * 45_000)
    }
    try disc.playlist(20, MoviePlaylist(playItems: [item], marks: marks))
    try menu(disc, marks: [0, 2, 4], playlist: 20)
    return (disc, try frames(disc.directory.file("all.m2ts")))
  }

  /// The menu of ``EpisodeDiscs``: buttons setting GPR2 to `marks` and jumping to title 1, which
  /// plays `PlayPLatMK playlist GPR2`.
  package static func menu(_ disc: SyntheticBluray, marks: [Int], playlist: Int) throws {
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
