import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// `disckit titles` and `extract --episode N` on the DVD episode discs
/// (`TestImages/scripts/make-dvd-episodes.sh`): the text names chapter-range episodes, the
/// GPRM-flag play-all button and an ambiguous answer's candidates; `--json` is valid against
/// the titles schema (checked by `EndToEndTests.disckit`); an extracted chapter-range episode
/// is, for ffprobe, a program stream of the episode's length (310, 320, 305 s of NTSC time).
@Suite("DVD episodes on the command line", .toolThreads)
struct DVDEpisodeCLITests {
  static func disc(_ name: String) -> String { Fixtures.generated(name) }
  static let ready =
    EndToEndTests.haveBinary
    && ["dvd-episodes-chapters", "dvd-episodes-gprm", "dvd-episodes-ambiguous"].allSatisfy {
      FileManager.default.fileExists(atPath: disc($0) + "/VIDEO_TS/VIDEO_TS.IFO")
    }

  @Test(.enabled(if: ready, "needs the built disckit and make-dvd-episodes.sh's discs"))
  func titlesText() throws {
    let chapters = try EndToEndTests.disckit(["titles", Self.disc("dvd-episodes-chapters")])
    #expect(chapters.status == 0, "\(chapters.stderr)")
    #expect(chapters.text.contains("Episodes: 3 (chapters, navigation)"), "\(chapters.text)")
    #expect(chapters.text.contains("chapters 3-5"))
    #expect(chapters.text.contains("[1:e2]"))
    let gprm = try EndToEndTests.disckit(["titles", Self.disc("dvd-episodes-gprm")])
    #expect(gprm.text.contains("Episodes: 3 (titles, navigation)"), "\(gprm.text)")
    #expect(gprm.text.contains("play-all: VMGM PGC 1 button 1"), "\(gprm.text)")
    let ambiguous = try EndToEndTests.disckit(["titles", Self.disc("dvd-episodes-ambiguous")])
    #expect(ambiguous.text.contains("Episodes: ambiguous ("), "\(ambiguous.text)")
    #expect(ambiguous.text.contains("candidates: title 1, title 2, title 3"), "\(ambiguous.text)")
    for name in ["dvd-episodes-chapters", "dvd-episodes-gprm", "dvd-episodes-ambiguous"] {
      let json = try EndToEndTests.disckit(["titles", Self.disc(name), "--json"])
      #expect(json.status == 0, "\(name): \(json.stderr)")
    }
  }

  @Test(
    .enabled(if: ready, "needs the built disckit and make-dvd-episodes.sh's discs"),
    .enabled(if: Tool.has("ffprobe"), "needs ffprobe"))
  func extractChapterRangeEpisode() throws {
    let dir = try TemporaryDirectory("dvd-episode-cli")
    let out = dir.file("e2.vob")
    let run = try EndToEndTests.disckit([
      "extract", Self.disc("dvd-episodes-chapters"), "--episode", "2", "-o", out,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let probe = try Tool.run(
      "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", out])
    let seconds = Double(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    #expect(abs(seconds - 320.0 * 1000 / 1001) < 1.5, "ffprobe: \(probe.text)")
  }

  /// The PGC layout (`dvd-episodes-pgcs`): the text names it and each episode's PGC; every
  /// episode extracted with `--episodes` is, for ffprobe, the episode's length, and its pictures
  /// decode without a warning.
  @Test(
    .enabled(
      if: EndToEndTests.haveBinary
        && FileManager.default.fileExists(
          atPath: disc("dvd-episodes-pgcs") + "/VIDEO_TS/VIDEO_TS.IFO"),
      "needs the built disckit and make-dvd-episodes.sh's discs"),
    .enabled(if: Tool.has("ffprobe") && Tool.has("ffmpeg"), "needs ffprobe and ffmpeg"))
  func programChainEpisodes() throws {
    let text = try EndToEndTests.disckit(["titles", Self.disc("dvd-episodes-pgcs")])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.text.contains("Episodes: 3 (program-chains, navigation)"), "\(text.text)")
    #expect(text.text.contains("starts PGC 2 of title 1 (chapters 3-4)"), "\(text.text)")
    #expect(text.text.contains("play-all: title 1"), "\(text.text)")
    let json = try EndToEndTests.disckit(["titles", Self.disc("dvd-episodes-pgcs"), "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    let dir = try TemporaryDirectory("dvd-pgc-episodes-cli")
    let run = try EndToEndTests.disckit([
      "extract", Self.disc("dvd-episodes-pgcs"), "--episodes", "-o", dir.path,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(files.count == 3, "\(files)")
    for (name, seconds) in zip(files, [310.0, 320.0, 305.0]) {
      let file = dir.file(name)
      let probe = try Tool.run(
        "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file])
      let got = Double(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
      #expect(abs(got - seconds * 1000 / 1001) < 1.5, "\(name): ffprobe \(probe.text)")
      let video = try Tool.run(
        "ffmpeg", ["-v", "warning", "-i", file, "-map", "0:v", "-f", "null", "-"])
      #expect(video.stderr.isEmpty, "\(name): \(video.stderr)")
    }
  }

  /// PGCs no chapter names (`dvd-episodes-unnamed`, `make-dvd-episodes-pgcs.sh`): the text names
  /// each such episode's PGC, `--json` carries `programChain` (valid against the titles schema),
  /// and every episode extracted with `--episodes` is, for ffprobe, the episode's length.
  @Test(
    .enabled(
      if: EndToEndTests.haveBinary
        && FileManager.default.fileExists(
          atPath: disc("dvd-episodes-unnamed") + "/VIDEO_TS/VIDEO_TS.IFO"),
      "needs the built disckit and make-dvd-episodes-pgcs.sh's discs"),
    .enabled(if: Tool.has("ffprobe"), "needs ffprobe"))
  func programChainsNoChapterNames() throws {
    let text = try EndToEndTests.disckit(["titles", Self.disc("dvd-episodes-unnamed")])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.text.contains("Episodes: 3 (program-chains, navigation)"), "\(text.text)")
    #expect(text.text.contains("e02 title 1 PGC 2  "), "\(text.text)")
    #expect(text.text.contains("play-all: VMGM PGC 1 button 1"), "\(text.text)")
    let json = try EndToEndTests.disckit(["titles", Self.disc("dvd-episodes-unnamed"), "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    #expect(json.text.contains("\"programChain\" : 3") || json.text.contains("\"programChain\":3"))
    let dir = try TemporaryDirectory("dvd-unnamed-episodes-cli")
    let run = try EndToEndTests.disckit([
      "extract", Self.disc("dvd-episodes-unnamed"), "--episodes", "-o", dir.path,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(files.count == 3, "\(files)")
    for (name, seconds) in zip(files, [310.0, 320.0, 305.0]) {
      let probe = try Tool.run(
        "ffprobe",
        ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", dir.file(name)])
      let got = Double(probe.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
      #expect(abs(got - seconds * 1000 / 1001) < 1.5, "\(name): ffprobe \(probe.text)")
    }
  }
}
