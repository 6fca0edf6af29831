import DiscKitTestSupport
import Foundation
import Testing

/// `extract --chapters-file`: ffmpeg muxes the chapters into a Matroska file whose chapter starts
/// fall on the keyframes where the disc's chapters begin (ffprobe reads both back), within the
/// offset ffmpeg adds when audio starts before video (under 0.1 s).
@Suite("Chapter files", .toolThreads)
struct ChapterFileTests {
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
  static let ready = EndToEndTests.haveBinary && Tool.has("ffmpeg") && Tool.has("ffprobe")

  /// Chapter starts and video keyframe times (seconds) of a muxed file, as ffprobe reports them.
  static func probe(_ path: String) throws -> (chapters: [Double], keyframes: [Double]) {
    let chapters = try Tool.run(
      "ffprobe", ["-v", "error", "-show_entries", "chapter=start_time", "-of", "csv=p=0", path]
    ).text.split(whereSeparator: \.isNewline).compactMap { Double($0) }
    let keyframes = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of",
        "csv=p=0", path,
      ]
    ).text.split(whereSeparator: \.isNewline).compactMap { line -> Double? in
      let fields = line.split(separator: ",")
      return fields.count == 2 && fields[1].hasPrefix("K") ? Double(fields[0]) : nil
    }
    return (chapters, keyframes)
  }

  static func extractAndMux(_ source: String, _ extra: [String], in dir: TemporaryDirectory) throws
    -> String
  {
    let stream = dir.file("title.ts")
    let chapters = dir.file("chapters.txt")
    let result = try EndToEndTests.disckit(
      ["extract", source, "-o", stream, "--chapters-file", chapters] + extra)
    #expect(result.status == 0, "\(result.stderr)")
    let mkv = dir.file("title.mkv")
    try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-i", stream, "-i", chapters, "-map_metadata", "1", "-map", "0:v", "-map",
        "0:a", "-c", "copy", mkv,
      ])
    return mkv
  }

  @Test(.enabled(if: ready, "needs the built disckit, ffmpeg and ffprobe"))
  func bluRayChaptersLandOnKeyframes() throws {
    let dir = try TemporaryDirectory()
    let titles = try EndToEndTests.json(
      try EndToEndTests.disckit(["titles", Self.sample, "--json"]))
    let main = try #require(
      (titles["titles"] as? [[String: Any]])?.first { $0["main"] as? Bool == true })
    let chapterCount = try #require((main["chapters"] as? [Any])?.count)
    let (chapters, keyframes) = try Self.probe(try Self.extractAndMux(Self.sample, [], in: dir))
    #expect(chapters.count == chapterCount)
    #expect(chapters.first == 0)
    for start in chapters {
      #expect(keyframes.contains { abs($0 - start) < 0.1 }, "chapter at \(start) s has no keyframe")
    }
    // A chapter range: the stream starts at the first chosen chapter, so its chapters are re-based.
    let part = try TemporaryDirectory()
    let (partChapters, partKeyframes) = try Self.probe(
      try Self.extractAndMux(Self.sample, ["--chapters", "2-3"], in: part))
    #expect(partChapters.count == 2)
    #expect(partChapters.first == 0)
    for start in partChapters {
      #expect(
        partKeyframes.contains { abs($0 - start) < 0.1 }, "chapter at \(start) s has no keyframe")
    }
    // Nothing is overwritten without --force, the chapter file included.
    let again = try EndToEndTests.disckit([
      "extract", Self.sample, "-o", dir.file("other.ts"), "--chapters-file",
      dir.file("chapters.txt"),
    ])
    #expect(again.status == 73)
  }

  /// DVD titles often restart their timestamps at each cell (cells authored from separate files),
  /// which Matroska muxing cannot take without regenerating timestamps; so here ffmpeg reads the
  /// chapter file itself, and its chapters must be the title's (checked against lsdvd elsewhere).
  @Test(
    .enabled(
      if: ready && EndToEndTests.haveImages,
      "needs the built disckit, ffprobe and the DVD test images"))
  func dvdChapterFileIsTheTitlesChapters() throws {
    let dir = try TemporaryDirectory()
    let disc = Fixtures.generated("dvd-ntsc")
    let titles = try EndToEndTests.json(try EndToEndTests.disckit(["titles", disc, "--json"]))
    let main = try #require(
      (titles["titles"] as? [[String: Any]])?.first { $0["main"] as? Bool == true })
    let expected = try #require(main["chapters"] as? [[String: Any]]).compactMap {
      ($0["start90k"] as? NSNumber)?.doubleValue
    }
    let chapters = dir.file("chapters.txt")
    let result = try EndToEndTests.disckit([
      "extract", disc, "-o", dir.file("t.vob"), "--chapters-file", chapters,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let read = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-f", "ffmetadata", "-show_entries", "chapter=start_time", "-of", "csv=p=0",
        chapters,
      ]
    ).text.split(whereSeparator: \.isNewline).compactMap { Double($0) }
    #expect(read.count == expected.count)
    #expect(read.count >= 2)
    for (ours, theirs) in zip(read, expected) {
      #expect(abs(ours - theirs / 90_000) < 0.001)
    }
  }
}
