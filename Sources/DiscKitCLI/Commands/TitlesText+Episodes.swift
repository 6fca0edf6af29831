import DiscKit

extension TitlesText {
  /// The episode lines of `disckit titles`: whether the disc is episodic and, when it is, one line
  /// per episode (number, where it is: the title and range, or a DVD PGC no chapter names,
  /// duration, chapters, variants, evidence), then the play-all
  /// and the extras.
  static func episodeLines(_ d: TitlesDocument) -> [String] {
    guard let list = d.episodes else { return [] }
    let name: (String) -> String = { d.kind == .dvd ? "title \($0)" : $0 + ".mpls" }
    guard list.episodic else {
      let word = list.confidence == .ambiguous ? "ambiguous" : "none"
      var lines = ["Episodes: \(word) (\(list.reason))"]
      if let candidates = list.candidates, !candidates.isEmpty {
        lines.append("  candidates: " + TextJoin.join(candidates.map(name), separator: ", "))
      }
      return lines
    }
    var lines = [
      "Episodes: \(list.episodes.count)"
        + (list.layout.map {
          " (\($0.rawValue)" + (list.confidence.map { ", \($0.rawValue)" } ?? "") + ")"
        } ?? "")
        + ": \(list.reason)"
    ]
    for e in list.episodes {
      let range =
        e.start90k == 0 && e.chapters.isEmpty
        ? ""
        : " \(MediaTime(ticks: e.start90k))-\(MediaTime(ticks: e.end90k))"
      let digits = String(e.number)
      var line =
        "  e\(digits.count < 2 ? "0" + digits : digits) \(name(e.key))"
        + (e.programChain.map { " PGC \($0)" } ?? "") + "\(range)  \(e.duration)"
      if let first = e.chapters.first, let last = e.chapters.last {
        line += first == last ? "  chapter \(first)" : "  chapters \(first)-\(last)"
      }
      if !e.variants.isEmpty {
        line += "  variants " + TextJoin.join(e.variants.map(name), separator: ", ")
      }
      line += "  [\(e.titleKey)]"
      lines.append(line)
      if let evidence = e.evidence.first {
        lines.append("      \(evidence.kind.rawValue): \(evidence.detail)")
      }
    }
    if !list.playAll.isEmpty {
      lines.append("  play-all: " + TextJoin.join(list.playAll.map(name), separator: ", "))
    }
    for button in list.playAllButtons ?? [] { lines.append("  play-all: \(button)") }
    if !list.extras.isEmpty {
      lines.append("  extras: " + TextJoin.join(list.extras.map(name), separator: ", "))
    }
    return lines
  }
}
