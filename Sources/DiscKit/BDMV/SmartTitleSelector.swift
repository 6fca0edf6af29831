/// DiscKit's own title list and main-title choice, built to resist decoy and obfuscated playlists.
///
/// Rules, in order (each playlist set aside carries the reason):
/// 1. unreadable playlists, empty playlists, and playlists with an item whose in-time is after its
///    out-time (libbluray's wrapping sum makes those look ~26 h long) are excluded, except items
///    whose PTS cross the 33-bit wrap (``PlayItem/wrapsPTS``: a plausible wrapped duration);
/// 2. a playlist playing the same (clip, in, out) segments in the same order as one already kept is
///    a *duplicate* (marks and stream tables are ignored: they do not change the picture); among
///    duplicates the one the disc's navigation plays, else the lowest number, is kept;
/// 3. a playlist that plays one (clip, in-time) twice is *looping* ("repeated segments": menus
///    and decoys that pad their length by repeating a segment);
/// 4. playlists shorter than the minimum length are *too short*.
///
/// The main title is chosen among the rest: the *feature pool* is every playlist at least 80 % as
/// long as the longest; if the disc's navigation (index.bdmv titles → movie objects → `PlayPL`)
/// plays some of them, only those stay in the pool; then the longest wins, and near-equal lengths
/// (within 1 %) are decided by more chapters, more audio/subtitle streams, fewer out-of-order
/// segments (obfuscated decoys shuffle the segment order), then the lower playlist number.
public enum SmartTitleSelector {
  /// A candidate playlist.
  public struct Candidate: Sendable {
    /// The playlist file name, e.g. `00800.mpls`.
    public var name: String
    /// The playlist number (800 for `00800.mpls`).
    public var number: Int
    /// The parsed playlist, or `nil` when it could not be read.
    public var playlist: MoviePlaylist?
    /// Creates a candidate.
    public init(name: String, number: Int, playlist: MoviePlaylist?) {
      self.name = name
      self.number = number
      self.playlist = playlist
    }
  }

  /// One playlist's fate.
  public struct Entry: Sendable {
    /// The playlist file name, e.g. `00800.mpls`.
    public var name: String
    /// `nil` when kept; otherwise why it was set aside (``TitleExclusion/duplicate(of:)``, ...).
    public var excluded: TitleExclusion?
    /// Navigation titles that play this playlist (index title numbers; 0 = first play).
    public var playedByTitles: [Int]
  }

  /// The outcome.
  public struct Result: Sendable {
    /// Every candidate in input order.
    public var entries: [Entry]
    /// The main playlist's name, if any playlist survives.
    public var main: String?
    /// Why the main title was chosen.
    public var reason: String
    /// The evidence for the main title and against the playlists it was preferred to.
    public var evidence: [TitleEvidence] = []
    /// What decided (`nil` when there is no main title).
    public var confidence: TitleConfidence? = nil
    /// When ``confidence`` is ``TitleConfidence/ambiguous``: the playlists (file names) that
    /// nothing DiscKit reads tells apart from the main title, the main title among them.
    public var candidates: [String] = []
  }

