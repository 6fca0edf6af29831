import DiscKit
import DiscKitSubtitles
import DiscKitTestSupport
import Foundation
import Testing

/// `disckit extract --subtitles` end to end (through the `disckit-subtitles` helper) and the
/// on-disk cache the server uses.
@Suite("Subtitle extraction and cache", .toolThreads)
struct SubtitleExtractionTests {
  static let disckit = Fixtures.builtExecutable("disckit")
  static let ready =
    SubtitleFixtures.present && FileManager.default.isExecutableFile(atPath: disckit)
    && FileManager.default.isExecutableFile(atPath: Fixtures.builtExecutable("disckit-subtitles"))

  static func drawn(_ names: [String]) throws -> [CaptionManifest.Caption] {
    try names.flatMap {
      try CaptionManifest.load(SubtitleFixtures.path("clips/\($0).json")).captions
    }
  }

  @Test(
    "extract --subtitles vtt|srt: one file per stream, forced apart, the text drawn",
    .enabled(if: ready, "needs the generated discs, disckit and disckit-subtitles"),
    arguments: [("bluray.iso", ["a", "b"]), ("dvd", ["dvd-a", "dvd-b"])])
  func extract(source: String, clips: [String]) throws {
    let drawn = try Self.drawn(clips)
    let dir = try TemporaryDirectory()
    for format in ["vtt", "srt"] {
      let out = dir.file(format)
      let run = try Tool.run(
        Self.disckit,
        [
          "extract", SubtitleFixtures.path(source), "--title", "1", "--subtitles", format, "-o",
          out,
        ])
      #expect(run.status == 0, "\(run.stderr)")
      // The generated streams are well formed: nothing skipped.
      #expect(!run.stderr.contains("malformed"), "\(run.stderr)")
      let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
      #expect(files == ["eng.\(format)", "eng.forced.\(format)"].sorted())
      guard format == "vtt" else {
        let srt = try String(contentsOfFile: out + "/eng.srt", encoding: .utf8)
        #expect(srt.hasPrefix("1\n00:00:"))
        #expect(srt.components(separatedBy: " --> ").count - 1 == drawn.count)
        continue
      }
      let all = WebVTT.cues(try String(contentsOfFile: out + "/eng.vtt", encoding: .utf8))
      let forced = WebVTT.cues(try String(contentsOfFile: out + "/eng.forced.vtt", encoding: .utf8))
      #expect(all.count == drawn.count)
      #expect(forced.count == drawn.filter(\.forced).count)
      var cer = CharacterErrorRate()
      for (cue, caption) in zip(all, drawn) {
        cer.add(reference: caption.lines, recognised: cue.lines, language: "eng")
        #expect(cue.position.rawValue == caption.position)
        // Shown as long as drawn (1.5 s), to the millisecond (DVD: the SPU's delay units).
        #expect(
          abs(cue.endMilliseconds - cue.startMilliseconds - 1500) <= (source == "dvd" ? 12 : 0))
      }
      print("subtitles \(source): character error rate \(String(format: "%.2f", cer.rate * 100)) %")
      #expect(cer.rate <= 0.01)
      // Existing files are kept without --force.
      let again = try Tool.run(
        Self.disckit,
        [
          "extract", SubtitleFixtures.path(source), "--title", "1", "--subtitles", format, "-o",
          out,
        ])
      #expect(again.status == 73, "\(again.stderr)")
    }
  }

  @Test(
    "A stream in a language without Tesseract data: reported with the package, exit 69",
    .enabled(if: ready, "needs the generated discs, disckit and disckit-subtitles"))
  func missingLanguage() throws {
    guard !TesseractLanguage.isInstalled("bre") else { return }
    let dir = try TemporaryDirectory()
    let run = try Tool.run(
      Self.disckit,
      [
        "extract", SubtitleFixtures.path("dvd-nolang"), "--title", "1", "--subtitles", "vtt", "-o",
        dir.path,
      ])
    #expect(run.status == 69)
    #expect(run.stderr.contains("tesseract-ocr-bre"), "\(run.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  @Test(
    "The cache: recognised once, read back equal; image and folder share the identity",
    .enabled(if: SubtitleFixtures.present, SubtitleFixtures.missing))
  func cache() throws {
    let dir = try TemporaryDirectory()
    let cache = SubtitleCache(directory: dir.path)
    let title = try Disc.open(path: SubtitleFixtures.path("bluray.iso")).title(number: 1)
    let folderTitle = try Disc.open(path: SubtitleFixtures.path("bluray")).title(number: 1)
    let identity = try SubtitleCache.identity(of: title)
    #expect(identity == (try SubtitleCache.identity(of: folderTitle)))
    let dvdTitle = try Disc.open(path: SubtitleFixtures.path("dvd")).title(number: 1)
    #expect(identity != (try SubtitleCache.identity(of: dvdTitle)))
    let stream = try #require(SubtitleStreamInfo.streams(of: title).first)
    #expect(try cache.cachedTrack(of: title, stream: stream) == nil)
    let made = try cache.track(of: title, stream: stream)
    let file = cache.path(identity: identity, title: title, stream: stream, timeline: .continuous)
    #expect(FileManager.default.fileExists(atPath: file))
    let read = try #require(try cache.cachedTrack(of: folderTitle, stream: stream))
    #expect(read.cues == made.cues)
    #expect(read.forcedCues.count == 2)
  }
}

