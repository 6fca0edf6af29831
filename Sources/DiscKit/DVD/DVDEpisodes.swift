/// A DVD title as the episode search compares it: its chapters' lengths and cells.
struct DVDEpisodeEntry {
  var number: Int
  var titleSet: Int
  var chapters: [Int64]
  /// Each chapter's cells (sector ranges).
  var cells: [[ClosedRange<UInt32>]]
  var duration: Int64

  /// Whether chapter `i` of `self` plays what chapter `j` of `other` plays: the same cells of
  /// the title set, or (its own copy) a length within 2 s and 5 %.
  func sameChapter(_ i: Int, _ other: DVDEpisodeEntry, _ j: Int) -> Bool {
    if titleSet == other.titleSet, !cells[i].isEmpty, cells[i] == other.cells[j] { return true }
    let x = chapters[i]
    let y = other.chapters[j]
    let tolerance = min(2 * 90_000, max(x, y) / 20)
    return abs(x - y) <= tolerance && min(x, y) > 0
  }

  /// Whether `u`'s chapters are `self`'s from chapter `at` (0-based) on.
  func contains(_ u: DVDEpisodeEntry, at: Int) -> Bool {
    guard at + u.chapters.count <= chapters.count else { return false }
    return u.chapters.indices.allSatisfy { sameChapter(at + $0, u, $0) }
  }
}

/// What the structure of a DVD says: titles that are copies of another, and a play-all title
/// holding two or more episode titles in a row.
struct DVDEpisodeStructure {
  var entries: [DVDEpisodeEntry]
  /// A title → the lower-numbered title playing the same chapters.
  var copyOf: [Int: Int]
  /// The play-all and its episodes (with the 0-based chapter each starts at), when found.
  var playAll: (entry: DVDEpisodeEntry, episodes: [(DVDEpisodeEntry, Int)])?

  /// An episode five minutes or longer.
  static let episodeMinimum: Int64 = 300 * 90_000

  /// Lengths alike: the longest at most 1.5 times the shortest, the shortest an episode's.
  static func alike(_ lengths: [Int64]) -> Bool {
    guard let lo = lengths.min(), let hi = lengths.max() else { return false }
    return lo >= episodeMinimum && hi * 2 <= lo * 3
  }

  func entry(_ number: Int) -> DVDEpisodeEntry? { entries.first { $0.number == number } }

  /// The title whose copy `number` is (itself when none).
  func representative(_ number: Int) -> Int { copyOf[number] ?? number }

  /// Titles playing the same chapters as `number`.
  func copies(of number: Int) -> [Int] {
    entries.filter { copyOf[$0.number] == number }.map(\.number)
  }