  /// Selects.
  ///
  /// - Parameters:
  ///   - navigation: playlist number → index titles whose movie objects play it.
  ///   - minSeconds: shorter playlists are "too short".
  ///   - relaxMinimum: when every otherwise acceptable playlist is too short (a disc of short
  ///     clips), consider them anyway rather than report no main title. Pass `false` when the
  ///     user asked for the minimum explicitly.
  public static func select(
    _ candidates: [Candidate], navigation: [Int: [Int]] = [:], minSeconds: Double = 20,
    relaxMinimum: Bool = true
  )
    -> Result
  {
    var entries = candidates.map {
      Entry(name: $0.name, excluded: nil, playedByTitles: navigation[$0.number] ?? [])
    }
    excludeUnplayable(candidates, &entries)
    excludeDuplicates(candidates, &entries)
    excludeLoopingAndShort(candidates, &entries, minSeconds: minSeconds)

    var survivors = candidates.indices.filter { entries[$0].excluded == nil }
    var relaxed = false
    if survivors.isEmpty && relaxMinimum {
      survivors = candidates.indices.filter { entries[$0].excluded == .tooShort }
      for i in survivors { entries[i].excluded = nil }
      relaxed = !survivors.isEmpty
    }
    guard let longest = survivors.map({ candidates[$0].playlist?.duration45k ?? 0 }).max(),
      longest > 0
    else {
      return Result(entries: entries, main: nil, reason: "no playlist survives the filters")
    }
    var pool = survivors.filter {
      Double(candidates[$0].playlist?.duration45k ?? 0) >= 0.8 * Double(longest)
    }
    var reason: [String] = []
    let played = pool.filter { !entries[$0].playedByTitles.isEmpty }
    if !played.isEmpty && played.count < pool.count {
      pool = played
      reason.append("played by the disc's navigation")
    } else if !played.isEmpty {
      reason.append("played by the disc's navigation")
    }
    guard let best = best(of: pool, candidates) else {
      return Result(entries: entries, main: nil, reason: "no candidate")
    }
    let excludedCount = entries.count(where: { $0.excluded != nil })
    if pool.count == 1 {
      reason.append(
        reason.isEmpty
          ? "the only playlist at least 80% as long as the longest" : "the only such long playlist")
    } else {
      reason.append(
        "best of \(pool.count) playlists at least 80% as long as the longest (length, then chapters, streams, segment order)"
      )
    }
    if excludedCount > 0 {
      reason.append("\(excludedCount) playlist\(excludedCount == 1 ? "" : "s") set aside")
    }
    if let titles = entries[best].playedByTitles.first.map({ [$0] }), !titles.isEmpty {
      reason[0] =
        titles[0] == 0 ? "played by the first-play object" : "played by index title \(titles[0])"
      let longPlaylists = survivors.filter {
        duration(candidates[$0]) >= 0.8 * Double(longest)
      }
      if !played.isEmpty && played.count < longPlaylists.count {
        reason[0] += " (other long playlists are not)"
      }
    }
    if relaxed {
      reason.append("every playlist is shorter than \(Int(minSeconds)) s, so short ones count")
    }
    let tied = twins(of: best, in: pool, candidates)
    var evidence: [TitleEvidence] = []
    let confidence: TitleConfidence
    let key = Disc.key(ofPlaylist: candidates[best].name)
    for title in entries[best].playedByTitles.sorted() {
      evidence.append(
        .init(
          kind: .navigation, key: key,
          detail: title == 0 ? "played by the first-play object" : "played by index title \(title)")
      )
    }
    if tied.count > 1 {
      confidence = .ambiguous
      reason.append(
        "ambiguous: \(tied.count) playlists tie on length, chapters and streams; picked by fewest out-of-order segments, then the lowest number"
      )
      evidence.append(
        .init(
          kind: .heuristic, key: key,
          detail:
            "one of \(tied.count) playlists that nothing on the disc tells apart; picked by fewest out-of-order segments, then the lowest number"
        ))
    } else {
      confidence = entries[best].playedByTitles.isEmpty ? .heuristic : .navigation
      if confidence == .heuristic {
        evidence.append(.init(kind: .heuristic, key: key, detail: reason[0]))
      }
    }
    // Longer playlists that lost because the navigation plays the main title and not them.
    let bestDuration = duration(candidates[best])
    for i in survivors where !pool.contains(i) && entries[i].playedByTitles.isEmpty {
      if duration(candidates[i]) > bestDuration * 1.01 {
        evidence.append(
          .init(
            kind: .navigation, key: Disc.key(ofPlaylist: candidates[i].name),
            detail: "longer than the main title, but the disc's navigation does not play it"))
      }
    }
    return Result(
      entries: entries, main: candidates[best].name, reason: TextJoin.join(reason, separator: "; "),
      evidence: evidence, confidence: confidence,
      candidates: tied.count > 1 ? tied.map { candidates[$0].name } : [])
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

  /// Rule 2: duplicates; navigation-played playlists are visited first, then by number.
  private static func excludeDuplicates(_ candidates: [Candidate], _ entries: inout [Entry]) {
    let order = candidates.indices.filter { entries[$0].excluded == nil }.sorted { a, b in
      let na = entries[a].playedByTitles.isEmpty ? 1 : 0
      let nb = entries[b].playedByTitles.isEmpty ? 1 : 0
      return (na, candidates[a].number, a) < (nb, candidates[b].number, b)
    }
    var kept: [[LibblurayTitleSelector.SegmentKey]: String] = [:]
    for i in order {
      guard let pl = candidates[i].playlist else { continue }
      let key = pl.playItems.map {
        LibblurayTitleSelector.SegmentKey(
          clip: $0.clip.clipID, inTime: $0.inTime, outTime: $0.outTime)
      }
      if let first = kept[key] {
        entries[i].excluded = .duplicate(of: first)
      } else {
        kept[key] = candidates[i].name
      }
    }
  }

  /// Rules 3 and 4: repeated segments, then too short.
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
    pool.max { a, b in
      // "a < b" means b is better.
      let da = duration(candidates[a])
      let db = duration(candidates[b])
      if abs(da - db) > 0.01 * max(da, db) { return da < db }
      let ca = candidates[a].playlist?.chapterCount ?? 0
      let cb = candidates[b].playlist?.chapterCount ?? 0
      if ca != cb { return ca < cb }
      let sa = candidates[a].playlist.map(LibblurayTitleSelector.streamsScore) ?? 0
      let sb = candidates[b].playlist.map(LibblurayTitleSelector.streamsScore) ?? 0
      if sa != sb { return sa < sb }
      let ia = inversions(candidates[a])
      let ib = inversions(candidates[b])
      if ia != ib { return ia > ib }
      return (candidates[a].number, a) > (candidates[b].number, b)
    }
  }
}
