/// DiscKit's main-title choice for DVDs, resisting the fake-title protections of some discs.
///
/// First the disc's own navigation decides: ``DVDMainFeatureSearch`` runs the DVD VM from First
/// Play through the menu buttons and takes the title played longest. Its answer is used when it
/// pressed at least one menu button (the menu VOBs are there) or the title it found plays for
/// 10 minutes or more (HandBrake's threshold), unless the static choice below is at least
/// 10 minutes long and more than twice as long as what the menus play (a menu the VM cannot
/// follow). Otherwise the static rules decide.
///
/// Static rules: titles are set aside, each with a reason, when they
/// - cannot be read (a broken or missing title set, a program map past the cell table),
/// - play nothing (no cells or zero duration),
/// - have cells outside the title VOBs (checked only when the VOB files are present),
/// - have an impossible duration (over 12 hours, or a PGC playback time that differs from the sum
///   of its cells by more than 5 s and 5 %),
/// - play their cells out of order (more than one backward jump in sector order and more than
///   10 % of the cell transitions): the "99 titles" protections reuse the feature's cells in
///   scrambled orders, while the real feature reads its VOBs forwards,
/// - play exactly the same cells as an earlier title (duplicates).
///
/// Among the rest the longest title by the sum of its cells wins (ties go to the earlier title).
/// When every title is set aside, lsdvd's longest track is used and the reason says so.
package enum DVDSmartTitleSelector {
  /// The outcome: the chosen title, why, and why every other title was set aside.
  package struct Selection: Sendable, Hashable {
    /// The chosen title number, or `nil` when the disc has none.
    package var title: Int?
    /// Why this title was chosen.
    package var reason: String
    /// For each title set aside, why (title number → reason).
    package var setAside: [Int: TitleExclusion]
    /// What the menu search found (nil when it was not run).
    package var navigation: DVDMainFeatureSearch.Result? = nil
    /// Whether the title comes from the menu search (else from the static rules).
    package var fromNavigation: Bool = false
    /// The evidence for the chosen title.
    package var evidence: [TitleEvidence] = []
    /// What decided (`nil` when there is no title).
    package var confidence: TitleConfidence? = nil
    /// When ``confidence`` is ``TitleConfidence/ambiguous``: the title numbers as long as the
    /// chosen one (within 1 %), the chosen one among them.
    package var candidates: [Int] = []
  }

  /// Chooses the main title of `disc`: the menu search first, then the static rules.
  package static func select(_ disc: DVDDisc) -> Selection {
    var chosen = selectStatically(disc)
    let search = disc.navigationShared.search(disc)
    chosen.navigation = search
    guard let best = search.best else { return chosen }
    let tenMinutes = MediaTime(ticks: 600 * 90_000)
    guard search.sawButtons || best.played >= tenMinutes else { return chosen }
    if let fallback = chosen.title, fallback != best.title,
      case .success(let other) = disc.titles[fallback - 1],
      other.duration90k >= tenMinutes.ticks, other.duration90k > 2 * best.played.ticks
    {
      chosen.reason +=
        "; the menus play title \(best.title) for only \(format(best.played.ticks)), so the static choice stands"
      return chosen
    }
    chosen.reason = navigationReason(best, search: search, disc: disc)
    chosen.title = best.title
    chosen.setAside[best.title] = nil
    chosen.fromNavigation = true
    let tied = search.plays.filter {
      abs($0.played.ticks - best.played.ticks) * 100 <= max($0.played.ticks, best.played.ticks)
    }.map(\.title)
    chosen.evidence = navigationEvidence(best, search: search, disc: disc)
    chosen.confidence = tied.count > 1 ? .ambiguous : .navigation
    chosen.candidates = tied.count > 1 ? tied : []
    if tied.count > 1 {
      chosen.reason +=
        "; ambiguous: the menus play \(tied.count) titles as long (within 1 %); the first reached is picked"
    }
    return chosen
  }

  /// The evidence of the menu search: the path to the winner (``TitleEvidence/Kind/menu`` when
  /// a button is on it, else ``TitleEvidence/Kind/navigation``), the titles the menus leave
  /// early, and the longer titles no menu reaches.
  static func navigationEvidence(
    _ best: DVDMainFeatureSearch.Play, search: DVDMainFeatureSearch.Result, disc: DVDDisc
  ) -> [TitleEvidence] {
    let viaButton = best.path.contains { TextJoin.contains($0, "button") }
    var list = [
      TitleEvidence(
        kind: viaButton ? .menu : .navigation, key: String(best.title),
        detail: "played for \(format(best.played.ticks)) from "
          + TextJoin.join(best.path, separator: " → ") + " (\(best.ending))")
    ]
    for play in search.plays where play.title != best.title && play.played < play.advertised {
      list.append(
        TitleEvidence(
          kind: .navigation, key: String(play.title),
          detail:
            "advertises \(format(play.advertised.ticks)) but plays \(format(play.played.ticks)) (\(play.ending))"
        ))
    }
    // An `rnd` over 16 outcomes (or past the budgets) was sampled: the search is not exhaustive.
    for warning in search.warnings where warning.contains("rnd") {
      list.append(
        TitleEvidence(
          kind: .navigation, key: String(best.title),
          detail: "not every rnd outcome explored: " + warning))
    }
    let reached = Set(search.plays.map(\.title))
    for (index, result) in disc.titles.enumerated() where !reached.contains(index + 1) {
      if case .success(let t) = result, t.duration90k > best.played.ticks {
        list.append(
          TitleEvidence(
            kind: .navigation, key: String(index + 1),
            detail: "longer (\(format(t.duration90k))) but no menu or navigation command reaches it"
          ))
      }
    }
    return list
  }

  /// "the menus play title 5 (0:00:06.000): First Play → VMGM PGC 1 button 1; …".
  static func navigationReason(
    _ best: DVDMainFeatureSearch.Play, search: DVDMainFeatureSearch.Result, disc: DVDDisc
  ) -> String {
    var reason =
      "the disc's menus play title \(best.title) longest (\(format(best.played.ticks))): "
      + TextJoin.join(best.path, separator: " → ")
    if best.played < best.advertised { reason += " (\(best.ending))" }
    let reached = Set(search.plays.map(\.title))
    var unreached: [String] = []
    for (index, result) in disc.titles.enumerated() where !reached.contains(index + 1) {
      if case .success(let t) = result, t.duration90k > best.played.ticks {
        unreached.append("title \(index + 1) (\(format(t.duration90k)))")
      }
    }
    if !unreached.isEmpty {
      reason +=
        "; longer but reached by no menu: " + TextJoin.join(unreached.prefix(5), separator: ", ")
      if unreached.count > 5 { reason += " and \(unreached.count - 5) more" }
    }
    let cutShort = search.plays.filter { $0.title != best.title && $0.played < $0.advertised }
    if let lie = cutShort.max(by: { $0.advertised < $1.advertised }), lie.advertised > best.played {
      reason +=
        "; title \(lie.title) advertises \(format(lie.advertised.ticks)) but plays \(format(lie.played.ticks)) (\(lie.ending))"
    }
    if let sampled = search.warnings.first(where: { $0.contains("rnd") }) {
      reason += "; " + sampled
    }
    let broken = disc.titleSets.values.filter {
      if case .failure = $0.info { return true } else { return false }
    }.count
    if broken > 0 {
      reason +=
        "; \(broken) title set\(broken == 1 ? " is unreadable and was" : "s are unreadable and were") skipped"
    }
    let backups = disc.titleSets.values.filter {
      if case .success = $0.info { return $0.fromBackup } else { return false }
    }.count
    if backups > 0 {
      reason += "; \(backups) title set\(backups == 1 ? "" : "s") read from the .BUP"
    }
    reason +=
      " (\(search.menuStates) menu state\(search.menuStates == 1 ? "" : "s"), \(search.buttonsPressed) button\(search.buttonsPressed == 1 ? "" : "s") pressed)"
    return reason
  }

  /// The static rules alone (the choice before the menu search existed).
  package static func selectStatically(_ disc: DVDDisc) -> Selection {
    var setAside: [Int: TitleExclusion] = [:]
    var candidates: [DVDTitle] = []
    var seen: [[UInt64]: Int] = [:]
    var vobSectors: [Int: Int64] = [:]
    for (index, result) in disc.titles.enumerated() {
      let number = index + 1
      let title: DVDTitle
      switch result {
      case .failure(let error):
        setAside[number] = .unreadable(error)
        continue
      case .success(let t): title = t
      }
      let cells = title.cells(angle: 1)
      if cells.isEmpty || title.duration90k == 0 {
        setAside[number] = .playsNothing
        continue
      }
      if vobSectors[title.titleSet] == nil {
        vobSectors[title.titleSet] = disc.navigationShared.titleVOBSectors(disc, title.titleSet)
      }
      let available = vobSectors[title.titleSet] ?? 0
      if available > 0, let bad = cells.first(where: { Int64($0.playback.lastSector) >= available })
      {
        setAside[number] = .cellOutsideVOBs(
          cell: bad.cell, programChain: bad.programChain, availableSectors: available)
        continue
      }
      if title.duration90k > 12 * 3600 * 90_000 {
        setAside[number] = .impossibleDuration(MediaTime(ticks: title.duration90k))
        continue
      }
      let difference = abs(title.programChainDuration90k - title.duration90k)
      if difference > 5 * 90_000 && difference * 20 > title.duration90k {
        setAside[number] = .durationMismatch(
          programChain: MediaTime(ticks: title.programChainDuration90k),
          cells: MediaTime(ticks: title.duration90k))
        continue
      }
      var backward = 0
      for i in 1..<max(1, cells.count)
      where cells[i].playback.firstSector < cells[i - 1].playback.firstSector {
        backward += 1
      }
      if backward > 1 && backward * 10 > cells.count - 1 {
        setAside[number] = .cellsOutOfOrder(backwardJumps: backward)
        continue
      }
      let key =
        [UInt64(title.titleSet)]
        + cells.map { UInt64($0.playback.firstSector) << 32 | UInt64($0.playback.lastSector) }
      if let earlier = seen[key] {
        setAside[number] = .sameCells(asTitle: earlier)
        continue
      }
      seen[key] = number
      candidates.append(title)
    }
    var best: DVDTitle?
    for title in candidates where title.duration90k > (best?.duration90k ?? -1) { best = title }
    if let best {
      var reason =
        "longest of \(candidates.count) plausible title\(candidates.count == 1 ? "" : "s") (\(format(best.duration90k)))"
      if !setAside.isEmpty {
        var counts: [String: Int] = [:]
        for why in setAside.values { counts[why.category, default: 0] += 1 }
        reason +=
          "; set aside: "
          + TextJoin.join(
            counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }, separator: ", ")
      }
      let tied = candidates.filter {
        abs($0.duration90k - best.duration90k) * 100 <= max($0.duration90k, best.duration90k)
      }.map(\.number)
      if tied.count > 1 {
        reason +=
          "; ambiguous: \(tied.count) titles are as long (within 1 %); the longest of them, the first on a tie, is picked"
      }
      let evidence = TitleEvidence(
        kind: .heuristic, key: String(best.number),
        detail: tied.count > 1
          ? "one of \(tied.count) titles of the same length (within 1 %); the longest of them, the first on a tie, is picked"
          : "the longest plausible title")
      return Selection(
        title: best.number, reason: reason, setAside: setAside, evidence: [evidence],
        confidence: tied.count > 1 ? .ambiguous : .heuristic,
        candidates: tied.count > 1 ? tied : [])
    }
    if let fallback = LsdvdTitleSelector.select(disc) {
      setAside[fallback] = nil
      return Selection(
        title: fallback, reason: "every title looks implausible; using lsdvd's longest track",
        setAside: setAside,
        evidence: [
          .init(
            kind: .heuristic, key: String(fallback),
            detail: "lsdvd's longest track (every title looked implausible)")
        ], confidence: .heuristic)
    }
    return Selection(title: nil, reason: "the disc has no playable title", setAside: setAside)
  }

  /// `H:MM:SS.mmm` from 90 kHz ticks.
  package static func format(_ ticks: Int64) -> String {
    let ms = ticks / 90
    let h = ms / 3_600_000
    let m = ms / 60_000 % 60
    let s = ms / 1000 % 60
    let f = ms % 1000
    func pad(_ v: Int64, _ n: Int) -> String {
      let t = String(v)
      return String(repeating: "0", count: max(0, n - t.count)) + t
    }
    return "\(h):\(pad(m, 2)):\(pad(s, 2)).\(pad(f, 3))"
  }
}
