@_spi(Formats) import DiscKit

/// A subtitle stream of a title as the text recogniser sees it.
public struct SubtitleStreamInfo: Sendable, Hashable, Codable {
  /// What carries the stream's pictures.
  public enum Coding: String, Sendable, Hashable, Codable {
    /// Blu-ray presentation graphics (PGS) in one PID of the M2TS.
    case pgs
    /// DVD subpictures in one substream of private stream 1.
    case dvdSubpicture
  }
  /// 1-based among the title's subtitle streams (the order of ``DiscTitle/streams``).
  public var number: Int
  /// The PID (Blu-ray) or substream id (`0x20`-`0x3F`, DVD).
  public var id: Int
  /// The stream's coding.
  public var coding: Coding
  /// The language the disc gives (ISO 639-2, or ISO 639-1 on a DVD), if any.
  public var language: String?
  /// Tesseract's data name for the language (`nil`: no language, nothing to read it with).
  public var tesseractCode: String?
  /// DVD: the IFO marks the whole stream as forced captions (code extension 9).
  public var forcedStream: Bool

  /// A stream.
  public init(
    number: Int, id: Int, coding: Coding, language: String?, tesseractCode: String?,
    forcedStream: Bool
  ) {
    self.number = number
    self.id = id
    self.coding = coding
    self.language = language
    self.tesseractCode = tesseractCode
    self.forcedStream = forcedStream
  }

  /// The file name stem of the stream's text (`eng`, `fre.2`, `und.3`): its language (ISO 639-2
  /// as a Blu-ray gives it, a DVD's ISO 639-1 code as its ISO 639-2 bibliographic code, `und` when
  /// none), with the stream number after it when another
  /// stream of the title has the same language.
  public func fileStem(among streams: [SubtitleStreamInfo]) -> String {
    let name = Self.languageName(language)
    let same = streams.filter { Self.languageName($0.language) == name }
    guard same.count > 1, same.first?.number != number else { return name }
    return name + ".\(number)"
  }

  static func languageName(_ language: String?) -> String {
    TesseractLanguage.threeLetter(language) ?? "und"
  }

  /// The title's subtitle streams that its bytes carry (Blu-ray: PG streams in the play item's
  /// own clip; out-of-mux ones, in a sub-path's clip, are left out).
  public static func streams(of title: DiscTitle) -> [SubtitleStreamInfo] {
    let subtitles = title.streams.filter { $0.kind == .subtitle }
    var out: [SubtitleStreamInfo] = []
    for (i, s) in subtitles.enumerated() where s.subPath == nil {
      let coding: Coding = title.isTransportStream ? .pgs : .dvdSubpicture
      guard !out.contains(where: { $0.id == s.id }) else { continue }
      out.append(
        SubtitleStreamInfo(
          number: i + 1, id: s.id, coding: coding, language: s.language,
          tesseractCode: TesseractLanguage.code(for: s.language), forcedStream: s.forced ?? false))
    }
    return out
  }
}
