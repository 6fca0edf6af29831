import DiscKitTestSupport
import Foundation
import Testing

/// `disckit extract --format mkv` end to end: `disckit` hands the command line to the
/// `disckit-mkv` helper (the only program linking libavformat), which writes the file
/// atomically; without the helper it is one line and exit 69.
@Suite("disckit extract --format mkv", .toolThreads)
struct MatroskaCLITests {
  static let disckit = EndToEndTests.binary
  static let helper = URL(fileURLWithPath: disckit).deletingLastPathComponent()
    .appendingPathComponent("disckit-mkv").path
  static let languages = Fixtures.generated("mkv/languages.iso")
  static let ready =
    EndToEndTests.haveBinary && FileManager.default.isExecutableFile(atPath: helper)
    && FileManager.default.fileExists(atPath: languages) && Tool.has("mkvmerge")
  static let why: Comment =
    "needs the built disckit and disckit-mkv, TestImages/scripts/make-mkv.sh output and mkvmerge"

  /// mkvmerge's container type and track types of `path`.
  static func identify(_ path: String) throws -> (type: String, tracks: [String]) {
    let run = try Tool.run("mkvmerge", ["-J", path])
    let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
    let container = json["container"] as? [String: Any] ?? [:]
    let tracks = (json["tracks"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
    return (container["type"] as? String ?? "?", tracks)
  }

  @Test(.enabled(if: ready, why))
  func mkvByFormatOrByNameAndM2TSOtherwise() throws {
    let dir = try TemporaryDirectory()
    let byName = dir.file("title.mkv")
    let run = try Tool.run(Self.disckit, ["extract", Self.languages, "-o", byName])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.identify(byName) == ("Matroska", ["video", "audio", "audio"]))

    let byFormat = dir.file("title.bin")
    #expect(
      try Tool.run(Self.disckit, ["extract", Self.languages, "--format", "mkv", "-o", byFormat])
        .status == 0)
    #expect(try Self.identify(byFormat).type == "Matroska")

    // --format m2ts wins over the name: the title's source packets (0x47 after a 4-byte header).
    let m2ts = dir.file("bytes.mkv")
    #expect(
      try Tool.run(Self.disckit, ["extract", Self.languages, "--format", "m2ts", "-o", m2ts])
        .status == 0)
    let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: m2ts)).read(upToCount: 5)
    #expect(head?.last == 0x47)

    // A DVD title too (the main title).
    let dvd = dir.file("dvd.mkv")
    #expect(
      try Tool.run(Self.disckit, ["extract", Fixtures.generated("dvd-pal.iso"), "-o", dvd]).status
        == 0)
    #expect(try Self.identify(dvd) == ("Matroska", ["video", "audio"]))
    // Nothing else is left in the directory (no temporary files).
    #expect(
      Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        == ["title.mkv", "title.bin", "bytes.mkv", "dvd.mkv"])
  }

  @Test(.enabled(if: ready, why))
  func existingFileNeedsForce() throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("title.mkv")
    try Data("keep".utf8).write(to: URL(fileURLWithPath: out))
    let refused = try Tool.run(Self.disckit, ["extract", Self.languages, "-o", out])
    #expect(refused.status == 73)
    #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data("keep".utf8))
    let forced = try Tool.run(Self.disckit, ["extract", Self.languages, "-o", out, "--force"])
    #expect(forced.status == 0)
    #expect(try Self.identify(out).type == "Matroska")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["title.mkv"])
  }

  /// `--chapters A-B` writes chapters A through B (the chapter times are libbluray's: see
  /// MatroskaChapterRangeTests); `--chapters-file` is M2TS only; a range beyond the title is
  /// one line and exit 64, nothing written.
  @Test(.enabled(if: ready && Tool.has("ffprobe"), why))
  func chapterRanges() throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("part.mkv")
    let run = try Tool.run(
      Self.disckit, ["extract", Self.languages, "--chapters", "2-3", "-o", out])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.identify(out) == ("Matroska", ["video", "audio", "audio"]))
    let probe = try Tool.run(
      "ffprobe", ["-v", "error", "-show_chapters", "-of", "csv=p=0", out])
    #expect(probe.text.split(separator: "\n").count == 2, "\(probe.text)")

    let beyond = try Tool.run(
      Self.disckit, ["extract", Self.languages, "--chapters", "9", "-o", dir.file("x.mkv")])
    #expect(beyond.status == 64)
    #expect(beyond.stderr.split(separator: "\n").count == 1, "\(beyond.stderr)")
    let file = try Tool.run(
      Self.disckit,
      ["extract", Self.languages, "--chapters-file", dir.file("c.txt"), "-o", dir.file("x.mkv")])
    #expect(file.status == 64)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["part.mkv"])
  }

  @Test(
    .enabled(
      if: EndToEndTests.haveBinary && FileManager.default.fileExists(atPath: languages),
      "needs the built disckit and TestImages/scripts/make-mkv.sh output"))
  func missingHelperIsOneLineAndExit69() throws {
    let dir = try TemporaryDirectory()
    let lone = dir.file("disckit")
    try FileManager.default.copyItem(atPath: Self.disckit, toPath: lone)
    let run = try Tool.run(
      lone, ["extract", Self.languages, "-o", dir.file("x.mkv")],
      environment: ["PATH": "/nonexistent"])
    #expect(run.status == 69)
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(run.stderr)")
    #expect(lines.first?.contains("disckit-mkv") == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["disckit"])
  }

  @Test(.enabled(if: ready && Tool.has("ldd"), why))
  func onlyTheHelperLinksLibavformat() throws {
    let disckit = try Tool.run("ldd", [Self.disckit]).text
    let helper = try Tool.run("ldd", [Self.helper]).text
    #expect(!disckit.contains("libavformat"))
    #expect(!disckit.contains("libavcodec"))
    #expect(helper.contains("libavformat"))
  }
}
