import DiscKit
import DiscKitMedia
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// `MatroskaTitle.chapters(_:)` (`extract --chapters A-B --format mkv`) checked against the
/// reference tools: chapter times from libbluray / lsdvd, durations and chapters from mkvmerge
/// and ffprobe, pictures decoded by ffmpeg equal to the whole title's from chapter A's start.
@Suite("Matroska chapter ranges", .toolThreads)
struct MatroskaChapterRangeTests {
  static let mkv = Fixtures.generated("mkv")
  static let ready =
    FileManager.default.fileExists(atPath: mkv + "/languages.iso") && MatroskaOracle.available
    && FileManager.default.fileExists(atPath: MatroskaOracle.isoCodesPath)
  static let why: Comment = "needs TestImages/scripts/make-mkv.sh output, mkvmerge, ffprobe, ffmpeg"

  /// Checks the chapters `range` of a written title against the reference's chapter starts
  /// (seconds, the whole title's) and its duration; `wholeTitle` is the whole title written to
  /// Matroska, whose decoded pictures from chapter A's start on the range must equal.
  static func check(
    _ part: String, whole wholeTitle: String, range: ClosedRange<Int>, starts: [Double],
    duration: Double, frame: Double
  ) throws {
    let start = starts[range.lowerBound - 1]
    let end = range.upperBound < starts.count ? starts[range.upperBound] : duration
    let oracle = try MatroskaOracle.read(part)
    // The marks of these discs sit on key frames: the file starts at chapter A exactly.
    #expect(abs(oracle.duration - (end - start)) <= 3 * frame, "\(range): \(oracle.duration) s")
    #expect(oracle.chapterCount == range.count)
    #expect(oracle.chapterStarts.count == range.count)
    let lead = try MatroskaOracle.lead(part)
    for (ours, theirs) in zip(oracle.chapterStarts, starts[(range.lowerBound - 1)...]) {
      let want = MatroskaOracle.chapterStart(theirs - start, lead: lead)
      #expect(abs(ours - want) <= 0.001, "\(range): chapter at \(ours) s")
    }
    #expect(try MatroskaOracle.timestampWarnings(part) == [])
    let frames = try MatroskaOracle.videoFrameHashes([part])
    let all = try MatroskaOracle.videoFrameHashes([wholeTitle])
    let first = Int((start / frame).rounded())
    #expect(frames.count > 0)
    #expect(abs(frames.count - Int(((end - start) / frame).rounded())) <= 1, "\(range)")
    #expect(first + frames.count <= all.count)
    if first + frames.count <= all.count {
      #expect(frames == Array(all[first..<(first + frames.count)]), "\(range): pictures")
    }
  }