  init(_ disc: DVDDisc) {
    var entries: [DVDEpisodeEntry] = []
    for (index, result) in disc.titles.enumerated() {
      guard case .success(let title) = result, !title.chapters.isEmpty else { continue }
      let cells = title.chapters.map { chapter in
        title.cells.filter { $0.chapter == chapter.number && $0.angle <= 1 }.map {
          $0.playback.firstSector...max($0.playback.firstSector, $0.playback.lastSector)
        }
      }
      entries.append(
        DVDEpisodeEntry(
          number: index + 1, titleSet: title.titleSet,
          chapters: title.chapters.map(\.duration90k), cells: cells,
          duration: title.duration90k))
    }
    self.entries = entries
    // Titles that play the same chapters as another: one episode (the lower number first).
    var copyOf: [Int: Int] = [:]
    for (a, x) in entries.enumerated() {
      for y in entries[..<a]
      where copyOf[y.number] == nil && x.chapters.count == y.chapters.count
        && x.contains(y, at: 0)
      {
        copyOf[x.number] = y.number
        break
      }
    }
    self.copyOf = copyOf
    var best: (entry: DVDEpisodeEntry, episodes: [(DVDEpisodeEntry, Int)])?
    for t in entries where t.chapters.count >= 2 && copyOf[t.number] == nil {
      var found: [(DVDEpisodeEntry, Int)] = []
      var at = 0
      while at < t.chapters.count {
        // The longest title (most chapters) whose chapters start here.
        let here = entries.filter { u in
          u.number != t.number && copyOf[u.number] == nil
            && u.chapters.count < t.chapters.count && t.contains(u, at: at)
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
      // Episodes: five minutes or longer, of similar lengths, most of the play-all.
      guard found.count >= 2, covered * 10 >= t.duration * 8, Self.alike(found.map(\.0.duration))
      else { continue }
      if best.map({ $0.episodes.count < found.count }) ?? true { best = (t, found) }
    }
    playAll = best
  }

  /// The play-all's title and its copies.
  var playAllKeys: [Int] {
    guard let p = playAll?.entry.number else { return [] }
    return [p] + copies(of: p)
  }
}

extension DVDDisc {
  /// The episodes of a DVD (see ``EpisodeList``): its menus first, then its structure.
  ///
  /// 1. **Menus** (``DVDEpisodeMenuWalk``: every button of every menu page the navigation shows,
  ///    each press followed through the titles it plays). A page whose buttons start one title
  ///    at two or more chapters (`JumpVTS_PTT`, `LinkPTT`) makes the chapter ranges between
  ///    those starts the episodes (each five minutes or longer, of similar lengths, together most
  ///    of the title, not a fixed chapter interval); a page whose buttons start two or more
  ///    titles of similar length from their beginning makes those titles the episodes; a button
  ///    that plays two or more such titles whole in a row (a GPRM flag the post commands test)
  ///    is a play-all button, and its titles are the episodes when no page lists them. When the
  ///    ranges a page starts are each the chapters of one PGC of a multi-PGC title (buttons that
  ///    set a register the title's first PGC tests to `LinkPGCN`; the PGCs chained by
  ///    `LinkNextPGC` or post commands), the layout is ``EpisodeLayout/programChains``. A button
  ///    that plays the title from its first chapter to its last names it the play-all. Buttons
  ///    of every display mode's group are pressed (a 16:9 menu's wide, letterbox and pan & scan
  ///    groups). PGCs of one title that a page's buttons start, or that a button plays whole in a
  ///    row, when no chapter of the title names some of them (reached by `LinkPGCN` from the
  ///    buttons' dispatch, post or cell commands; each outcome of an `rnd` a press of its own):
  ///    one episode per PGC (``EpisodeLayout/programChains``), a PGC no chapter names an episode
  ///    of its own (``Episode/programChain``), the buttons playing them in a row the play-all
  ///    buttons. The page with the most episodes wins.
  ///    Without a menu deciding, First Play's own run playing two or more such PGCs of one title
  ///    whole in a row (post commands' `LinkPGCN`), one of them named by no chapter, makes them
  ///    the episodes the same way (navigation, no play-all button).
  /// 2. **Structure**: a *play-all* title whose chapters are, run after run, the chapters of two
  ///    or more other titles (the same cells of the title set, or its own copy of them: chapter
  ///    lengths within 2 s and 5 %), each five minutes or longer and of similar lengths, together
  ///    most of the play-all. Those titles are the episodes, in the play-all's order.
  /// 3. **PGC structure**: a title of two or more PGCs, each a run of its chapters five minutes
  ///    or longer, of similar lengths: one episode per PGC (``EpisodeLayout/programChains``,
  ///    heuristic, in the order of its chapters); linked in a row by their headers (next PGC),
  ///    the title is the play-all, else none is named (playing the title stops after its first
  ///    PGC; a player's chapter search starts each).
  /// Titles playing the same chapters as an episode (one per audio track, a commentary) are its
  /// variants. Without either, two or more titles of similar length, the longest on the disc,
  /// are reported as ``TitleConfidence/ambiguous`` candidates (episodes, or versions of one
  /// feature: nothing on the disc tells).
  package func episodeList(main: Int?) -> EpisodeList {
    let structure = DVDEpisodeStructure(self)
    let search = navigationShared.search(self)
    let presses = search.presses
    if let found = episodesFromMenus(presses, structure) { return found }
    // First Play's own run playing PGCs in a row, one named by no chapter (no menu to choose).
    if anyOutsideChapters(CollectionOfOne(search.firstPlay)),
      let found = programChainsOutsideChapters([("First Play", search.firstPlay)], pageName: nil)
    {
      return found
    }
    if let best = structure.playAll {
      var episodes: [Episode] = []
      for (k, (u, at)) in best.episodes.enumerated() {
        episodes.append(
          Episode(
            number: k + 1, key: String(u.number), start90k: 0, end90k: u.duration,
            chapters: Array(1...u.chapters.count),
            variants: structure.copies(of: u.number).map(String.init),
            evidence: [
              TitleEvidence(
                kind: .heuristic, key: String(u.number),
                detail:
                  "its chapters are chapters \(at + 1)-\(at + u.chapters.count) of play-all title \(best.entry.number)"
              )
            ]))
      }
      return EpisodeList(
        layout: .titles, confidence: .heuristic,
        reason:
          "title \(best.entry.number) plays the chapters of titles \(TextJoin.join(best.episodes.map { String($0.0.number) }, separator: ", ")) in a row",
        episodes: episodes, playAll: structure.playAllKeys.map(String.init),
        playAllButtons: playAllButtons(presses, episodes: best.episodes.map(\.0.number), structure))
    }
    if let found = programChainEpisodes() { return found }
    // Undecided: titles of similar length, the longest on the disc, that nothing chains.
    let reps = structure.entries.filter { structure.copyOf[$0.number] == nil }
    if let longest = reps.map(\.duration).max() {
      let near = reps.filter { $0.duration * 3 >= longest * 2 }
      if near.count >= 2, DVDEpisodeStructure.alike(near.map(\.duration)) {
        return .ambiguous(
          "titles \(TextJoin.join(near.map { String($0.number) }, separator: ", ")) are of similar length and nothing on the disc plays them as episodes (no menu button starts them, no play-all holds them): episodes, or versions of one feature",
          candidates: near.map { String($0.number) })
      }
    }
    return .none(
      "no menu button starts episodes and no title plays the chapters of two or more other titles in a row"
    )
  }

  /// Without menus: a title of two or more PGCs, each a run of its chapters five minutes or
  /// longer, of similar lengths: one episode per PGC (the title with the most such PGCs, one
  /// whose headers link them first), from the structure. Linked in a row by their headers
  /// (`NextPGC`), the title is the play-all; else (nothing links them and no menu starts them)
  /// each PGC its chapters start is an episode all the same, in the order of its chapters: a
  /// player's chapter search starts each, and playing the title stops after its first PGC, so
  /// no play-all is named.
  func programChainEpisodes() -> EpisodeList? {
    var best: (list: EpisodeList, linked: Bool)?
    for (index, result) in titles.enumerated() {
      guard case .success(let t) = result, t.programChains.count >= 2 else { continue }
      // Each PGC's chapters in one run, PGCs in the order of the chapters.
      var runs: [(pgc: Int, chapters: ClosedRange<Int>)] = []
      for chapter in t.chapters {
        if let last = runs.last, last.pgc == chapter.programChain {
          runs[runs.count - 1].chapters = last.chapters.lowerBound...chapter.number
        } else {
          runs.append((chapter.programChain, chapter.number...chapter.number))
        }
      }
      guard runs.count == t.programChains.count,
        Set(runs.map(\.pgc)).count == runs.count
      else { continue }
      let isLinked = linked(set: t.titleSet, runs.map(\.pgc))
      let lengths = runs.map { r in
        t.chapters[(r.chapters.lowerBound - 1)..<r.chapters.upperBound].reduce(Int64(0)) {
          $0 + $1.duration90k
        }
      }
      guard DVDEpisodeStructure.alike(lengths),
        best.map({ ($0.list.episodes.count, $0.linked ? 1 : 0) < (runs.count, isLinked ? 1 : 0) })
          ?? true
      else { continue }
      let number = index + 1
      var episodes: [Episode] = []
      for (k, run) in runs.enumerated() {
        let start = t.chapters[run.chapters.lowerBound - 1].start90k
        let range = "chapters \(run.chapters.lowerBound)-\(run.chapters.upperBound)"
        episodes.append(
          Episode(
            number: k + 1, key: String(number), start90k: start, end90k: start + lengths[k],
            chapters: Array(run.chapters),
            evidence: [
              TitleEvidence(
                kind: .heuristic, key: String(number),
                detail: isLinked
                  ? "PGC \(run.pgc) of title \(number) (\(range))"
                  : "structure: PGC \(run.pgc) of title \(number) (\(range)), which its chapter \(run.chapters.lowerBound) starts; no PGC header links it and no menu button starts it"
              )
            ]))
      }
      let pgcs = TextJoin.join(runs.map { String($0.pgc) }, separator: ", ")
      best = (
        EpisodeList(
          layout: .programChains, confidence: .heuristic,
          reason: isLinked
            ? "title \(number) plays \(runs.count) PGCs of similar length in a row (\(pgcs), each linked to the next)"
            : "title \(number) has \(runs.count) PGCs of similar length (\(pgcs)) that nothing plays in a row (no PGC header names a next PGC, no menu button starts them): each is an episode, in the order of the title's chapters",
          episodes: episodes, playAll: isLinked ? [String(number)] : []),
        isLinked
      )
    }
    return best?.list
  }

  /// Whether each of `pgcs` (of title set `set`) names the next as its next PGC.
  func linked(set: Int, _ pgcs: [Int]) -> Bool {
    guard let vts = try? titleSet(set) else { return false }
    for (a, b) in zip(pgcs, pgcs.dropFirst()) {
      guard let chain = try? vts.programChains.programChain(a), Int(chain.nextProgramChain) == b
      else { return false }
    }
    return true
  }

  /// Buttons that play two or more of `episodes` whole in a row without a play-all title of
  /// their own (a GPRM flag the post commands test).
  func playAllButtons(
    _ presses: [DVDEpisodeMenuWalk.Press], episodes: [Int], _ structure: DVDEpisodeStructure
  ) -> [String]? {
    var names: [String] = []
    for press in presses {
      let whole = wholeTitles(press.played).map(structure.representative)
      guard whole.count >= 2, whole.allSatisfy(episodes.contains),
        let first = press.played.first, !structure.playAllKeys.contains(first.title),
        !names.contains(press.name)
      else { continue }
      names.append(press.name)
    }
    return names.isEmpty ? nil : names
  }

  /// The titles `spans` play whole (from the first cell of chapter 1 to their last chapter), in
  /// order.
  func wholeTitles(_ spans: [DVDEpisodeMenuWalk.Span]) -> [Int] {
    spans.compactMap { span in
      guard span.firstChapter == 1, span.atChapterStart, span.title >= 1,
        span.title <= titles.count, case .success(let t) = titles[span.title - 1],
        span.lastChapter == t.chapters.count
      else { return nil }
      return span.title
    }
  }

  /// The episodes the menus start (see ``episodeList(main:)``), or `nil`.
  func episodesFromMenus(_ presses: [DVDEpisodeMenuWalk.Press], _ structure: DVDEpisodeStructure)
    -> EpisodeList?
  {
    func title(_ n: Int) -> DVDTitle? {
      guard n >= 1, n <= titles.count, case .success(let t) = titles[n - 1] else { return nil }
      return t
    }
    var best: EpisodeList?
    func consider(_ list: EpisodeList) {
      if best.map({ $0.episodes.count < list.episodes.count }) ?? true { best = list }
    }
    var pages: [Int] = []
    for press in presses where !pages.contains(press.page) { pages.append(press.page) }
    // Rule E only when a press played a PGC no chapter of its title names.
    let outside = anyOutsideChapters(presses.lazy.map(\.programChains))
    // A menu entered again with other registers whose buttons play the same: the same answer.
    // (Compared in a list, not hashed: a disc has a few pages, and two pages' presses mostly
    // differ at the first.)
    var alike: [[DVDEpisodeMenuWalk.Press]] = []
    for page in pages {
      let here = presses.filter { $0.page == page }
      let plain = here.map {
        var press = $0
        (press.page, press.pageName) = (0, "")
        // Compared without their PGCs (the spans tell pages apart; comparing every press's PGCs
        // of every page cost more than rule E itself).
        press.programChains = []
        return press
      }
      guard let pageName = here.first?.menuName, !alike.contains(plain) else { continue }
      alike.append(plain)
      // A: one title started at two or more chapters.
      var starts: [Int: [(chapter: Int, press: DVDEpisodeMenuWalk.Press)]] = [:]
      var others: [Int: [(chapter: Int, press: DVDEpisodeMenuWalk.Press)]] = [:]
      var order: [Int] = []
      for press in here {
        guard let span = press.played.first, span.atChapterStart else { continue }
        if starts[span.title] == nil { order.append(span.title) }
        if !(starts[span.title] ?? []).contains(where: { $0.chapter == span.firstChapter }) {
          starts[span.title, default: []].append((span.firstChapter, press))
        } else {
          others[span.title, default: []].append((span.firstChapter, press))
        }
      }
      for number in order {
        guard let t = title(number), let points = starts[number], points.count >= 2 else {
          continue
        }
        let sorted = points.sorted { $0.chapter < $1.chapter }
        var ranges: [(ClosedRange<Int>, DVDEpisodeMenuWalk.Press)] = []
        for (i, point) in sorted.enumerated() {
          let last =
            i + 1 < sorted.count
            ? sorted[i + 1].chapter - 1
            : max(point.chapter, point.press.played.first?.lastChapter ?? t.chapters.count)
          let range = point.chapter...min(last, t.chapters.count)
          // The evidence: a button that plays this range alone, rather than on through the title
          // (a play-all button starting at the same chapter).
          let all = [point] + (others[number] ?? []).filter { $0.chapter == point.chapter }
          let alone = all.first { $0.press.played.first?.lastChapter == range.upperBound }
          ranges.append((range, (alone ?? point).press))
        }
        let lengths = ranges.map { r in
          t.chapters[(r.0.lowerBound - 1)..<r.0.upperBound].reduce(Int64(0)) { $0 + $1.duration90k }
        }
        // Most of the title, not the chapters of a fixed interval (a scene menu).
        let fixedInterval =
          lengths.count >= 3
          && lengths.dropLast().allSatisfy { abs($0 - lengths[0]) <= 2 * 90_000 }
        guard DVDEpisodeStructure.alike(lengths), !fixedInterval,
          lengths.reduce(0, +) * 10 >= t.duration90k * 8
        else { continue }
        // One PGC per range, each PGC's chapters all in its range: the PGCs are the episodes.
        let chains = ranges.map { r in
          Set(t.chapters[(r.0.lowerBound - 1)..<r.0.upperBound].map(\.programChain))
        }
        let byChain =
          t.programChains.count >= 2 && chains.allSatisfy { $0.count == 1 }
          && Set(chains.compactMap(\.first)).count == ranges.count
          && zip(ranges, chains).allSatisfy { r, c in
            t.chapters.filter { c.contains($0.programChain) }.map(\.number) == Array(r.0)
          }
        // A button that plays the title from its first chapter to its last: the play-all.
        let wholeTitle = here.filter { press in
          guard let first = press.played.first, first.title == number, first.firstChapter == 1,
            first.atChapterStart
          else { return false }
          return press.played.prefix { $0.title == number }.last?.lastChapter == t.chapters.count
        }
        var episodes: [Episode] = []
        for (k, (range, press)) in ranges.enumerated() {
          let start = t.chapters[range.lowerBound - 1].start90k
          // Episode titles the structure found at these chapters of this play-all.
          var variants: [String] = []
          if let p = structure.playAll, p.entry.number == structure.representative(number) {
            for (u, at) in p.episodes
            where at + 1 == range.lowerBound && u.chapters.count == range.count {
              variants += ([u.number] + structure.copies(of: u.number)).map(String.init)
            }
          }
          let pgc = byChain ? t.chapters[range.lowerBound - 1].programChain : nil
          let started =
            pgc.map { "starts PGC \($0) of title \(number)" }
            ?? "starts title \(number) at chapter \(range.lowerBound)"
          episodes.append(
            Episode(
              number: k + 1, key: String(number), start90k: start,
              end90k: start + lengths[k], chapters: Array(range), variants: variants,
              evidence: [
                TitleEvidence(
                  kind: .menu, key: String(number),
                  detail:
                    "\(press.name) \(started) (chapters \(range.lowerBound)-\(range.upperBound))")
              ]))
        }
        let pgcs = ranges.map { String(t.chapters[$0.0.lowerBound - 1].programChain) }
        consider(
          EpisodeList(
            layout: byChain ? .programChains : .chapters, confidence: .navigation,
            reason: byChain
              ? "the buttons of \(pageName) start PGCs \(TextJoin.join(pgcs, separator: ", ")) of title \(number), one per episode, which it plays in a row"
              : "the buttons of \(pageName) start title \(number) at \(episodes.count) chapters",
            episodes: episodes, playAll: wholeTitle.isEmpty ? [] : [String(number)]))
      }
      // B: two or more titles started from their beginning.
      var whole: [(Int, DVDEpisodeMenuWalk.Press)] = []
      for press in here {
        guard let span = press.played.first, span.firstChapter == 1, span.atChapterStart
        else { continue }
        let rep = structure.representative(span.title)
        guard !structure.playAllKeys.contains(rep), structure.entry(rep) != nil else { continue }
        if let k = whole.firstIndex(where: { $0.0 == rep }) {
          // The evidence: a button that plays this title alone, rather than a chain.
          if wholeTitles(whole[k].1.played).count >= 2, wholeTitles(press.played).count < 2 {
            whole[k].1 = press
          }
          continue
        }
        whole.append((rep, press))
      }
      let wholeLengths = whole.compactMap { structure.entry($0.0)?.duration }
      if whole.count >= 2, DVDEpisodeStructure.alike(wholeLengths) {
        let numbers = whole.map(\.0)
        consider(
          titleEpisodes(
            whole.map { ($0.0, "\($0.1.name) starts it") }, structure, presses,
            reason: "the buttons of \(pageName) start \(whole.count) titles of similar length",
            numbers: numbers))
      }
      // C: a button playing two or more titles whole in a row (a GPRM-flag play-all).
      for press in here {
        var chain: [Int] = []
        for n in wholeTitles(press.played).map(structure.representative) where !chain.contains(n) {
          chain.append(n)
        }
        guard chain.count >= 2, let first = press.played.first,
          !structure.playAllKeys.contains(first.title),
          DVDEpisodeStructure.alike(chain.compactMap { structure.entry($0)?.duration })
        else { continue }
        consider(
          titleEpisodes(
            chain.enumerated().map {
              ($0.1, "\(press.name) plays it \(ordinal($0.0 + 1)) in a row")
            },
            structure, presses,
            reason:
              "\(press.name) plays titles \(TextJoin.join(chain.map { String($0) }, separator: ", ")) in a row",
            numbers: chain))
      }
      // E: PGCs of one title started or played in a row, one of them named by no chapter.
      if outside,
        let list = programChainsOutsideChapters(
          here.map { ($0.name, $0.programChains) }, pageName: pageName)
      {
        consider(list)
      }
    }
    // The buttons playing the episodes in a row, for the list chosen (a whole-title list).
    if var list = best, list.layout == .titles {
      let numbers = list.episodes.compactMap { Int($0.key) }
      list.playAllButtons = playAllButtons(presses, episodes: numbers, structure)
      best = list
    }
    return best
  }

  /// Whole titles as episodes, with their copies as variants and the structure's play-all when
  /// it holds exactly them (the buttons playing them in a row are found for the list chosen).
  func titleEpisodes(
    _ items: [(number: Int, evidence: String)], _ structure: DVDEpisodeStructure,
    _ presses: [DVDEpisodeMenuWalk.Press], reason: String, numbers: [Int]
  ) -> EpisodeList {
    var items = items
    var playAll: [String] = []
    if let p = structure.playAll, Set(p.episodes.map(\.0.number)) == Set(numbers) {
      // The play-all's order is the playing order.
      let order = p.episodes.map(\.0.number)
      items.sort { (order.firstIndex(of: $0.number) ?? 0) < (order.firstIndex(of: $1.number) ?? 0) }
      playAll = structure.playAllKeys.map(String.init)
    }
    var episodes: [Episode] = []
    for (k, item) in items.enumerated() {
      guard let u = structure.entry(item.number) else { continue }
      episodes.append(
        Episode(
          number: k + 1, key: String(u.number), start90k: 0, end90k: u.duration,
          chapters: Array(1...u.chapters.count),
          variants: structure.copies(of: u.number).map(String.init),
          evidence: [TitleEvidence(kind: .menu, key: String(u.number), detail: item.evidence)]))
    }
    return EpisodeList(
      layout: .titles, confidence: .navigation, reason: reason, episodes: episodes,
      playAll: playAll)
  }

  func ordinal(_ n: Int) -> String {
    switch n {
    case 1: "first"
    case 2: "second"
    case 3: "third"
    default: "\(n)th"
    }
  }

  /// An episode as a title of its own: a whole title, a chapter range of one cut as a title
  /// (`DVDTitle.cut(chapters:)`: its chapters from 1 and from 0, its cells' bytes), or a PGC no
  /// chapter names (`DVDTitle.programChainTitle(_:in:)`: one chapter per program).
  package func episodeTitle(_ episode: Episode, angle: Int) throws(DiscKitError) -> DiscTitle {
    guard let number = Int(episode.key), number >= 1, number <= titles.count,
      case .success(let title) = titles[number - 1]
    else {
      throw DiscKitError(.notFound, "title \(episode.key)", at: nil, "no such title on the disc")
    }
    if let pgc = episode.programChain {
      let own = try title.programChainTitle(pgc, in: try titleSet(title.titleSet))
      return try DiscTitle(dvd: self, title: own, number: nil, angle: angle)
    }
    guard let first = episode.chapters.first, let last = episode.chapters.last,
      first > 1 || last < title.chapters.count
    else { return try DiscTitle(dvd: self, number: number, angle: angle) }
    return try DiscTitle(
      dvd: self, title: try title.cut(chapters: first...last), number: nil, angle: angle)
  }
}
