@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// `DiscTitle.byteSource(timeline:chapters:)` on the two-clip title of
/// ``FFmpegTwoClipBluray/make()`` (chapters at both items' in-times and 4 s into the first;
/// the second item is non-seamless, so its range starts after its clip's first PSI packets).
/// The DVD chapter ranges (no C library) are in DiscKitTests' suite of the same name.
@Suite("Chapter ranges of a title's bytes")
struct ChapterByteSourceTests {
  /// libbluray's `bd_read` after `bd_seek_chapter(A - 1)`, up to chapter B + 1's offset (the
  /// title's end after the last chapter), and the original-timeline cut: the same bytes (up to
  /// the packets libbluray wipes).
  @Test(.enabled(if: Tool.has("ffmpeg"), "needs ffmpeg"))
  func originalTimelineIsWhatLibblurayReadsAfterSeekingToTheChapter() throws {
    let (made, _, _) = try FFmpegTwoClipBluray.make()
    let title = try Disc.open(path: made.path).title(key: "00001")
    let bd = try Reference.Bluray(path: made.path)
    let info = try #require(bd.playlistInfo(1))
    #expect(info.chapters.count == 3)
    for range in [1...3, 1...1, 2...2, 2...3, 3...3] {
      #expect(bd.selectPlaylist(1))
      #expect(bd.seekChapter(range.lowerBound - 1) >= 0)
      var theirs: [UInt8] = []
      _ = bd.readToEnd { theirs += $0 }
      // Positions of what was read, as libbluray reports them (bd_tell).
      let first = Int64(bd.position) - Int64(theirs.count)
      let end =
        range.upperBound < info.chapters.count
        ? Int64(info.chapters[range.upperBound].offset) : Int64(bd.titleSize)
      let expected = Array(theirs[0..<Int(end - first)])
      let ours = try FFmpegTwoClipBluray.readAll(
        try title.byteSource(timeline: .original, chapters: range), chunk: 100_003)
      #expect(
        BlurayExtractionTests.equalAfterNormalising(ours: ours, libbluray: expected),
        "chapters \(range): \(ours.count) bytes, libbluray \(expected.count)")
    }
    #expect(throws: DiscKitError.self) {
      try title.byteSource(timeline: .original, chapters: 3...4)
    }
    #expect(throws: DiscKitError.self) {
      try title.byteSource(timeline: .original, chapters: 0...1)
    }
  }

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
