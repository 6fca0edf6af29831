/// Episodes that are PGCs of one title: PGCs no chapter of the title names, reached only by
/// `LinkPGCN` from the menus' buttons or the title's commands, and PGCs its chapters start that
/// nothing links.
extension DVDDisc {
  /// A PGC of a title set as the episode search measures it: its length (its cells from its first
  /// program's entry cell that count, 90 kHz), that entry cell and its last cell.
  struct ProgramChainExtent: Hashable {
    var length: Int64
    var entryCell: Int
    var lastCell: Int
  }

  /// PGC `pgc` of title set `set` measured (see ``ProgramChainExtent``), `nil` when it cannot be
  /// read or has no programs or cells.
  func programChainExtent(set: Int, _ pgc: Int) -> ProgramChainExtent? {
    guard let vts = try? titleSet(set), let chain = try? vts.programChains.programChain(pgc),
      let cells = chain.cellPlayback, let entry = chain.programMap?.first, entry >= 1,
      Int(entry) <= cells.count
    else { return nil }
    let length = cells[(Int(entry) - 1)...].reduce(Int64(0)) {
      $0 + ($1.countsForDuration ? $1.playbackTime.ticks90k : 0)
    }
    return ProgramChainExtent(length: length, entryCell: Int(entry), lastCell: cells.count)
  }

  /// Whether any of the runs' visits is of a PGC that no chapter of its title names: rule E and
  /// First Play's chain are looked at only then (most discs play no such PGC, and the rule's
  /// work is then saved).
  func anyOutsideChapters<Runs: Sequence>(_ runs: Runs) -> Bool
  where Runs.Element == [DVDEpisodeMenuWalk.ProgramChainVisit] {
    // Each title's set and the PGCs its chapters use, looked up once.
    var named: [Int: (titleSet: Int, programChains: [Int])] = [:]
    for visits in runs {
      for visit in visits {
        if named[visit.title] == nil {
          guard visit.title >= 1, visit.title <= titles.count,
            case .success(let t) = titles[visit.title - 1]
          else { continue }
          named[visit.title] = (t.titleSet, t.programChains)
        }
        if let title = named[visit.title], visit.titleSet == title.titleSet,
          !title.programChains.contains(visit.programChain)
        {
          return true
        }
      }
    }
    return false
  }

  /// One PGC of a title: the disc title the VM was in, its title set and the PGC's number.
  struct ProgramChainKey: Hashable {
    var title: Int
    var titleSet: Int
    var programChain: Int
  }

