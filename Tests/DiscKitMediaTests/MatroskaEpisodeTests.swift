@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitMedia
import DiscKitTestSupport
import Foundation
import Testing

/// An episode cut from a long clip, written as Matroska (`disckit extract --episode N -o e.mkv`):
/// mkvmerge and ffprobe read its length and chapters from 0, ffmpeg decodes it without a warning,
/// and its video frames are the clip's frames of the episode's range.
@Suite(
  "Episodes as Matroska", .enabled(if: MatroskaOracle.available, "needs mkvmerge, ffprobe, ffmpeg"), .toolThreads)
struct MatroskaEpisodeTests {
  @Test func eachEpisodeIsItsRange() throws {
    let episode = 310
    let (written, frames) = try EpisodeDiscs.ffmpegChapterDisc(episode: episode)
    let disc = try Disc.open(path: written.path)
    let titles = try disc.episodes()
    #expect(titles.count == 3)
    for (k, title) in titles.enumerated() {
      let path = written.directory.file("e\(k + 1).mkv")
      try MatroskaWriter.write(try MatroskaTitle(title: title), toPath: path, overwrite: false)
      let oracle = try MatroskaOracle.read(path)
      #expect(abs(oracle.duration - Double(episode)) < 0.5, "episode \(k + 1): \(oracle.duration)")
      #expect(oracle.chapterCount == 2)
      #expect(oracle.chapterStarts.first.map { abs($0) < 0.001 } == true)
      // (The second chapter moves with its pictures by the file's lead, see MatroskaOracle.lead.)
      let second = MatroskaOracle.chapterStart(100, lead: try MatroskaOracle.lead(path))
      #expect(oracle.chapterStarts.count == 2 && abs(oracle.chapterStarts[1] - second) < 0.001)
      let decode = try Tool.run("ffmpeg", ["-v", "warning", "-i", path, "-f", "null", "-"])
      #expect(decode.stderr.isEmpty, "episode \(k + 1): \(decode.stderr)")
      let got = try EpisodeDiscs.frames(path)
      let from = k * episode * 5
      #expect(
        got == Array(frames[from..<min(frames.count, from + episode * 5)]), "episode \(k + 1)")
    }
  }
}
