@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// `DiscTitle.byteSource(timeline:chapters:)` on the DVD of TestImages/scripts/make-epochs.sh.
/// (The Blu-ray chapter ranges against libbluray and ffprobe are in DiscKitOracleTests' suite of
/// the same name.)
@Suite("Chapter ranges of a title's bytes", .toolThreads)
struct ChapterByteSourceTests {
  /// A DVD's chapter range on the original timeline is the chapters' cells
  /// (``DVDDisc/byteSource(title:angle:chapters:)``, checked against libdvdread elsewhere), and on
  /// the continuous timeline the same range of the whole title's continuous bytes.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: Fixtures.generated("epochs/dvd-epochs.iso")),
      "run TestImages/scripts/make-all.sh"))
  func dvdChapterRangeIsACutOfTheTitle() throws {
    let disc = try Disc.open(path: Fixtures.generated("epochs/dvd-epochs.iso"))
    var found: DVDDisc?
    if case .dvd(let dvd) = disc.navigation { found = dvd }
    let dvd = try #require(found, "a DVD")
    let title = try disc.title(key: "1")
    for range in [1...1, 2...3, 3...3, 1...3] {
      let cells = try dvd.byteSource(title: 1, chapters: range)
      let ours = try title.byteSource(timeline: .original, chapters: range)
      #expect(
        try ours.bytes(at: 0, count: Int(ours.size)) == cells.bytes(at: 0, count: Int(cells.size)))
      let whole = try dvd.byteSource(title: 1)
      let continuous = try title.byteSource(timeline: .continuous, chapters: range)
      let all = try title.byteSource(timeline: .continuous)
      let start = try #require(
        (0..<whole.cellStarts.count).first {
          (try? whole.bytes(at: whole.cellStarts[$0], count: 2048))
            == (try? cells.bytes(at: 0, count: 2048))
        }.map { whole.cellStarts[$0] })
      #expect(
        try continuous.bytes(at: 0, count: Int(continuous.size))
          == all.bytes(at: start, count: Int(continuous.size)))
    }
  }
}