  @Test(.enabled(if: ready, why))
  func blurayChapterRangesMatchLibbluray() throws {
    let dir = try TemporaryDirectory()
    let folder = "\(Self.mkv)/languages"
    let info = try #require(try Reference.Bluray(path: folder).playlistInfo(0))
    let starts = info.chapters.map { Double($0.start90k) / 90000 }
    #expect(starts.count >= 3, "the languages title has chapters every 2 s over two clips")
    let title = try MatroskaTitle(
      title: try Disc.open(path: "\(Self.mkv)/languages.iso").title(key: "00000"))
    let whole = dir.file("whole.mkv")
    try MatroskaWriter.write(title, toPath: whole, overwrite: false)
    // A chapter inside the first clip, a range across the clip boundary, the last chapter.
    for range in [1...1, 2...starts.count, starts.count...starts.count] {
      let part = dir.file("part-\(range.lowerBound)-\(range.upperBound).mkv")
      let cut = try title.chapters(range)
      try MatroskaWriter.write(cut, toPath: part, overwrite: false)
      try Self.check(
        part, whole: whole, range: range, starts: starts,
        duration: Double(info.duration90k) / 90000, frame: 1.0 / 25)
      // Pieces wholly before or after the range are not read.
      if range.lowerBound == starts.count { #expect(cut.pieces.count == 1) }
    }
  }

  @Test(.enabled(if: ready && Tool.has("lsdvd"), why))
  func dvdChapterRangeMatchesLsdvd() throws {
    let dir = try TemporaryDirectory()
    let folder = "\(Self.mkv)/dvd-vobsub"
    let lsdvd = try #require(try LsdvdOracle.run(folder).tracks.first { $0.ix == 1 })
    let lengths = lsdvd.chapters.map { Double($0.split(separator: "@")[0]) ?? -1 }
    #expect(lengths.count == 2)
    let starts = lengths.indices.map { i in lengths[..<i].reduce(0, +) }
    let title = try MatroskaTitle(title: try Disc.open(path: folder).title(key: "1"))
    let whole = dir.file("whole.mkv")
    try MatroskaWriter.write(title, toPath: whole, overwrite: false)
    let part = dir.file("chapter-2.mkv")
    try MatroskaWriter.write(try title.chapters(2...2), toPath: part, overwrite: false)
    try Self.check(
      part, whole: whole, range: 2...2, starts: starts, duration: lengths.reduce(0, +),
      frame: 1.0 / 25)
    // The subpicture shown from 2.5 s of the title plays 2.5 s - chapter 2's start into the part.
    let decoded = try MatroskaSubtitleTests.decodedSubtitles(part)
    #expect(decoded.count == 1)
    let lead = try MatroskaOracle.lead(part)
    #expect(abs((decoded.first?.time ?? -1) - (2.5 - starts[1] + lead)) <= 0.001, "\(decoded)")
  }

  @Test(.enabled(if: ready, why))
  func chapterRangeBeyondTheTitleIsAnError() throws {
    let title = try MatroskaTitle(
      title: try Disc.open(path: "\(Self.mkv)/languages.iso").title(key: "00000"))
    #expect(throws: DiscKitError.self) { try title.chapters(1...(title.chapters.count + 1)) }
  }

  /// mkvmerge cutting its own file of the same playlist at the same chapter times (libbluray's;
  /// `--split parts:`) gives the same pictures and duration. (mkvmerge starts a part at the key
  /// frame at or after its start, DiscKit at the key frame at or before chapter A; these marks
  /// sit on key frames, where the two agree.)
  @Test(.enabled(if: ready, why))
  func chapterRangeAgreesWithMkvmergeSplit() throws {
    let dir = try TemporaryDirectory()
    let folder = "\(Self.mkv)/languages"
    let info = try #require(try Reference.Bluray(path: folder).playlistInfo(0))
    let starts = info.chapters.map(\.start90k)
    try #require(starts.count >= 3)
    func stamp(_ ticks: UInt64) -> String {
      let ns = ticks * 100_000 / 9
      let s = ns / 1_000_000_000
      return String(format: "00:%02d:%02d.%09d", Int(s / 60), Int(s % 60), Int(ns % 1_000_000_000))
    }
    let whole = dir.file("mkvmerge-whole.mkv")
    let theirs = dir.file("mkvmerge-part.mkv")
    var run = try Tool.run(
      "mkvmerge", ["-q", "-o", whole, "\(folder)/BDMV/PLAYLIST/00000.mpls"])
    #expect(run.status <= 1, "mkvmerge: \(run.stderr)")
    run = try Tool.run(
      "mkvmerge",
      ["-q", "-o", theirs, "--split", "parts:\(stamp(starts[1]))-\(stamp(starts[2]))", whole])
    #expect(run.status <= 1, "mkvmerge --split: \(run.stderr)")
    let ours = dir.file("disckit-part.mkv")
    let title = try MatroskaTitle(
      title: try Disc.open(path: "\(Self.mkv)/languages.iso").title(key: "00000"))
    try MatroskaWriter.write(try title.chapters(2...2), toPath: ours, overwrite: false)
    let a = try MatroskaOracle.read(ours)
    let b = try MatroskaOracle.read(theirs)
    #expect(
      abs(a.duration - b.duration) <= 3.0 / 25, "disckit \(a.duration) s, mkvmerge \(b.duration) s")
    #expect(a.tracks.map(\.codecID) == b.tracks.map(\.codecID))
    let frames = try MatroskaOracle.videoFrameHashes([ours])
    #expect(frames.count > 0)
    #expect(frames == (try MatroskaOracle.videoFrameHashes([theirs])))
  }
}
