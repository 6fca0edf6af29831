/// One recognised caption on a title timeline.
public struct SubtitleCue: Sendable, Hashable, Codable {
  /// Where on the picture the caption was: the upper or the lower half.
  public enum Position: String, Sendable, Hashable, Codable {
    case top, bottom
  }
  /// When it shows, in milliseconds of title time.
  public var startMilliseconds: Int64
  /// When it hides, in milliseconds of title time.
  public var endMilliseconds: Int64
  /// The recognised lines, top to bottom.
  public var lines: [String]
  /// Top or bottom of the picture.
  public var position: Position
  /// Whether the caption is forced (shown even with subtitles off).
  public var forced: Bool
  /// Whether the caption is in italic (or oblique) type: written as `<i>...</i>`.
  public var italic: Bool

  /// A cue.
  public init(
    startMilliseconds: Int64, endMilliseconds: Int64, lines: [String], position: Position,
    forced: Bool, italic: Bool = false
  ) {
    self.startMilliseconds = startMilliseconds
    self.endMilliseconds = endMilliseconds
    self.lines = lines
    self.position = position
    self.forced = forced
    self.italic = italic
  }
}

/// The text of one subtitle stream: every cue (forced ones included, Apple's rule) and, apart,
/// the forced cues alone.
public struct SubtitleTrack: Sendable, Hashable {
  /// The stream the text was recognised from.
  public var stream: SubtitleStreamInfo
  /// Every cue in time order.
  public var cues: [SubtitleCue]
  /// The forced cues alone (empty when the stream has none).
  public var forcedCues: [SubtitleCue] { cues.filter(\.forced) }

  /// A track.
  public init(stream: SubtitleStreamInfo, cues: [SubtitleCue]) {
    self.stream = stream
    self.cues = cues
  }
}

/// The text formats cues are written in.
public enum SubtitleTextFormat: String, Sendable, Hashable, CaseIterable, Codable {
  /// WebVTT (`.vtt`): a top caption gets `line:0`.
  case vtt
  /// SubRip (`.srt`): a top caption starts with `{\an8}`.
  case srt

  /// The file extension.
  public var fileExtension: String { rawValue }

  /// `cues` as a file of this format.
  public func text(_ cues: [SubtitleCue]) -> String {
    switch self {
    case .vtt: WebVTT.text(cues)
    case .srt: SubRip.text(cues)
    }
  }
}

/// WebVTT files (the W3C format HLS and browsers show).
public enum WebVTT {
  /// `HH:MM:SS.mmm`.
  public static func timestamp(_ ms: Int64) -> String {
    clock(ms, separator: ".")
  }

  static func clock(_ milliseconds: Int64, separator: String) -> String {
    let ms = max(0, milliseconds)
    func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let frac = ms % 1000
    let fracText = frac < 10 ? "00\(frac)" : frac < 100 ? "0\(frac)" : "\(frac)"
    return two(ms / 3_600_000) + ":" + two(ms / 60000 % 60) + ":" + two(ms / 1000 % 60)
      + separator + fracText
  }

  /// A cue's text with `&`, `<` and `>` escaped.
  static func escape(_ s: String) -> String {
    var out = ""
    for c in s {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      default: out.append(c)
      }
    }
    return out
  }

  /// A WebVTT file of `cues`.
  public static func text(_ cues: [SubtitleCue]) -> String {
    var out = "WEBVTT\n"
    for cue in cues {
      out += "\n" + timestamp(cue.startMilliseconds) + " --> " + timestamp(cue.endMilliseconds)
      if cue.position == .top { out += " line:0" }
      let text = cue.lines.map(escape).joined(separator: "\n")
      out += "\n" + (cue.italic ? "<i>" + text + "</i>" : text) + "\n"
    }
    return out
  }

  /// One HLS WebVTT segment (RFC 8216 section 3.5): the cues that overlap `window` (milliseconds of
  /// title time), whole (a cue crossing the segment's edge is repeated in the next segment, as
  /// HLS allows), after an `X-TIMESTAMP-MAP` header that maps the cue times onto the media's
  /// timestamps: `MPEGTS:<mpegts90k>` is the 90 kHz media time of title time 0 (on the continuous
  /// timeline of a transport stream, the first play item's in-time; for fMP4 segments whose
  /// `tfdt` starts at 0, 0).
  public static func segment(_ cues: [SubtitleCue], window: Range<Int64>, mpegts90k: Int64)
    -> String
  {
    let inside = cues.filter {
      $0.endMilliseconds > window.lowerBound && $0.startMilliseconds < window.upperBound
    }
    let body = text(inside).dropFirst("WEBVTT\n".count)
    return "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(mpegts90k),LOCAL:00:00:00.000\n" + body
  }

  /// The cues of a WebVTT file written by ``text(_:)`` (forced: `forced`); unreadable blocks
  /// are skipped.
  public static func cues(_ text: String, forced: Bool = false) -> [SubtitleCue] {
    var cues: [SubtitleCue] = []
    let blocks = text.split(separator: "\n\n", omittingEmptySubsequences: true)
    for block in blocks {
      let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      guard let timing = lines.firstIndex(where: { $0.contains(" --> ") }) else { continue }
      let parts = lines[timing].split(separator: " ")
      guard parts.count >= 3, let start = milliseconds(String(parts[0])),
        let end = milliseconds(String(parts[2]))
      else { continue }
      let top = parts.dropFirst(3).contains("line:0")
      var text = lines[(timing + 1)...].filter { !$0.isEmpty }
      let italic = text.first?.hasPrefix("<i>") == true && text.last?.hasSuffix("</i>") == true
      if italic, let first = text.indices.first, let last = text.indices.last {
        text[first] = String(text[first].dropFirst(3))
        text[last] = String(text[last].dropLast(4))
      }
      cues.append(
        SubtitleCue(
          startMilliseconds: start, endMilliseconds: end, lines: text.map(unescape),
          position: top ? .top : .bottom, forced: forced, italic: italic))
    }
    return cues
  }

  static func unescape(_ s: String) -> String {
    var out = s
    for (a, b) in [("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
      out = out.split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
    }
    return out
  }

  /// Milliseconds of `HH:MM:SS.mmm` or `MM:SS.mmm`.
  static func milliseconds(_ s: String) -> Int64? {
    let main = s.split(separator: ".")
    guard main.count == 2, let frac = Int64(main[1]), main[1].count == 3 else { return nil }
    let fields = main[0].split(separator: ":").map { Int64($0) }
    guard fields.count >= 2, fields.count <= 3, fields.allSatisfy({ $0 != nil }) else { return nil }
    let values = fields.compactMap { $0 }
    let seconds = values.reduce(0) { $0 * 60 + $1 }
    return seconds * 1000 + frac
  }
}

/// SubRip files.
public enum SubRip {
  /// `HH:MM:SS,mmm`.
  public static func timestamp(_ ms: Int64) -> String { WebVTT.clock(ms, separator: ",") }

  /// A SubRip file of `cues`.
  public static func text(_ cues: [SubtitleCue]) -> String {
    var out = ""
    for (i, cue) in cues.enumerated() {
      out +=
        "\(i + 1)\n" + timestamp(cue.startMilliseconds) + " --> "
        + timestamp(cue.endMilliseconds) + "\n"
      let text = cue.lines.joined(separator: "\n")
      out +=
        (cue.position == .top ? "{\\an8}" : "") + (cue.italic ? "<i>" + text + "</i>" : text)
        + "\n\n"
    }
    return out
  }
}
