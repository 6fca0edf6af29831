@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// `DiscTitle.byteSource(timeline:chapters:)` on the two-clip title of
/// ``FFmpegTwoClipBluray/make()``, judged by ffprobe. (The ranges against libbluray's reads are
/// in DiscKitOracleTests' suite of the same name.)
@Suite("Chapter ranges of a title's bytes", .toolThreads)
struct ChapterByteSourceTests {
  /// A chapter of the second item, as ffprobe reads it: on the original timeline it starts at the
  /// key frame its entry mark's EP-map entry names (2 s into clip B); on the continuous timeline
  /// at the whole title's first picture from the chapter's title time on (title time = its item's
  /// title start + `base`, the first item's in-time; pictures before the item's in-time are
  /// wiped, as libbluray's m2ts filter does), from the times the test wrote.
  @Test(.enabled(if: Tool.has("ffmpeg") && Tool.has("ffprobe"), "needs ffmpeg and ffprobe"))
  func chapterStartsWhereTheWholeTitlePlaysIt() throws {
    let (made, a, b) = try FFmpegTwoClipBluray.make()
    let title = try Disc.open(path: made.path).title(key: "00001")
    func videoPTS(_ source: any ByteSource, _ name: String) throws -> [Int64] {
      let path = made.directory.file(name)
      try Data(try FFmpegTwoClipBluray.readAll(source, chunk: 1 << 20)).write(
        to: URL(fileURLWithPath: path))
      let probe = try Tool.run(
        "ffprobe",
        [
          "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0",
          path,
        ])
      #expect(probe.status == 0, "\(probe.stderr)")
      return probe.text.split(whereSeparator: \.isNewline).compactMap {
        $0.split(separator: ",").first.flatMap { Int64($0) }
      }
    }
    let original = try #require(
      try videoPTS(try title.byteSource(timeline: .original, chapters: 3...3), "o.m2ts").min())
    #expect(abs(original - Int64(b.keyFrames[2].pts45k) * 2) <= 2)
    let inA = Int64(a.keyFrames[0].pts45k)
    let startB = Int64(a.lastPTS45k) + 1800 - inA
    let chapterTime = (inA + startB) * 2
    let whole = try videoPTS(try title.byteSource(timeline: .continuous), "w.m2ts")
    let expected = try #require(whole.filter { $0 >= chapterTime - 2 }.min())
    let continuous = try #require(
      try videoPTS(try title.byteSource(timeline: .continuous, chapters: 3...3), "c.m2ts").min())
    #expect(continuous == expected, "chapter 3 from \(continuous), title plays it from \(expected)")
  }
}
