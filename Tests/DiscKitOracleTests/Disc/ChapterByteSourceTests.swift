@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// `DiscTitle.byteSource(timeline:chapters:)` on the two-clip title of
/// ``FFmpegTwoClipBluray/make()`` (chapters at both items' in-times and 4 s into the first;
/// the second item is non-seamless, so its range starts after its clip's first PSI packets).
/// The chapter starts as ffprobe reads them and the DVD chapter ranges (no C library) are in
/// DiscKitAuthoringTests' and DiscKitTests' suites of the same name.
@Suite("Chapter ranges of a title's bytes", .toolThreads)
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
}
