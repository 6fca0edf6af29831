@_spi(Formats) import DiscKit
import Dispatch
import Foundation

/// A decoded subtitle picture set placed on the title timeline.
public struct TimedSubtitleEvent: Sendable, Hashable {
  /// When it shows (90 kHz, title time).
  public var start90k: Int64
  /// When it hides, if the stream says (DVD stop command), else the next event does.
  public var end90k: Int64?
  /// Where its piece (play item, cell) ends on the title timeline: nothing outlives it.
  public var pieceEnd90k: Int64
  /// The event itself (pictures, PTS in the stream's own clock).
  public var event: SubtitleEvent
}

/// Recognises the text of a title's subtitle streams: demuxes the stream from the title's bytes
/// piece by piece (play items, cells), decodes the pictures (``PGSDecoder``,
/// ``DVDSubpictureDecoder``), places them on the title timeline and reads them with libtesseract
/// in the stream's language, several pictures at once (one Tesseract instance per worker).
public enum SubtitleRecognizer {
  /// The decoded events of `stream`, placed on `timeline`, in time order.
  ///
  /// Malformed subtitle data is skipped as players skip it (``PGSDecoder``,
  /// ``DVDSubpictureDecoder`` say what is skipped and what is an error): `skipped` is given
  /// each error, in stream order, so that a caller can tell that the text may miss a caption.
  public static func events(
    of title: DiscTitle, stream: SubtitleStreamInfo, timeline: TitleTimeline = .continuous,
    skipped: (DiscKitError) -> Void = { _ in }
  ) throws(DiscKitError) -> [TimedSubtitleEvent] {
    let map = try SubtitleTimeMap(title: title, timeline: timeline)
    let source = try title.byteSource()
    var timed: [TimedSubtitleEvent] = []
    var palette: [UInt32] = []
    var frame = (1920, 1080)
    if case .dvd(let dvd, _) = title.content {
      palette = dvd.firstProgramChain.palette
      frame = (dvd.video.width, dvd.video.height)
    }
    for piece in map.pieces {
      var events: [SubtitleEvent] = []
      switch stream.coding {
      case .pgs:
        var decoder = PGSDecoder()
        var last: Int64 = 0
        for packet in try SubtitlePacketReader.transportStream(
          source, pid: stream.id, range: piece.range)
        {
          last = packet.pts90k ?? last
          events += decoder.add(
            segments: packet.data[...], pts90k: last, offset: packet.offset)
        }
        decoder.errors.forEach(skipped)
      case .dvdSubpicture:
        for unit in try SubtitlePacketReader.programStream(
          source, substream: stream.id, range: piece.range)
        {
          guard let pts = unit.pts90k else { continue }
          do {
            if let event = try DVDSubpictureDecoder.decode(
              unit.data, pts90k: pts, palette: palette, frameWidth: frame.0,
              frameHeight: frame.1, offset: unit.offset)
            {
              events.append(event)
            }
          } catch {
            skipped(error)
          }
        }
      }
      for event in events {
        guard let start = map.titleTime(ofPTS: event.pts90k, in: piece) else { continue }
        let end = event.endPTS90k.flatMap { map.titleTime(ofPTS: $0, in: piece) }
        timed.append(
          TimedSubtitleEvent(start90k: start, end90k: end, pieceEnd90k: piece.end90k, event: event))
      }
    }
    return timed.enumerated().sorted {
      ($0.element.start90k, $0.offset) < ($1.element.start90k, $1.offset)
    }
    .map(\.element)
  }

  /// The text of `stream` of `title` on `timeline`.
  ///
  /// - Parameter skipped: given each error of the malformed subtitle data skipped (see
  ///   ``events(of:stream:timeline:skipped:)``).
  /// - Throws: ``DiscKitError/Code/unsupported`` naming the Debian package to install when the
  ///   stream's language has no installed Tesseract data (or the stream has no language); the
  ///   read errors of the title's bytes.
  public static func track(
    of title: DiscTitle, stream: SubtitleStreamInfo, timeline: TitleTimeline = .continuous,
    workers: Int = defaultWorkers, skipped: (DiscKitError) -> Void = { _ in }
  ) throws(DiscKitError) -> SubtitleTrack {
    let code = try languageData(for: stream)
    let events = try events(of: title, stream: stream, timeline: timeline, skipped: skipped)
    return SubtitleTrack(
      stream: stream, cues: try cues(events, code: code, workers: workers))
  }

  /// What a command prints when `skipped` (the errors ``events(of:stream:timeline:skipped:)``
  /// handed over) is not empty: how many parts of `stream` were skipped and the first error.
  public static func skippedReport(_ skipped: [DiscKitError], stream: SubtitleStreamInfo)
    -> String?
  {
    guard let first = skipped.first else { return nil }
    return
      "subtitle stream \(stream.number): skipped \(skipped.count) malformed part(s), the first: \(first)"
  }

  /// Two workers per core would only wait on each other: one per active core.
  public static var defaultWorkers: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  /// Tesseract's data name for the stream, or the error saying what to install.
  public static func languageData(for stream: SubtitleStreamInfo) throws(DiscKitError) -> String {
    let what =
      "subtitle stream \(stream.number) (\(stream.coding == .pgs ? "PID" : "substream") 0x\(String(stream.id, radix: 16)))"
    guard let code = stream.tesseractCode else {
      throw DiscKitError(
        .unsupported, what,
        "the disc gives no language (\(stream.language ?? "none")), so no Tesseract data can be chosen; nothing is guessed"
      )
    }
    guard TesseractLanguage.dataDirectory != nil, TesseractLanguage.isInstalled(code) else {
      throw DiscKitError(
        .unsupported, what,
        "no Tesseract data for language \(stream.language ?? code) (\(code).traineddata): install the Debian package \(TesseractLanguage.package(for: code))"
      )
    }
    return code
  }