  /// E (see ``episodeList(main:)``): the PGCs of one title that the buttons of a page start (each
  /// `rnd` outcome a press of its own), or that a button plays whole in a row, each five minutes
  /// or longer and of similar lengths, when a chapter of the title names not every one of them
  /// (the PGCs it names all are the chapter ranges of rule A). A PGC a chapter names is its
  /// chapter range; one no chapter names is an episode of its own (``Episode/programChain``).
  /// The buttons that play them all in a row are the play-all buttons. `runs` are the page's
  /// presses (their names and PGCs), or First Play's run alone (`pageName` `nil`: no page, no
  /// play-all button).
  func programChainsOutsideChapters(
    _ runs: [(name: String, visits: [DVDEpisodeMenuWalk.ProgramChainVisit])], pageName: String?
  ) -> EpisodeList? {
    var extents: [ProgramChainKey: ProgramChainExtent?] = [:]
    func extent(_ key: ProgramChainKey) -> ProgramChainExtent? {
      if let known = extents[key] { return known }
      let value = programChainExtent(set: key.titleSet, key.programChain)
      extents[key] = value
      return value
    }
    func key(_ visit: DVDEpisodeMenuWalk.ProgramChainVisit) -> ProgramChainKey {
      ProgramChainKey(
        title: visit.title, titleSet: visit.titleSet, programChain: visit.programChain)
    }
    /// The episode-length PGCs a run played, in order.
    func long(_ visits: [DVDEpisodeMenuWalk.ProgramChainVisit])
      -> [DVDEpisodeMenuWalk.ProgramChainVisit]
    {
      visits.filter {
        (extent(key($0))?.length ?? 0) >= DVDEpisodeStructure.episodeMinimum
      }
    }
    func whole(_ visit: DVDEpisodeMenuWalk.ProgramChainVisit) -> Bool {
      guard let e = extent(key(visit)) else { return false }
      return visit.firstCell == e.entryCell && visit.lastCell == e.lastCell
    }
    var starts: [(key: ProgramChainKey, name: String, alone: Bool)] = []
    var chains: [(keys: [ProgramChainKey], name: String)] = []
    for run in runs {
      let visits = long(run.visits)
      guard let first = visits.first else { continue }
      if first.firstCell == extent(key(first))?.entryCell {
        if let k = starts.firstIndex(where: { $0.key == key(first) }) {
          // The evidence: a button that plays this PGC alone, rather than on through others.
          if !starts[k].alone, visits.count == 1 { starts[k] = (key(first), run.name, true) }
        } else {
          starts.append((key(first), run.name, visits.count == 1))
        }
      }
      var row: [ProgramChainKey] = []
      for visit in visits where whole(visit) && !row.contains(key(visit)) {
        row.append(key(visit))
      }
      if row.count >= 2 { chains.append((row, run.name)) }
    }
    // Each episode's PGC and the sentence naming the button: "VMGM PGC 1 button 2 starts
    // PGC 3 of title 1", "… plays PGC 3 of title 1 second in a row".
    var picked: [(key: ProgramChainKey, evidence: (String) -> String)] = []
    var reason = ""
    var inARow = false
    if starts.count >= 2, let pageName {
      var order = starts
      // A button playing exactly these PGCs in a row gives the playing order.
      if let chain = chains.first(where: { Set($0.keys) == Set(starts.map(\.key)) }) {
        order.sort {
          (chain.keys.firstIndex(of: $0.key) ?? 0) < (chain.keys.firstIndex(of: $1.key) ?? 0)
        }
      }
      picked = order.map { start in (start.key, { "\(start.name) starts \($0)" }) }
      reason = "the buttons of \(pageName) start"
    } else if let chain = chains.max(by: { $0.keys.count < $1.keys.count }) {
      picked = chain.keys.enumerated().map { item in
        (item.1, { "\(chain.name) plays \($0) \(self.ordinal(item.0 + 1)) in a row" })
      }
      reason = "\(chain.name) plays"
      inARow = true
    }
    guard picked.count >= 2, let head = picked.first?.key,
      picked.allSatisfy({ $0.key.title == head.title && $0.key.titleSet == head.titleSet }),
      head.title >= 1, head.title <= titles.count, case .success(let t) = titles[head.title - 1],
      t.titleSet == head.titleSet,
      DVDEpisodeStructure.alike(picked.map { extent($0.key)?.length ?? 0 })
    else { return nil }
    // A button's run is menu evidence, First Play's own run navigation.
    let kind: TitleEvidence.Kind = pageName == nil ? .navigation : .menu
    var episodes: [Episode] = []
    var unnamed: [Int] = []
    for (k, item) in picked.enumerated() {
      let pgc = item.key.programChain
      let named = t.chapters.filter { $0.programChain == pgc }
      let length = extent(item.key)?.length ?? 0
      let detail = item.evidence("PGC \(pgc) of title \(head.title)")
      if let first = named.first, let last = named.last {
        // Its chapters, in one run.
        guard named.map(\.number) == Array(first.number...last.number) else { return nil }
        let duration = named.reduce(Int64(0)) { $0 + $1.duration90k }
        episodes.append(
          Episode(
            number: k + 1, key: String(head.title), start90k: first.start90k,
            end90k: first.start90k + duration, chapters: Array(first.number...last.number),
            evidence: [
              TitleEvidence(
                kind: kind, key: String(head.title),
                detail: "\(detail) (chapters \(first.number)-\(last.number))")
            ]))
      } else {
        unnamed.append(pgc)
        episodes.append(
          Episode(
            number: k + 1, key: String(head.title), start90k: 0, end90k: length, chapters: [],
            evidence: [
              TitleEvidence(
                kind: kind, key: String(head.title),
                detail: "\(detail) (no chapter of the title names it)")
            ], programChain: pgc))
      }
    }
    guard !unnamed.isEmpty else { return nil }
    let numbers = picked.map { $0.key }
    let playAll = chains.filter { chain in
      // The button plays the episodes' PGCs in a row, in their order.
      guard let at = chain.keys.firstIndex(of: numbers[0]), at + numbers.count <= chain.keys.count
      else { return false }
      return Array(chain.keys[at..<(at + numbers.count)]) == numbers
    }.map(\.name)
    var buttons: [String] = []
    for name in playAll where !buttons.contains(name) { buttons.append(name) }
    let list = TextJoin.join(picked.map { String($0.key.programChain) }, separator: ", ")
    let outside = TextJoin.join(unnamed.map(String.init), separator: ", ")
    return EpisodeList(
      layout: .programChains, confidence: .navigation,
      reason:
        "\(reason) PGCs \(list) of title \(head.title), one per episode\(inARow ? ", in a row" : "") (PGC\(unnamed.count == 1 ? "" : "s") \(outside): no chapter of the title names \(unnamed.count == 1 ? "it" : "them"))",
      episodes: episodes, playAll: [],
      playAllButtons: buttons.isEmpty || pageName == nil ? nil : buttons)
  }
}
