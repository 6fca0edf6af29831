extension DVDDisc {
  /// The episodes of a DVD (see ``EpisodeList``), from its structure: a *play-all* title whose
  /// chapters are, run after run, the chapters of two or more other titles (the same cells of
  /// the title set, or its own copy of them: chapter lengths within 2 s and 5 %), each five
  /// minutes or longer and of similar lengths, together most of the play-all. Those titles
  /// are the episodes, in the play-all's order; titles playing the same cells as an episode (one
  /// per audio track, a commentary) are its variants. Without such a play-all the disc is not
  /// listed as episodic (a title with the episodes as chapter ranges reached by `JumpVTS_PTT`
  /// buttons, and play-alls that are only a GPRM flag, are not detected yet).
  package func episodeList(main: Int?) -> EpisodeList {
    struct Entry {
      var number: Int
      var titleSet: Int
      var chapters: [Int64]
      /// Each chapter's cells (sector ranges).
      var cells: [[ClosedRange<UInt32>]]
      var duration: Int64
    }
    var entries: [Entry] = []
    for (index, result) in titles.enumerated() {
      guard case .success(let title) = result, !title.chapters.isEmpty else { continue }
      let cells = title.chapters.map { chapter in
        title.cells.filter { $0.chapter == chapter.number && $0.angle <= 1 }.map {
          $0.playback.firstSector...max($0.playback.firstSector, $0.playback.lastSector)
        }
      }
      entries.append(
        Entry(
          number: index + 1, titleSet: title.titleSet,
          chapters: title.chapters.map(\.duration90k), cells: cells,
          duration: title.duration90k))
    }
    func sameChapter(_ a: Entry, _ i: Int, _ b: Entry, _ j: Int) -> Bool {
      if a.titleSet == b.titleSet, !a.cells[i].isEmpty, a.cells[i] == b.cells[j] { return true }
      let x = a.chapters[i]
      let y = b.chapters[j]
      let tolerance = min(2 * 90_000, max(x, y) / 20)
      return abs(x - y) <= tolerance && min(x, y) > 0
    }
    /// Whether `u`'s chapters are `t`'s from chapter `at` on.
    func contains(_ t: Entry, _ u: Entry, at: Int) -> Bool {
      guard at + u.chapters.count <= t.chapters.count else { return false }
      return u.chapters.indices.allSatisfy { sameChapter(t, at + $0, u, $0) }
    }
    // Titles that play the same chapters as another: one episode (the lower number first).
    var copyOf: [Int: Int] = [:]
    for (a, x) in entries.enumerated() {
      for y in entries[..<a]
      where copyOf[y.number] == nil && x.chapters.count == y.chapters.count
        && contains(x, y, at: 0)
      {
        copyOf[x.number] = y.number
        break
      }
    }
    var best: (playAll: Entry, episodes: [(Entry, Int)])?
    for t in entries where t.chapters.count >= 2 && copyOf[t.number] == nil {
      var found: [(Entry, Int)] = []
      var at = 0
      while at < t.chapters.count {
        // The longest title (most chapters) whose chapters start here.
        let here = entries.filter { u in
          u.number != t.number && copyOf[u.number] == nil
            && u.chapters.count < t.chapters.count && contains(t, u, at: at)
            && !found.contains(where: { $0.0.number == u.number })
        }.max { ($0.chapters.count, -$0.number) < ($1.chapters.count, -$1.number) }
        if let u = here {
          found.append((u, at))
          at += u.chapters.count
        } else {
          at += 1
        }
      }
      let covered = found.reduce(Int64(0)) { $0 + $1.0.duration }
      let lengths = found.map(\.0.duration)
      // Episodes: five minutes or longer, of similar lengths, most of the play-all.
      guard found.count >= 2, covered * 10 >= t.duration * 8,
        let shortest = lengths.min(), let longest = lengths.max(), shortest >= 300 * 90_000,
        longest * 2 <= shortest * 3
      else { continue }
      if best.map({ $0.episodes.count < found.count }) ?? true { best = (t, found) }
    }
    guard let best else {
      return .none(
        "no title plays the chapters of two or more other titles in a row (a title per episode with a play-all)"
      )
    }
    var episodes: [Episode] = []
    for (k, (u, at)) in best.episodes.enumerated() {
      let variants = entries.filter { copyOf[$0.number] == u.number }.map { String($0.number) }
      episodes.append(
        Episode(
          number: k + 1, key: String(u.number), start90k: 0, end90k: u.duration,
          chapters: Array(1...u.chapters.count), variants: variants,
          evidence: [
            TitleEvidence(
              kind: .heuristic, key: String(u.number),
              detail:
                "its chapters are chapters \(at + 1)-\(at + u.chapters.count) of play-all title \(best.playAll.number)"
            )
          ]))
    }
    let playAll =
      [best.playAll.number]
      + entries.filter { copyOf[$0.number] == best.playAll.number }.map(\.number)
    return EpisodeList(
      layout: .titles, confidence: .heuristic,
      reason:
        "title \(best.playAll.number) plays the chapters of titles \(best.episodes.map { String($0.0.number) }.joined(separator: ", ")) in a row",
      episodes: episodes, playAll: playAll.map(String.init))
  }

  /// An episode as a title of its own: a whole title (an episode that is a chapter range of a
  /// DVD title is not served yet).
  package func episodeTitle(_ episode: Episode, angle: Int) throws(DiscKitError) -> DiscTitle {
    guard let number = Int(episode.key), number >= 1, number <= titles.count,
      case .success(let title) = titles[number - 1]
    else {
      throw DiscKitError(.notFound, "title \(episode.key)", at: nil, "no such title on the disc")
    }
    guard episode.start90k == 0, episode.end90k >= title.duration90k else {
      throw DiscKitError(
        .unsupported, "episode \(episode.titleKey)", at: nil,
        "a DVD episode that is a chapter range of title \(number) is not served as a title yet; read that chapter range of title \(number) instead"
      )
    }
    return try DiscTitle(dvd: self, number: number, angle: angle)
  }
}
