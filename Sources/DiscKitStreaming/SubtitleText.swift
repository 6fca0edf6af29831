import DiscKit

/// A subtitle stream of a title as the server may offer it as text.
public struct SubtitleStreamOffer: Sendable, Hashable {
  /// The PID (Blu-ray) or substream id (DVD).
  public var id: Int
  /// 1-based among the title's subtitle streams.
  public var number: Int
  /// The disc's language code (as the audio renditions carry it), if any.
  public var language: String?
  /// The disc marks the whole stream as forced captions (DVD).
  public var forcedStream: Bool
  /// Why the stream's text cannot be recognised (no language, no Tesseract data for it: the
  /// package to install), `nil` when it can.
  public var unavailable: String?

  /// An offer.
  public init(
    id: Int, number: Int, language: String?, forcedStream: Bool, unavailable: String? = nil
  ) {
    self.id = id
    self.number = number
    self.language = language
    self.forcedStream = forcedStream
    self.unavailable = unavailable
  }
}

/// One recognised caption, as WebVTT: its times on the title timeline (continuous), whether it
/// is forced, and its cue settings and payload as they are written.
public struct SubtitleTextCue: Sendable, Hashable {
  /// When it shows and hides, milliseconds of title time.
  public var startMilliseconds: Int64
  public var endMilliseconds: Int64
  /// A forced caption (shown even with subtitles off).
  public var forced: Bool
  /// The cue settings after the timing (`line:0`), or empty.
  public var settings: String
  /// The cue's text (lines joined by newlines, WebVTT markup such as `<i>` kept).
  public var payload: String

  /// A cue.
  public init(
    startMilliseconds: Int64, endMilliseconds: Int64, forced: Bool, settings: String = "",
    payload: String
  ) {
    self.startMilliseconds = startMilliseconds
    self.endMilliseconds = endMilliseconds
    self.forced = forced
    self.settings = settings
    self.payload = payload
  }

  /// The cues of a WebVTT text whose forced cues carry the identifier `forced` (the subtitle
  /// cache's files, `DiscKitSubtitles`' `SubtitleCache.encode`); blocks without a readable
  /// timing line are skipped.
  public static func cues(webVTT text: String) -> [SubtitleTextCue] {
    var cues: [SubtitleTextCue] = []
    // CR LF as LF, then the blocks: the runs of non-empty lines.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if byte == 0x0A, bytes.last == 0x0D { bytes.removeLast() }
      bytes.append(byte)
    }
    var blocks: [[String]] = [[]]
    for line in String(decoding: bytes, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    {
      if !line.isEmpty {
        blocks[blocks.count - 1].append(String(line))
      } else if blocks[blocks.count - 1].count > 0 {
        blocks.append([])
      }
    }
    for lines in blocks {
      guard let timing = lines.firstIndex(where: { $0.contains(" --> ") }) else { continue }
      let parts = lines[timing].split(separator: " ", omittingEmptySubsequences: true)
      guard parts.count >= 3, parts[1] == "-->", let start = milliseconds(parts[0]),
        let end = milliseconds(parts[2])
      else { continue }
      cues.append(
        SubtitleTextCue(
          startMilliseconds: start, endMilliseconds: end,
          forced: lines[..<timing].contains("forced"),
          settings: parts.dropFirst(3).joined(separator: " "),
          payload: lines[(timing + 1)...].joined(separator: "\n")))
    }
    return cues
  }

  /// Milliseconds of `HH:MM:SS.mmm` or `MM:SS.mmm`.
  static func milliseconds(_ text: Substring) -> Int64? {
    let main = text.split(separator: ".", omittingEmptySubsequences: false)
    guard main.count == 2, main[1].count == 3, let fraction = Int64(main[1]) else { return nil }
    let fields = main[0].split(separator: ":", omittingEmptySubsequences: false).map { Int64($0) }
    guard (2...3).contains(fields.count) else { return nil }
    var seconds: Int64 = 0
    for field in fields {
      guard let field, field >= 0, field < 1_000_000 else { return nil }
      seconds = seconds * 60 + field
    }
    return seconds * 1000 + fraction
  }

  /// `HH:MM:SS.mmm`.
  static func timestamp(_ milliseconds: Int64) -> String {
    let ms = max(0, milliseconds)
    func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let fraction = ms % 1000
    return two(ms / 3_600_000) + ":" + two(ms / 60000 % 60) + ":" + two(ms / 1000 % 60) + "."
      + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + "\(fraction)"
  }

  /// The cue as a WebVTT block (timing line and payload).
  var block: String {
    Self.timestamp(startMilliseconds) + " --> " + Self.timestamp(endMilliseconds)
      + (settings.isEmpty ? "" : " " + settings) + "\n" + payload
  }
}