  /// Cues of `events` (time order), each picture read in language `code`.
  public static func cues(_ events: [TimedSubtitleEvent], code: String, workers: Int)
    throws(DiscKitError) -> [SubtitleCue]
  {
    var pictures: [SubtitleBitmap] = []
    for e in events { pictures += e.event.bitmaps }
    let texts = try recognize(pictures, code: code, workers: workers)
    var cues: [SubtitleCue] = []
    var p = 0
    for (i, e) in events.enumerated() {
      let next = i + 1 < events.count ? events[i + 1].start90k : Int64.max
      var end = min(next, e.pieceEnd90k)
      if let stop = e.end90k { end = min(end, stop) }
      for b in e.event.bitmaps {
        defer { p += 1 }
        let text = texts[p]
        let lines = text.lines
        guard end > e.start90k, !lines.isEmpty else { continue }
        let centre = b.y + b.height / 2
        let cue = SubtitleCue(
          startMilliseconds: milliseconds(e.start90k), endMilliseconds: milliseconds(end),
          lines: lines,
          position: e.event.frameHeight > 0 && centre < e.event.frameHeight / 2 ? .top : .bottom,
          forced: b.forced, italic: text.italic.contains(true) && !text.italic.contains(false))
        // A display set that shows the same text again (a palette update) continues the cue.
        if let j = cues.lastIndex(where: {
          $0.lines == cue.lines && $0.position == cue.position && $0.forced == cue.forced
            && $0.italic == cue.italic
        }), cues[j].endMilliseconds == cue.startMilliseconds {
          cues[j].endMilliseconds = cue.endMilliseconds
        } else {
          cues.append(cue)
        }
      }
    }
    return cues
  }

  /// 90 kHz ticks to milliseconds, rounded.
  static func milliseconds(_ ticks: Int64) -> Int64 {
    ticks >= 0 ? (ticks + 45) / 90 : -((-ticks + 45) / 90)
  }

  /// The lines of text of each picture, with their slant.
  public static func recognize(_ pictures: [SubtitleBitmap], code: String, workers: Int)
    throws(DiscKitError) -> [RecognizedText]
  {
    guard !pictures.isEmpty else { return [] }
    guard let directory = TesseractLanguage.dataDirectory else {
      throw DiscKitError(
        .unsupported, "Tesseract", "no tessdata folder (install tesseract-ocr-eng)")
    }
    let results = ResultBox(count: pictures.count)
    let count = max(1, min(workers, pictures.count))
    DispatchQueue.concurrentPerform(iterations: count) { worker in
      let made = Result { () throws(DiscKitError) -> TesseractEngine in
        try TesseractEngine(code: code, directory: directory)
      }
      guard case .success(let engine) = made else {
        if case .failure(let error) = made { results.fail(error) }
        return
      }
      var i = worker
      while i < pictures.count {
        var text = RecognizedText(lines: [], italic: [])
        for line in OCRPreparation.linePictures(pictures[i]) {
          let words = clean(engine.line(line.picture), code: code)
          guard !words.isEmpty else { continue }
          text.lines.append(words)
          text.italic.append(line.slant >= OCRPreparation.italicSlant)
        }
        results.set(i, text)
        i += count
      }
    }
    if let error = results.error { throw error }
    return results.values
  }

  /// Whitespace trimmed and collapsed; in Chinese and Japanese the spaces Tesseract puts between
  /// ideographs and kana removed.
  static func clean(_ raw: String, code: String) -> String {
    let words = raw.split(whereSeparator: { $0.isWhitespace })
    guard ["jpn", "jpn_vert", "chi_sim", "chi_tra"].contains(code) else {
      return words.joined(separator: " ")
    }
    var out = ""
    for word in words {
      if let last = out.last, let first = word.first, !(isWide(last) || isWide(first)) {
        out += " "
      }
      out += word
    }
    // Tesseract reads full-width punctuation after ideographs and kana as ASCII.
    let fullWidth: [Character: Character] = ["?": "？", "!": "！", ":": "：", "(": "（", ")": "）"]
    var chars = Array(out)
    for i in chars.indices {
      guard let wide = fullWidth[chars[i]] else { continue }
      if (i > 0 && isWide(chars[i - 1])) || (i + 1 < chars.count && isWide(chars[i + 1])) {
        chars[i] = wide
      }
    }
    return String(chars)
  }

  /// CJK ideographs, kana, full-width forms and CJK punctuation.
  static func isWide(_ c: Character) -> Bool {
    guard let v = c.unicodeScalars.first?.value else { return false }
    return (0x3000...0x30FF).contains(v) || (0x3400...0x9FFF).contains(v)
      || (0xFF00...0xFFEF).contains(v) || (0xAC00...0xD7AF).contains(v)
  }
}

/// The text read from one picture: its lines, top to bottom, and whether each is slanted
/// (italic or oblique type, ``OCRPreparation/slant(ink:width:rows:columns:)``).
public struct RecognizedText: Sendable, Hashable {
  /// The lines.
  public var lines: [String]
  /// Per line: slanted.
  public var italic: [Bool]
}

/// Results written by the recognition workers (each index by one worker).
final class ResultBox: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var values: [RecognizedText]
  private(set) var error: DiscKitError?

  init(count: Int) {
    values = Array(repeating: RecognizedText(lines: [], italic: []), count: count)
  }

  func set(_ i: Int, _ lines: RecognizedText) {
    lock.lock()
    values[i] = lines
    lock.unlock()
  }

  func fail(_ e: DiscKitError) {
    lock.lock()
    if error == nil { error = e }
    lock.unlock()
  }
}
