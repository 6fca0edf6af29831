/// DiscKit's own title list and main-title choice, built to resist decoy and obfuscated playlists.
///
/// Playlists set aside first (each carries the reason):
/// 1. unreadable playlists, empty playlists, and playlists with an item whose in-time is after its
///    out-time (libbluray's wrapping sum makes those look ~26 h long) are excluded, except items
///    whose PTS cross the 33-bit wrap (``PlayItem/wrapsPTS``: a plausible wrapped duration);
/// 2. playlists playing a clip that is not on the disc (no clip information) are *missing clips*,
///    and playlists playing more bytes than the disc's stream files hold are *larger than the
///    disc* (loop composites that replay footage at shifted in-times);
/// 3. a playlist playing the same (clip, in, out) segments in the same order as one already kept is
///    a *duplicate* (marks and stream tables are ignored: they do not change the picture); among
///    duplicates the one the disc's navigation plays, else the lowest number, is kept;
/// 4. a playlist that plays one (clip, in-time) twice is *looping* ("repeated segments": menus,
///    loop composites and decoys that pad their length by repeating a segment);
/// 5. playlists shorter than the minimum length are *too short*.
///
/// The main title is then decided by evidence before length, in this trust order:
/// 1. **named**: evidence supplied by the caller from the disc's own names for its titles (BD-J
///    code, authoring project files);
/// 2. **navigation**: playlists the disc's HDMV program starts when run (First Play, the Top Menu
///    and every index title in the `HDMVMachine`, as libbluray's VM would play them);
/// 3. **menu**: playlists a menu button leads to (the button's commands run in the machine from the
///    state its menu was entered with; a button that leads nowhere is no evidence);
/// 4. **heuristics**: the longest playlist, then (within 1 %) more chapters, more audio/subtitle
///    streams, fewer out-of-order segments, the lower playlist number.
/// Within a tier the longest playlist with that evidence wins (the others are trailers, extras and
/// menu backgrounds); when that tier names several playlists the ranking cannot tell apart (a BD-J
/// menu listing many members of a flood), the twins the later tiers also reach are kept; unless it is shorter than a third of the longest surviving playlist (then the
/// evidence is set aside with a note and the next tier decides).
///
/// A *family* is a set of playlists playing the same segments in different orders (a permutation
/// flood, ``PlaylistFamily``). Length, chapters and streams cannot tell its members apart, so when
/// the choice falls in a family of two or more and no evidence names a member, the result is
/// ``Confidence/ambiguous`` and the lowest-numbered member is chosen (a stated, deterministic
/// rule, not a claim).
package enum SmartTitleSelector {
  /// A candidate playlist.
  package struct Candidate: Sendable {
    /// The playlist file name, e.g. `00800.mpls`.
    package var name: String
    /// The playlist number (800 for `00800.mpls`).
    package var number: Int
    /// The parsed playlist, or `nil` when it could not be read.
    package var playlist: MoviePlaylist?
    /// Creates a candidate.
    package init(name: String, number: Int, playlist: MoviePlaylist?) {
      self.name = name
      self.number = number
      self.playlist = playlist
    }
  }

  /// Evidence about which playlists the disc itself plays, by playlist number; each entry is a
  /// sentence saying where it comes from.
  package struct Evidence: Sendable {
    /// Named evidence (``TitleEvidence/Kind/bdj``, ``TitleEvidence/Kind/projectFile``),
    /// supplied by the caller; ``TitleEvidence/key`` is the playlist's key (`00800`).
    package var named: [TitleEvidence]
    /// Playlists the HDMV navigation starts.
    package var navigation: [Int: [String]]
    /// Playlists menu buttons lead to.
    package var menu: [Int: [String]]
    /// The clip ids that are on the disc (clip information read); `nil` when not known.
    package var availableClips: Set<String>?
    /// Playlist number → the bytes it plays (``BlurayTitle/size``).
    package var playlistBytes: [Int: Int64] = [:]
    /// The bytes of the disc's stream files (`BDMV/STREAM`); `nil` when not known (no streams).
    package var capacityBytes: Int64?
    /// Playlist number → how early the disc's default navigation reaches it: 0 First Play (and
    /// what it jumps to), `n` index title `n`, 100,000 the Top Menu. Of several versions of one
    /// feature the evidence reaches, the earliest is the main title.
    package var defaultOrder: [Int: Int] = [:]

    /// Creates evidence.
    package init(
      named: [TitleEvidence] = [], navigation: [Int: [String]] = [:], menu: [Int: [String]] = [:],
      availableClips: Set<String>? = nil
    ) {
      self.named = named
      self.navigation = navigation
      self.menu = menu
      self.availableClips = availableClips
    }
  }

  /// One playlist's fate.
  package struct Entry: Sendable {
    /// The playlist file name, e.g. `00800.mpls`.
    package var name: String
    /// `nil` when kept; otherwise why it was set aside (``TitleExclusion/duplicate(of:)``, ...).
    package var excluded: TitleExclusion?
    /// Navigation titles that play this playlist (index title numbers; 0 = first play).
    package var playedByTitles: [Int]
  }

  /// The outcome.
  package struct Result: Sendable {
    /// Every candidate in input order.
    package var entries: [Entry]
    /// The main playlist's name, if any playlist survives.
    package var main: String?
    /// Why the main title was chosen.
    package var reason: String
    /// The evidence for the main title and against the playlists it was preferred to,
    /// strongest kind first.
    package var evidence: [TitleEvidence] = []
    /// What decided (`nil` when there is no main title).
    package var confidence: TitleConfidence? = nil
    /// When ``confidence`` is ``TitleConfidence/ambiguous``: the playlists (file names) that
    /// nothing DiscKit reads tells apart from the main title, the main title among them.
    package var candidates: [String] = []
    /// The families among the surviving playlists.
    package var families: [PlaylistFamily] = []
    /// The number of playlists in the main playlist's family (1 when it has none).
    package var familySize = 1
    /// Whether the menu evidence was used: always when it was given, and when a `menus` function
    /// was given to ``select(_:navigation:evidence:minSeconds:relaxMinimum:menus:)``, only when
    /// the answer depends on it.
    package var menusConsulted = false
    /// The clips' menus read to answer (filled in by ``BlurayDisc``).
    package var menuReads: [IGMenuRead] = []
    /// Other versions of the main title (other cuts, the same cut with other streams), in
    /// candidate order.
    package var versions: [FeatureVersions.Version] = []
  }

  /// Selects.
  ///
  /// - Parameters:
  ///   - navigation: playlist number → index titles whose movie objects play it.
  ///   - evidence: named, navigation and menu evidence (see ``Evidence``); navigation evidence
  ///     defaults to `navigation`.
  ///   - minSeconds: shorter playlists are "too short".
  ///   - relaxMinimum: when every otherwise acceptable playlist is too short (a disc of short
  ///     clips), consider them anyway rather than report no main title. Pass `false` when the
  ///     user asked for the minimum explicitly.
  ///   - menus: the menu evidence, asked for only when it can change the answer (reading it
  ///     means reading the menus' stream files); it replaces `evidence.menu`. Without it
  ///     `evidence.menu` is used. The answer is the one the menu evidence gives when it is asked
  ///     for; when it is not (the main title is decided by named or navigation evidence alone,
  ///     which no menu can narrow, no duplicate's fate depends on one and no longer playlist
  ///     would be called unplayed), the only difference is that the main title's evidence lists
  ///     no menu button leading to it.
  package static func select(
    _ candidates: [Candidate], navigation: [Int: [Int]] = [:], evidence: Evidence = Evidence(),
    minSeconds: Double = 20, relaxMinimum: Bool = true,
    menus loadMenus: (() -> [Int: [String]])? = nil
  )
    -> Result
  {
    var evidence = evidence
    var menusLoaded = loadMenus == nil
    func loadMenuEvidence() {
      guard !menusLoaded, let loadMenus else { return }
      menusLoaded = true
      evidence.menu = loadMenus()
    }
    if loadMenus != nil { evidence.menu = [:] }
    if evidence.navigation.isEmpty {
      for (playlist, titles) in navigation {
        evidence.navigation[playlist] = titles.map {
          $0 == 0 ? "played by the first-play object" : "played by index title \($0)"
        }
      }
    }
    var entries = candidates.map {
      Entry(name: $0.name, excluded: nil, playedByTitles: navigation[$0.number] ?? [])
    }
    excludeUnplayable(candidates, &entries)
    if let clips = evidence.availableClips { excludeMissingClips(candidates, &entries, clips) }
    if let capacity = evidence.capacityBytes, capacity > 0 {
      for (i, c) in candidates.enumerated() where entries[i].excluded == nil {
        if let bytes = evidence.playlistBytes[c.number], bytes > capacity {
          entries[i].excluded = .largerThanDisc(bytes: bytes, capacity: capacity)
        }
      }
    }
    excludeDuplicates(
      candidates, &entries, evidence,
      menus: menusLoaded
        ? nil
        : {
          loadMenuEvidence()
          return evidence.menu
        })
    excludeLoopingAndShort(candidates, &entries, minSeconds: minSeconds)

    var survivors = candidates.indices.filter { entries[$0].excluded == nil }
    var relaxed = false
    if survivors.isEmpty && relaxMinimum {
      survivors = candidates.indices.filter { entries[$0].excluded == .tooShort }
      for i in survivors { entries[i].excluded = nil }
      relaxed = !survivors.isEmpty
    }
    guard let longest = survivors.map({ duration(candidates[$0]) }).max(), longest > 0 else {
      return Result(entries: entries, main: nil, reason: "no playlist survives the filters")
    }
    let families = PlaylistFamily.families(survivors.map { candidates[$0] })
    var named: [Int: [TitleEvidence]] = [:]
    for item in evidence.named {
      if let number = Int(item.key) { named[number, default: []].append(item) }
    }
    func items(_ number: Int, _ key: String) -> [TitleEvidence] {
      (named[number] ?? [])
        + (evidence.navigation[number] ?? []).map {
          TitleEvidence(kind: .navigation, key: key, detail: $0)
        }
        + (evidence.menu[number] ?? []).map { TitleEvidence(kind: .menu, key: key, detail: $0) }
    }
    var reason: [String] = []
    var versionEvidence: String?
    // Family membership by candidate (permutations are never versions of each other).
    var familyIndex: [String: Int] = [:]
    for (k, family) in families.enumerated() { for m in family.members { familyIndex[m] = k } }
    func versionOf(_ i: Int, _ j: Int) -> Bool {
      guard i != j, let a = candidates[i].playlist, let b = candidates[j].playlist else {
        return false
      }
      if let f = familyIndex[candidates[i].name], f == familyIndex[candidates[j].name] {
        return false
      }
      return FeatureVersions.areVersions(a, b)
    }
    /// Of `best` and its versions in `pool`, the one the default navigation reaches first, when
    /// that is not `best`.
    func defaultVersion(_ best: Int, _ pool: [Int]) -> (index: Int, note: String)? {
      func rank(_ i: Int) -> Int { evidence.defaultOrder[candidates[i].number] ?? Int.max }
      // Only alternate cuts (within a minute of each other) are decided so: between a cut and an
      // extended cut the longest-with-evidence rule stands (on bdpl_disc9 First Play plays a
      // 1:30:23 cut, title 2 a 1:32:08 one, and libbluray's and DiscKit's answer is the longer).
      let minute = 60.0 * 45000
      let group =
        [best]
        + pool.filter {
          versionOf(best, $0) && abs(duration(candidates[$0]) - duration(candidates[best])) < minute
        }
      guard group.count > 1,
        let first = group.min(by: {
          (rank($0), candidates[$0].number) < (rank($1), candidates[$1].number)
        }), first != best, rank(first) < rank(best)
      else { return nil }
      let by =
        rank(first) == 0
        ? "First Play" : rank(first) < 100_000 ? "index title \(rank(first))" : "the Top Menu"
      let others = group.filter { $0 != first }.map { candidates[$0].name }
      return (
        first,
        "of \(group.count) versions of the feature (\(TextJoin.join(others, separator: ", ")) also played), the disc's default navigation (\(by)) plays this one"
      )
    }
    var chosen: Int?
    var confidence = TitleConfidence.heuristic
    var tied: [Int] = []
    let tiers: [(String, TitleConfidence)] = [
      ("named", .named), ("navigation", .navigation), ("menu", .navigation),
    ]
    // The playlists each tier's evidence reaches; the menu tier's are read when first needed.
    func tierNumbers(_ position: Int) -> Set<Int> {
      switch position {
      case 0: return Set(named.keys)
      case 1: return Set(evidence.navigation.keys)
      default:
        loadMenuEvidence()
        return Set(evidence.menu.keys)
      }
    }
    for (position, (tier, level)) in tiers.enumerated() {
      let numbers = tierNumbers(position)
      let reached = survivors.filter { numbers.contains(candidates[$0].number) }
      guard var best = best(of: reached, candidates) else { continue }
      if duration(candidates[best]) * 3 < longest {
        reason.append(
          "\(tier) evidence points at \(candidates[best].name), shorter than a third of the longest playlist: set aside"
        )
        continue
      }
      confidence = level
      tied = twins(of: best, in: reached, candidates)
      // Evidence naming several indistinguishable playlists (a menu JAR listing many members of
      // a flood) is narrowed by the less trusted tiers: the twins the navigation or a menu also
      // reaches.
      var narrowing: [String] = []
      for (laterPosition, (later, _)) in tiers.enumerated().dropFirst(position + 1)
      where tied.count > 1 {
        let laterNumbers = tierNumbers(laterPosition)
        let narrowed = tied.filter { laterNumbers.contains(candidates[$0].number) }
        guard !narrowed.isEmpty, narrowed.count < tied.count,
          let narrowedBest = Self.best(of: narrowed, candidates)
        else { continue }
        narrowing.append(
          "of \(tied.count) indistinguishable playlists with \(tier) evidence, \(later) evidence reaches "
            + (narrowed.count == 1 ? "only this one" : "\(narrowed.count)"))
        tied = narrowed
        best = narrowedBest
      }
      // Versions of one feature (cuts the evidence reaches, e.g. a theatrical and an alternate
      // cut behind two index titles): the disc's default navigation, First Play then title 1,
      // names the one it means.
      if tied.count <= 1, let chosenVersion = defaultVersion(best, reached) {
        narrowing.append(chosenVersion.note)
        best = chosenVersion.index
        tied = [best]
        versionEvidence = chosenVersion.note
      }
      chosen = best
      let first = items(candidates[best].number, "").first { $0.kind != .family }?.detail
      reason.append(
        (first ?? "\(tier) evidence")
          + (reached.count > 1
            ? "; the longest of \(reached.count) playlists with \(tier) evidence" : ""))
      reason += narrowing
      break
    }
    var pool: [Int] = []
    if chosen == nil {
      pool = survivors.filter { duration(candidates[$0]) >= 0.8 * longest }
      chosen = best(of: pool, candidates)
      reason.append(
        pool.count == 1
          ? "the only playlist at least 80% as long as the longest"
          : "best of \(pool.count) playlists at least 80% as long as the longest (length, then chapters, streams, segment order)"
      )
      if let chosen { tied = twins(of: chosen, in: pool, candidates) }
    }
    guard let main = chosen else {
      return Result(entries: entries, main: nil, reason: "no candidate")
    }
    let bestDuration = duration(candidates[main])
    // A longer playlist without named or navigation evidence is said to be unplayed unless a
    // menu leads to it: the menus decide what is said.
    if !menusLoaded,
      survivors.contains(where: { i in
        let n = candidates[i].number
        return i != main && named[n] == nil && evidence.navigation[n] == nil
          && duration(candidates[i]) > bestDuration * 1.01
      })
    {
      loadMenuEvidence()
    }
    let key = Disc.key(ofPlaylist: candidates[main].name)
    var found = items(candidates[main].number, key)
    if let versionEvidence {
      found.append(TitleEvidence(kind: .navigation, key: key, detail: versionEvidence))
    }
    var familySize = 1
    var candidateSet = tied.count > 1 ? Set(tied) : []
    if let family = families.first(where: { $0.members.contains(candidates[main].name) }) {
      familySize = family.size
      found.append(
        TitleEvidence(
          kind: .family, key: key,
          detail:
            "one of \(family.size) playlists that play the same segments in other orders"
            + (confidence == .heuristic ? "; nothing on the disc names one of them" : "")))
      if confidence == .heuristic {
        for member in family.members {
          if let i = candidates.indices.first(where: { candidates[$0].name == member }) {
            candidateSet.insert(i)
          }
        }
      }
    }
    if candidateSet.count > 1 {
      confidence = .ambiguous
      reason.append(
        "ambiguous: \(candidateSet.count) playlists tie on length, chapters and streams"
          + (familySize > 1 ? " (\(familySize) reorderings of the same segments)" : "")
          + " and nothing on the disc tells them apart; picked by fewest out-of-order segments, then the lowest number"
      )
      found.append(
        TitleEvidence(
          kind: .heuristic, key: key,
          detail:
            "one of \(candidateSet.count) playlists that nothing on the disc tells apart; picked by fewest out-of-order segments, then the lowest number"
        ))
    } else if confidence == .heuristic {
      found.append(TitleEvidence(kind: .heuristic, key: key, detail: reason[0]))
    }
    // Longer playlists that lost because the evidence names the main title and not them.
    for i in survivors where i != main && items(candidates[i].number, "").isEmpty {
      if confidence != .heuristic && confidence != .ambiguous
        && duration(candidates[i]) > bestDuration * 1.01
      {
        found.append(
          .init(
            kind: .navigation, key: Disc.key(ofPlaylist: candidates[i].name),
            detail: "longer than the main title, but the disc's navigation does not play it"))
      }
    }
    for (i, entry) in entries.enumerated() where duration(candidates[i]) >= bestDuration {
      switch entry.excluded {
      case .repeatedSegments?, .missingClips?, .largerThanDisc?:
        found.append(
          .init(
            kind: .physical, key: Disc.key(ofPlaylist: candidates[i].name),
            detail: entry.excluded.map { "set aside: \($0)" } ?? ""))
      default: break
      }
    }
    let excludedCount = entries.count(where: { $0.excluded != nil })
    if excludedCount > 0 {
      reason.append("\(excludedCount) playlist\(excludedCount == 1 ? "" : "s") set aside")
    }
    if relaxed {
      reason.append("every playlist is shorter than \(Int(minSeconds)) s, so short ones count")
    }
    let order: [TitleEvidence.Kind] = TitleEvidence.Kind.allCases
    found = found.enumerated().sorted {
      let a = order.firstIndex(of: $0.element.kind) ?? 0
      let b = order.firstIndex(of: $1.element.kind) ?? 0
      return (a, $0.offset) < (b, $1.offset)
    }.map(\.element)
    var result = Result(
      entries: entries, main: candidates[main].name, reason: TextJoin.join(reason, separator: "; "))
    result.evidence = found
    result.confidence = confidence
    result.candidates =
      candidateSet.count > 1 ? candidateSet.sorted().map { candidates[$0].name } : []
    result.families = families
    result.familySize = familySize
    result.menusConsulted = menusLoaded
    // The main title's other versions: other cuts among the surviving playlists, and playlists
    // set aside as its duplicates that carry other streams.
    if let mainPlaylist = candidates[main].playlist {
      for i in candidates.indices where i != main {
        guard let playlist = candidates[i].playlist else { continue }
        let counts = { (p: MoviePlaylist) in
          (
            p.playItems.first?.streams.audio.count ?? 0,
            p.playItems.first?.streams.presentationGraphics.count ?? 0
          )
        }
        if entries[i].excluded == nil, versionOf(main, i) {
          result.versions.append(
            FeatureVersions.describe(
              playlist, name: candidates[i].name, against: mainPlaylist, sameSegments: false))
        } else if entries[i].excluded == .duplicate(of: candidates[main].name),
          counts(playlist) != counts(mainPlaylist)
        {
          result.versions.append(
            FeatureVersions.describe(
              playlist, name: candidates[i].name, against: mainPlaylist, sameSegments: true))
        }
      }
    }
    return result
  }

  /// The members of `pool` that the ranking cannot tell from `best` before its arbitrary
  /// tie-breakers (segment order, number): same length within 1 %, chapters and streams. In
  /// candidate order, `best` among them.
  private static func twins(of best: Int, in pool: [Int], _ candidates: [Candidate]) -> [Int] {
    let db = duration(candidates[best])
    let cb = candidates[best].playlist?.chapterCount ?? 0
    let sb = candidates[best].playlist.map(LibblurayTitleSelector.streamsScore) ?? 0
    return pool.filter { i in
      let di = duration(candidates[i])
      return abs(di - db) <= 0.01 * max(di, db)
        && (candidates[i].playlist?.chapterCount ?? 0) == cb
        && (candidates[i].playlist.map(LibblurayTitleSelector.streamsScore) ?? 0) == sb
    }.sorted()
  }

  /// Rule 2: a clip without clip information on the disc.
  private static func excludeMissingClips(
    _ candidates: [Candidate], _ entries: inout [Entry], _ clips: Set<String>
  ) {
    for (i, c) in candidates.enumerated() where entries[i].excluded == nil {
      let missing = (c.playlist?.playItems ?? []).flatMap(\.clips).map(\.clipID).filter {
        !clips.contains($0)
      }
      if !missing.isEmpty { entries[i].excluded = .missingClips(Array(Set(missing)).sorted()) }
    }
  }

  /// Rule 1: unreadable, empty, and invalid in/out times.
  private static func excludeUnplayable(_ candidates: [Candidate], _ entries: inout [Entry]) {
    for (i, c) in candidates.enumerated() {
      guard let pl = c.playlist else {
        entries[i].excluded = .unreadable(nil)
        continue
      }
      if pl.playItems.isEmpty {
        entries[i].excluded = .empty
      } else if pl.playItems.contains(where: { !$0.hasValidTimes }) {
        entries[i].excluded = .invalidTimes
      }
    }
  }

  /// Rule 3: duplicates; of playlists playing the same segments, the one with the strongest
  /// evidence (named, navigation, menu, none), then the lowest number, is kept.
  ///
  /// - Parameter menus: the menu evidence, when `evidence.menu` is not yet known: asked for only
  ///   when a group of duplicates has no member with named or navigation evidence.
  private static func excludeDuplicates(
    _ candidates: [Candidate], _ entries: inout [Entry], _ evidence: Evidence,
    menus: (() -> [Int: [String]])? = nil
  ) {
    // Ranked once per candidate (a BD-J menu can name thousands of playlists: no scan of the
    // named evidence inside the sort).
    let named = Set(evidence.named.compactMap { Int($0.key) })
    var rank = candidates.indices.map { i -> Int in
      let n = candidates[i].number
      if named.contains(n) { return 0 }
      if evidence.navigation[n] != nil || !entries[i].playedByTitles.isEmpty { return 1 }
      return evidence.menu[n] != nil ? 2 : 3
    }
    var groups: [[LibblurayTitleSelector.SegmentKey]: [Int]] = [:]
    for i in candidates.indices where entries[i].excluded == nil {
      guard let pl = candidates[i].playlist else { continue }
      let key = pl.playItems.map {
        LibblurayTitleSelector.SegmentKey(
          clip: $0.clip.clipID, inTime: $0.inTime, outTime: $0.outTime)
      }
      groups[key, default: []].append(i)
    }
    if let menus,
      groups.values.contains(where: { $0.count > 1 && $0.allSatisfy { rank[$0] >= 2 } })
    {
      let menu = menus()
      for i in candidates.indices where rank[i] == 3 && menu[candidates[i].number] != nil {
        rank[i] = 2
      }
    }
    for members in groups.values where members.count > 1 {
      guard
        let kept = members.min(by: {
          (rank[$0], candidates[$0].number, $0) < (rank[$1], candidates[$1].number, $1)
        })
      else { continue }
      for i in members where i != kept {
        entries[i].excluded = .duplicate(of: candidates[kept].name)
      }
    }
  }

  /// Rules 4 and 5: repeated segments, then too short.
  private static func excludeLoopingAndShort(
    _ candidates: [Candidate], _ entries: inout [Entry], minSeconds: Double
  ) {
    for (i, c) in candidates.enumerated() where entries[i].excluded == nil {
      guard let pl = c.playlist else { continue }
      var seen = Set<String>()
      if pl.playItems.contains(where: { !seen.insert("\($0.clip.clipID)@\($0.inTime)").inserted }) {
        entries[i].excluded = .repeatedSegments
      } else if Double(pl.duration45k) / 45000 < minSeconds {
        entries[i].excluded = .tooShort
      }
    }
  }

  private static func duration(_ c: Candidate) -> Double { Double(c.playlist?.duration45k ?? 0) }

  /// Backward steps in (clip, in-time) order: obfuscated decoys shuffle their segments.
  private static func inversions(_ c: Candidate) -> Int {
    guard let items = c.playlist?.playItems else { return 0 }
    var n = 0
    for k in items.indices.dropFirst() {
      let a = items[k - 1]
      let b = items[k]
      if (a.clip.clipID, a.inTime) > (b.clip.clipID, b.inTime) { n += 1 }
    }
    return n
  }

  /// The best of `pool`: longest, then (within 1 %) more chapters, more streams, fewer
  /// out-of-order segments, the lower playlist number.
  private static func best(of pool: [Int], _ candidates: [Candidate]) -> Int? {
    // Each candidate's ranking fields computed once, not in every comparison.
    struct Key {
      var index: Int
      var duration: Double
      var chapters: Int
      var streams: Int
      var inversions: Int
      var number: Int
    }
    let keys = pool.map { i in
      Key(
        index: i, duration: duration(candidates[i]),
        chapters: candidates[i].playlist?.chapterCount ?? 0,
        streams: candidates[i].playlist.map(LibblurayTitleSelector.streamsScore) ?? 0,
        inversions: inversions(candidates[i]), number: candidates[i].number)
    }
    return keys.max { a, b in
      // "a < b" means b is better.
      if abs(a.duration - b.duration) > 0.01 * max(a.duration, b.duration) {
        return a.duration < b.duration
      }
      if a.chapters != b.chapters { return a.chapters < b.chapters }
      if a.streams != b.streams { return a.streams < b.streams }
      if a.inversions != b.inversions { return a.inversions > b.inversions }
      return (a.number, a.index) > (b.number, b.index)
    }?.index
  }

}