/// What recognises a title's subtitle text for the server's WebVTT renditions (both calls block;
/// the server runs them off its event loops). ``SubtitleHelperProvider`` runs the
/// `disckit-subtitles` helper program; an embedder linking `DiscKitSubtitles` can answer from
/// `SubtitleCache` in its own process instead.
public protocol SubtitleTextProvider: Sendable {
  /// The subtitle streams of `title` (quick: no recognition).
  func streams(of title: DiscTitle, in disc: OpenedDisc) throws(StreamingError)
    -> [SubtitleStreamOffer]
  /// The cues of stream `id` of `title` on the continuous timeline (recognised when not cached:
  /// may take minutes).
  func cues(of title: DiscTitle, in disc: OpenedDisc, stream id: Int) throws(StreamingError)
    -> [SubtitleTextCue]
}

/// Subtitle text from the `disckit-subtitles` helper program (the only program linking
/// libtesseract), run as a child process: `hls-streams` lists the streams, `hls-cues` gives a
/// stream's cues from the subtitle cache (`$XDG_CACHE_HOME/disckit/subtitles`), recognising and
/// caching them first when needed. So `disckit-serve` loads no Tesseract and no language model
/// (tens of MiB per worker), a failing recognition cannot take the server down, the helper runs
/// at a lower priority than serving, and it ends with the server (it watches its standard input,
/// a pipe the server holds).
public struct SubtitleHelperProvider: SubtitleTextProvider {
  /// The helper's path.
  public var executable: String
  /// Given what the helper wrote to stderr when it succeeded (the malformed subtitle data it
  /// skipped while recognising a stream, `SubtitleRecognizer`'s report), one line at a time:
  /// `disckit serve` logs them as warnings, so that a caption missing from the text has a cause
  /// in the log.
  public var warning: @Sendable (String) -> Void

  /// A provider running `executable`, handing its warnings to `warning`.
  public init(executable: String, warning: @escaping @Sendable (String) -> Void = { _ in }) {
    self.executable = executable
    self.warning = warning
  }

  public func streams(of title: DiscTitle, in disc: OpenedDisc) throws(StreamingError)
    -> [SubtitleStreamOffer]
  {
    let text = try run(["hls-streams", disc.entry.absolutePath, title.key, String(title.angle)])
    var offers: [SubtitleStreamOffer] = []
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
      guard fields.count == 5, let id = Int(fields[0]), let number = Int(fields[1]) else {
        continue
      }
      let status = String(fields[4])
      offers.append(
        SubtitleStreamOffer(
          id: id, number: number, language: fields[2] == "-" ? nil : String(fields[2]),
          forcedStream: fields[3] == "1",
          unavailable: status == "ok"
            ? nil
            : String(status.hasPrefix("unavailable: ") ? status.dropFirst(13) : status[...])))
    }
    return offers
  }

  public func cues(of title: DiscTitle, in disc: OpenedDisc, stream id: Int)
    throws(StreamingError) -> [SubtitleTextCue]
  {
    let text = try run(
      [
        "hls-cues", disc.entry.absolutePath, title.key, String(title.angle), String(id),
        "--exit-with-stdin",
      ])
    return SubtitleTextCue.cues(webVTT: text)
  }

  /// Runs the helper with `arguments`; its standard output, or its stderr line as the error.
  func run(_ arguments: [String]) throws(StreamingError) -> String {
    let outcome: ChildProcess.Outcome
    do {
      outcome = try ChildProcess.run(executable, arguments)
    } catch {
      throw .disc(
        DiscKitError(.unsupported, executable, at: nil, "cannot run the subtitle helper: \(error)"))
    }
    guard outcome.status == 0 else {
      // The last line of what it wrote, white space around the whole left out.
      var message = Substring(String(decoding: outcome.errors, as: UTF8.self))
      while message.first?.isWhitespace == true { message.removeFirst() }
      while message.last?.isWhitespace == true { message.removeLast() }
      let line = message.split(separator: "\n").last.map(String.init) ?? "exit status"
      // The helper's exit status is its DiscKit error's code (`disckit`'s statuses).
      let code: DiscKitError.Code =
        switch outcome.status {
        case 65: .unsupported
        case 66: .notFound
        case 64: .invalidArgument
        default: .io
        }
      let name = executable.split(separator: "/").last.map(String.init) ?? executable
      throw .disc(
        DiscKitError(
          code, "subtitle helper", at: nil, "\(line) (\(name) exited with \(outcome.status))"))
    }
    for line in String(decoding: outcome.errors, as: UTF8.self).split(separator: "\n")
    where !line.allSatisfy(\.isWhitespace) {
      warning(String(line))
    }
    return String(decoding: outcome.output, as: UTF8.self)
  }
}
