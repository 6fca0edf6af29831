import DiscKit

/// The text form of `disckit titles` (the JSON form is ``TitlesDocument`` itself).
enum TitlesText {
  static func lines(_ document: TitlesDocument) -> [String] {
    (document.kind == .dvd ? dvd(document) : bluray(document)) + episodeLines(document)
  }

  private static func bluray(_ d: TitlesDocument) -> [String] {
    var lines = ["Main title: \(d.main.map { $0 + ".mpls" } ?? "none") (\(d.reason))"]
    lines += decision(d, name: { $0 + ".mpls" })
    if let versions = d.versions, !versions.isEmpty {
      lines.append(
        "Versions of the main title: "
          + TextJoin.join(versions.map { "\($0.key).mpls (\($0.detail))" }, separator: ", "))
    }
    if let menus = d.menusRead, !menus.isEmpty {
      lines.append(
        "Menus read: "
          + TextJoin.join(
            menus.map { m in
              let found =
                m.error != nil ? "unreadable" : m.buttons.map { "\($0) buttons" } ?? "no menu"
              return "\(m.clip).m2ts (\(m.bytes) bytes, \(found))"
            }, separator: ", "))
    }
    for t in d.titles {
      let s = t.streams
      let number = t.number.map { DecimalText.integer($0, width: 3) } ?? "  -"
      var line =
        "\(number) \(t.playlist ?? t.key)  \(t.duration ?? "-")  "
        + "chapters \(DecimalText.integer(t.chapters.count, width: 3))  "
        + "clips \(DecimalText.integer(t.clips?.count ?? 0, width: 3))  angles \(t.angles)  "
        + "\(DecimalText.mebibytes(t.size ?? 0, width: 8)) MiB  "
        + "V:\(s.video.count) A:\(s.audio.count) PG:\(s.subtitles.count) IG:\(s.interactive.count)"
      let ranges = s.video.compactMap { $0.enhancementLayer == true ? "EL" : $0.dynamicRange }
      if !ranges.isEmpty { line += " " + TextJoin.join(ranges, separator: "+") }
      if t.main { line += "  [main]" }
      if let by = t.playedByTitles, !by.isEmpty {
        line +=
          "  played by "
          + TextJoin.join(
            by.map { $0 == 0 ? "first play" : "title \($0)" }, separator: ", ")
      }
      if let excluded = t.excluded { line += "  (\(excluded))" }
      if let error = t.error { line += "  error: \(error)" }
      lines.append(line)
      if t.main { lines += streamLines(s) }
    }
    return lines
  }

  /// One indented line per stream of the main title: kind, PID, codec and what the disc states
  /// about it (language, format, channels, sample rate, dynamic range, colour space, the
  /// sub-path of an out-of-mux stream).
  private static func streamLines(_ s: TitlesDocument.Streams) -> [String] {
    let kinds: [(String, [TitlesDocument.Stream])] = [
      ("video", s.video), ("audio", s.audio), ("PG", s.subtitles), ("IG", s.interactive),
      ("secondary audio", s.secondaryAudioStreams ?? []),
    ]
    var lines: [String] = []
    for (kind, streams) in kinds {
      for stream in streams {
        var parts = [
          "    \(kind) 0x" + String(stream.id, radix: 16, uppercase: true), stream.codec,
        ]
        if let language = stream.language { parts.append(language) }
        if let format = stream.format { parts.append(format) }
        if let channels = stream.channels { parts.append("\(channels)ch") }
        if let rate = stream.sampleRate {
          parts.append("\(rate) Hz")
        } else if let rate = stream.rate {
          parts.append(rate)
        }
        if let bits = stream.bitDepth { parts.append("\(bits)-bit") }
        // An enhancement layer's range is Dolby Vision by definition: said once, below.
        if let range = stream.dynamicRange, stream.enhancementLayer != true { parts.append(range) }
        if let space = stream.colorSpace { parts.append(space) }
        if stream.enhancementLayer == true { parts.append("Dolby Vision enhancement layer") }
        if let path = stream.subPath {
          parts.append("in sub-path \(path) (out-of-mux: not in the M2TS/stream output)")
        }
        lines.append(TextJoin.join(parts, separator: " "))
      }
    }
    return lines
  }

  private static func dvd(_ d: TitlesDocument) -> [String] {
    var lines: [String] = []
    for t in d.titles {
      var line = "title \(t.key)\(t.main ? " (main)" : "")"
      if let dvd = t.dvd { line += ": vts \(dvd.titleSet) ttn \(dvd.titleInSet)" }
      if let duration = t.duration90k, let dvd = t.dvd {
        line +=
          ", \(DVDSmartTitleSelector.format(duration)), \(t.chapters.count) chapters, \(dvd.cells) cells, \(t.angles) angle\(t.angles == 1 ? "" : "s")"
      }
      if let v = t.dvd?.video { line += ", \(v.format) \(v.aspect)" }
      if !t.streams.audio.isEmpty {
        line +=
          ", audio "
          + TextJoin.join(
            t.streams.audio.map { "\($0.codec)/\($0.channels ?? 0)ch/\($0.language ?? "und")" },
            separator: " ")
      }
      if !t.streams.subtitles.isEmpty {
        line +=
          ", subtitles "
          + TextJoin.join(
            t.streams.subtitles.map {
              ($0.language ?? "und") + ($0.forced == true ? "(forced)" : "")
            }, separator: " ")
      }
      if let size = t.size { line += ", \(size) bytes" }
      if let error = t.error { line += ", error: \(error)" }
      if let why = t.excluded { line += " [set aside: \(why)]" }
      lines.append(line)
    }
    lines.append("main title: \(d.main ?? "none") (\(d.selection.rawValue): \(d.reason))")
    lines += decision(d, name: { "title " + $0 })
    return lines
  }

  /// `Confidence: ...` and one `  evidence: ...` line per piece of evidence.
  private static func decision(_ d: TitlesDocument, name: (String) -> String) -> [String] {
    guard let confidence = d.confidence else { return [] }
    var line = "Confidence: \(confidence.rawValue)"
    if let candidates = d.candidates, !candidates.isEmpty {
      let shown = candidates.prefix(8).map(name)
      let more = candidates.count > 8 ? " and \(candidates.count - 8) more" : ""
      line += " (indistinguishable: " + TextJoin.join(shown, separator: ", ") + more + ")"
    }
    var lines = [line]
    for e in d.evidence ?? [] {
      lines.append("  evidence: \(name(e.key)): \(e.kind.rawValue): \(e.detail)")
    }
    return lines
  }
}