/// `extract --format mkv --text-subtitles`: the recognised text as `S_TEXT/UTF8` tracks beside
/// the PGS track, read back with mkvmerge and ffprobe.
@Suite("Subtitle text in Matroska", .toolThreads)
struct SubtitleMatroskaTests {
  @Test(
    "Text tracks beside the bitmap track: codec, name, forced flag, cue times and text",
    .enabled(
      if: SubtitleExtractionTests.ready && Tool.has("mkvmerge") && Tool.has("ffprobe")
        && FileManager.default.isExecutableFile(atPath: Fixtures.builtExecutable("disckit-mkv")),
      "needs the generated Blu-ray, disckit, disckit-mkv, mkvmerge and ffprobe"))
  func textTracks() throws {
    let drawn = try SubtitleExtractionTests.drawn(["a", "b"])
    let dir = try TemporaryDirectory()
    let mkv = dir.file("title.mkv")
    let run = try Tool.run(
      SubtitleExtractionTests.disckit,
      [
        "extract", SubtitleFixtures.path("bluray.iso"), "--title", "1", "--format", "mkv",
        "--text-subtitles", "-o", mkv,
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let identify = try Tool.run("mkvmerge", ["-J", mkv])
    let json = try #require(
      try JSONSerialization.jsonObject(with: identify.stdout) as? [String: Any])
    let subtitles = (json["tracks"] as? [[String: Any]] ?? []).filter {
      $0["type"] as? String == "subtitles"
    }
    let codecs = subtitles.map {
      ($0["properties"] as? [String: Any])?["codec_id"] as? String ?? ""
    }
    #expect(codecs == ["S_HDMV/PGS", "S_TEXT/UTF8", "S_TEXT/UTF8"])
    let names = subtitles.map {
      ($0["properties"] as? [String: Any])?["track_name"] as? String ?? ""
    }
    #expect(names.dropFirst().allSatisfy { $0.contains("recognised text") }, "\(names)")
    let forced = subtitles.map {
      ($0["properties"] as? [String: Any])?["forced_track"] as? Bool ?? false
    }
    #expect(forced == [false, false, true])
    // The full text track's packets: ffprobe's times against the WebVTT of extract --subtitles.
    let probe = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "s:1", "-show_entries", "packet=pts,duration",
        "-of", "csv=p=0", mkv,
      ])
    let packets = probe.text.split(separator: "\n").map {
      $0.split(separator: ",").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }.filter { $0.count == 2 }
    let out = dir.file("vtt")
    let vtt = try Tool.run(
      SubtitleExtractionTests.disckit,
      [
        "extract", SubtitleFixtures.path("bluray.iso"), "--title", "1", "--subtitles", "vtt", "-o",
        out,
      ])
    #expect(vtt.status == 0, "\(vtt.stderr)")
    let cues = WebVTT.cues(try String(contentsOfFile: out + "/eng.vtt", encoding: .utf8))
    #expect(packets.count == drawn.count)
    // The file's lead (where its first picture is: audio before it starts the file) moves
    // every track, the text too.
    let start = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_time", "-of",
        "csv=p=0", mkv,
      ])
    let seconds = Double(start.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    let lead = Int64((seconds * 1000).rounded())
    #expect(lead >= 0 && lead < 1000, "\(start.text)")
    #expect(packets.map { $0[0] } == cues.map { $0.startMilliseconds + lead })
    #expect(packets.map { $0[1] } == cues.map { $0.endMilliseconds - $0.startMilliseconds })
    let srt = dir.file("text.srt")
    let convert = try Tool.run(
      "ffmpeg", ["-v", "error", "-i", mkv, "-map", "0:s:1", "-c:s", "copy", "-f", "srt", srt])
    #expect(convert.status == 0, "\(convert.stderr)")
    let text = try String(contentsOfFile: srt, encoding: .utf8)
    for caption in drawn { #expect(text.contains(caption.lines.joined(separator: "\n"))) }
  }
}
