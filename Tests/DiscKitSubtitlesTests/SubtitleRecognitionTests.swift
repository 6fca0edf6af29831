import DiscKit
import DiscKitSubtitles
import DiscKitTestSupport
import Foundation
import Testing

/// The recognised text of PGS streams drawn with known text (five languages, eight fonts, four
/// sizes, one and two lines, oblique and italic faces, light yellow fills, top and bottom
/// captions, forced flags), against the text drawn (make-subtitle-text.py's manifest).
@Suite("Subtitle recognition", .toolThreads)
struct SubtitleRecognitionTests {
  /// The character error rate each language must stay within (issue 30).
  static let bounds: [String: Double] = [
    "eng": 0.01, "fra": 0.01, "deu": 0.01, "spa": 0.01, "jpn": 0.02,
  ]

  @Test(
    "Character error rate per language, PGS (printed and bounded)",
    .enabled(if: SubtitleFixtures.present, SubtitleFixtures.missing),
    arguments: ["eng", "fra", "deu", "spa", "jpn"])
  func characterErrorRate(language: String) throws {
    let manifest = try CaptionManifest.load(SubtitleFixtures.path("sup/\(language).json"))
    let bytes = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: SubtitleFixtures.path("sup/\(language).sup"))))
    let events = try PGSDecoder.events(supFile: bytes)
    let shown = events.filter { !$0.bitmaps.isEmpty }
    try #require(shown.count == manifest.captions.count)
    let code = try #require(TesseractLanguage.code(for: language))
    try #require(
      TesseractLanguage.isInstalled(code), "install \(TesseractLanguage.package(for: code))")
    let texts = try SubtitleRecognizer.recognize(
      shown.flatMap(\.bitmaps), code: code, workers: 2)
    var cer = CharacterErrorRate()
    var italicWrong = 0
    for (caption, text) in zip(manifest.captions, texts) {
      let lines = text.lines
      let italic = !text.italic.isEmpty && !text.italic.contains(false)
      if italic != caption.italic {
        italicWrong += 1
        print(
          "subtitles \(language) [\(caption.font)]: italic \(caption.italic), read \(text.italic)")
      }
      cer.add(reference: caption.lines, recognised: lines, language: language)
      if caption.lines != lines {
        print(
          "subtitles \(language) [\(caption.font) \(caption.size)px]: \(caption.lines) -> \(lines)")
      }
      #expect(lines.count == caption.lines.count, "\(caption.lines) -> \(lines)")
    }
    print(
      "subtitles \(language): character error rate \(String(format: "%.2f", cer.rate * 100)) % (\(cer.edits) of \(cer.characters))"
    )
    #expect(cer.rate <= Self.bounds[language] ?? 0.01)
    // Italic and oblique faces are told from upright ones by the strokes' slant.
    #expect(italicWrong == 0)
  }

  @Test(
    "Display set times, forced flags and positions as drawn",
    .enabled(if: SubtitleFixtures.present, SubtitleFixtures.missing))
  func eventsAsDrawn() throws {
    let manifest = try CaptionManifest.load(SubtitleFixtures.path("sup/eng.json"))
    let bytes = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: SubtitleFixtures.path("sup/eng.sup"))))
    let events = try PGSDecoder.events(supFile: bytes)
    #expect(events.count == 2 * manifest.captions.count)
    for (i, caption) in manifest.captions.enumerated() where 2 * i + 1 < events.count {
      let show = events[2 * i]
      let clear = events[2 * i + 1]
      #expect(show.pts90k == caption.startPTS)
      #expect(clear.pts90k == caption.endPTS)
      #expect(clear.bitmaps.isEmpty)
      #expect(show.bitmaps.map(\.forced) == [caption.forced])
      let top = (show.bitmaps.first?.y ?? 0) < 540
      #expect(top == (caption.position == "top"))
    }
  }

  @Test("A language without Tesseract data is reported with the package to install")
  func missingLanguage() throws {
    let stream = SubtitleStreamInfo(
      number: 2, id: 0x1201, coding: .pgs, language: "bre",
      tesseractCode: TesseractLanguage.code(for: "bre"), forcedStream: false)
    #expect(TesseractLanguage.code(for: "ger") == "deu")
    #expect(TesseractLanguage.code(for: "fr") == "fra")
    #expect(TesseractLanguage.code(for: "und") == nil)
    #expect(TesseractLanguage.package(for: "chi_sim") == "tesseract-ocr-chi-sim")
    guard !TesseractLanguage.isInstalled("bre") else { return }
    #expect {
      try SubtitleRecognizer.languageData(for: stream)
    } throws: { error in
      "\(error)".contains("tesseract-ocr-bre")
    }
    let undetermined = SubtitleStreamInfo(
      number: 1, id: 0x1200, coding: .pgs, language: nil, tesseractCode: nil, forcedStream: false)
    #expect(throws: DiscKitError.self) { try SubtitleRecognizer.languageData(for: undetermined) }
  }
}

/// The text formats, against the WebVTT, SRT and HLS (RFC 8216 3.5) forms written out by hand.
@Suite("Subtitle text formats", .toolThreads)
struct SubtitleTextFormatTests {
  static let cues = [
    SubtitleCue(
      startMilliseconds: 1000, endMilliseconds: 2500, lines: ["A < B & C"], position: .bottom,
      forced: false),
    SubtitleCue(
      startMilliseconds: 3_723_004, endMilliseconds: 3_724_000, lines: ["top", "two"],
      position: .top, forced: true, italic: true),
  ]

  @Test("WebVTT, SubRip and an HLS WebVTT segment")
  func formats() {
    #expect(
      WebVTT.text(Self.cues)
        == "WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nA &lt; B &amp; C\n\n"
        + "01:02:03.004 --> 01:02:04.000 line:0\n<i>top\ntwo</i>\n")
    #expect(
      SubRip.text(Self.cues)
        == "1\n00:00:01,000 --> 00:00:02,500\nA < B & C\n\n"
        + "2\n01:02:03,004 --> 01:02:04,000\n{\\an8}<i>top\ntwo</i>\n\n")
    #expect(WebVTT.cues(WebVTT.text(Self.cues)).map(\.lines) == Self.cues.map(\.lines))
    #expect(WebVTT.cues(WebVTT.text(Self.cues)).map(\.italic) == [false, true])
    #expect(
      WebVTT.segment(Self.cues, window: 2000..<6000, mpegts90k: 900_000)
        == "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n"
        + "00:00:01.000 --> 00:00:02.500\nA &lt; B &amp; C\n")
  }
}
