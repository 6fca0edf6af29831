import DiscKit
import DiscKitSubtitles
import DiscKitTestSupport
import Foundation
import Testing

/// The recognised text of PGS streams drawn with known text (five languages, eight fonts, four
/// sizes, one and two lines, oblique and italic faces, light yellow fills, top and bottom
/// captions, forced flags), against the text drawn (make-subtitle-text.py's manifest).
@Suite("Subtitle recognition")
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
    let events = PGSDecoder.events(supFile: bytes)
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
    let events = PGSDecoder.events(supFile: bytes)
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
