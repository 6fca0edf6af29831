import DiscKitTestSupport
import Foundation
import Testing

/// `disckit extract --chapters A-B` on both kinds, on the multi-epoch discs of
/// TestImages/scripts/make-epochs.sh (bd-epochs title 1: three clips in three epochs, a chapter
/// every 2 s; dvd-epochs title 1: cells of 4 s, 3 s and 3 s, a chapter per cell), judged by
/// ffprobe against the script's times.
@Suite("extract --chapters", .toolThreads)
struct ChapterRangeCLITests {
  static let ready =
    TimelineCLITests.ready && FileManager.default.fileExists(atPath: TimelineCLITests.dvd)

  /// The video packets' PTS (90 kHz) as ffprobe reads them.
  static func videoPTS(_ path: String) throws -> [Int64] {
    let r = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0",
        path,
      ])
    #expect(r.status == 0, "\(r.stderr)")
    return r.text.split(whereSeparator: \.isNewline).compactMap {
      $0.split(separator: ",").first.flatMap { Int64($0) }
    }
  }

  /// Chapters 2-3 start `offset` seconds into the title and play `seconds`, on the title's
  /// continuous timeline (no jumps, the whole title's timestamps); on the original timeline they
  /// are as many bytes.
  @Test(
    .enabled(if: ready, "needs the built disckit, ffprobe and make-epochs.sh output"),
    arguments: [
      (TimelineCLITests.disc, "--playlist", "00000", 2.0, 4.0),
      (TimelineCLITests.dvd, "--title", "1", 4.0, 6.0),
    ])
  func chapterRangeIsItsPartOfTheTitlesTimeline(
    _ source: String, _ option: String, _ value: String, _ offset: Double, _ seconds: Double
  ) throws {
    let dir = try TemporaryDirectory("chapters-cli")
    func extract(_ name: String, _ extra: [String]) throws -> String {
      let path = dir.file(name)
      let r = try EndToEndTests.disckit(["extract", source, option, value, "-o", path] + extra)
      #expect(r.status == 0, "\(r.stderr)")
      return path
    }
    let whole = try Self.videoPTS(try extract("whole", []))
    let partPath = try extract("part", ["--chapters", "2-3"])
    let part = try Self.videoPTS(partPath)
    let titleStart = try #require(whole.min())
    let first = try #require(part.min())
    let last = try #require(part.max())
    let frame = 3600.0  // 25 fps on both discs
    #expect(
      abs(Double(first - titleStart) - offset * 90000) < frame / 2,
      "chapter 2 at \(Double(first - titleStart) / 90000) s into the title")
    #expect(
      abs(Double(last - first) + frame - seconds * 90000) < frame * 3,
      "chapters 2-3 play \((Double(last - first) + frame) / 90000) s")
    #expect(try !TimelineCLITests.jumps(partPath))
    let original = try extract("original", ["--chapters", "2-3", "--timeline", "original"])
    let a = try FileManager.default.attributesOfItem(atPath: partPath)[.size] as? Int
    let b = try FileManager.default.attributesOfItem(atPath: original)[.size] as? Int
    #expect(a == b)
    let beyond = try EndToEndTests.disckit([
      "extract", source, option, value, "--chapters", "2-99", "-o", dir.file("none"),
    ])
    #expect(beyond.status == 64 || beyond.status == 65, "\(beyond.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.file("none")))
  }
}
