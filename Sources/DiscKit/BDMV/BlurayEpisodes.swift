/// Finds the episodes of a Blu-ray: the disc's menus and navigation first, then the structure of
/// its playlists (see ``EpisodeList`` and the README's episode section).
///
/// Rules, in order:
/// 1. **navigation**: the buttons of each menu page are run in the `HDMVMachine` from the state
///    the menu was entered with (a button that sets a register and jumps to a title whose object
///    plays `PlayPL`, `PlayPLatPI` or `PlayPLatMK` counts as what that object plays). A page whose
///    buttons start one playlist at two or more points, each range at least five minutes and of
///    similar lengths, lists episodes as ranges of that playlist; a page whose buttons start two
///    or more long playlists of similar lengths lists them as episodes. The page with the most
///    episodes wins. The menus are read (from the stream files) only when the structure shows
///    episodes or candidates for them (``MenuReading``): they confirm, order or replace what the
///    structure shows, and never split a feature.
/// 2. **structure**: playlists playing the same segments are one title (variants). A *play-all*
///    is a playlist with two or more long items (five minutes or more) of similar lengths, none
///    repeated, outside a permutation family; when each of its long items is the one long item of
///    a playlist of its own, those playlists are the episodes; otherwise its items are (with the
///    short items every episode repeats before or after it). Without a play-all, two or more
///    playlists of one long clip each, of similar lengths and the longest on the disc, are the
///    episodes. A single long clip whose chapters repeat a pattern (an opening or ending of the
///    same length every few chapters) is split at the pattern.
/// A feature (one long clip, or several of unlike lengths) is never split.
package enum BlurayEpisodeFinder {
  /// A play item at least this long (45 kHz) can be an episode: five minutes.
  package static let longItem: UInt32 = 300 * 45_000
  /// Episodes found from chapter patterns are at least ten minutes long.
  package static let chapterEpisode: UInt32 = 600 * 45_000

  /// One episode as found: a range of a playlist.
  package struct Item: Sendable, Hashable {
    /// The playlist holding it.
    package var playlist: Int
    /// Where it starts and ends on the playlist's timeline (45 kHz).
    package var start: UInt32
    package var end: UInt32
    /// The whole playlist (not a range of it).
    package var whole: Bool
    /// Playlists playing the same episode.
    package var variants: [Int] = []
    /// How it was found.
    package var evidence: [String] = []
    /// The kind of the evidence.
    package var kind: TitleEvidence.Kind = .heuristic
  }

  /// The outcome.
  package struct Found: Sendable {
    package var layout: EpisodeLayout?
    package var confidence: TitleConfidence?
    package var reason: String
    package var items: [Item] = []
    package var playAll: [Int] = []
    package var extras: [Int] = []
    package var candidates: [Int]?
  }

  /// A segment: a play item's clip range.
  struct Segment: Hashable {
    var clip: String
    var inTime: UInt32
    var outTime: UInt32
    var duration: UInt32 { outTime &- inTime }

    /// The same picture: the same clip, overlapping by 90 % of the longer one (an episode's own
    /// playlist often ends a few frames from the play-all's item).
    func matches(_ other: Segment) -> Bool {
      guard clip == other.clip else { return false }
      let lo = max(inTime, other.inTime)
      let hi = min(outTime, other.outTime)
      guard hi > lo else { return false }
      return UInt64(hi - lo) * 10 >= UInt64(max(duration, other.duration)) * 9
    }
  }

  /// A readable playlist.
  struct Playlist {
    var number: Int
    var playlist: MoviePlaylist
    var segments: [Segment]
    /// Each item's start on the playlist's timeline (45 kHz).
    var starts: [UInt32]
    var duration: UInt32
    var long: [Int] {
      segments.indices.filter { segments[$0].duration >= BlurayEpisodeFinder.longItem }
    }
    func end(ofItem i: Int) -> UInt32 { starts[i] &+ segments[i].duration }
  }

  /// When the menus are read for episodes.
  package enum MenuReading: Sendable {
    /// Only when they can change the answer: the structure shows episodes, or episode
    /// candidates (play-alls it cannot choose between, a single long clip whose chapters repeat
    /// an opening or ending every five minutes or more), which the menus confirm, order or
    /// replace. A disc whose structure is a
    /// feature's (one long title without such a pattern, titles of unlike lengths, a permutation
    /// flood; extras beside it) is not split by its menus: a page starting the feature at
    /// several chapters is a scene selection, a page starting featurettes an extras page, and no
    /// stream byte is read for them.
    case whenTheyCanChange
    /// Always, before the structure is looked at (the rule before issue 29; for tests comparing
    /// both).
    case always
  }

  /// Finds the episodes, reading the menus (`menuRuns`, asked for at most once) only as
  /// `reading` says.
  ///
  /// - Parameters:
  ///   - runs: the navigation runs (``BlurayDisc/navigationRuns()``).
  ///   - menuRuns: the menu buttons run (``BlurayDisc/menuRuns(_:)``), when asked for.
  ///   - main: the main title's playlist number, when known.
  /// - Returns: what was found, and whether the menus were asked for.
  package static func find(
    _ disc: BlurayDisc, runs: [HDMVRun], main: Int?, reading: MenuReading = .whenTheyCanChange,
    menuRuns: () -> [HDMVRun]
  ) -> (found: Found, menusRead: Bool) {
    if reading == .whenTheyCanChange {
      // The structure alone (the navigation's runs, no menu): a disc on which it shows neither
      // episodes nor candidates (undecided play-alls, a chapter pattern) keeps that answer.
      switch prepare(disc, runs: runs, menuRuns: [], main: main) {
      case .decided(let found):
        return (found, false)
      case .context(let context):
        var structure = context.fromStructure()
        if structure.items.count < 2 && structure.candidates == nil
          && !context.hasChapterCandidates()
        {
          context.name(&structure)
          return (structure, false)
        }
      }
    }
    return (find(disc, runs: runs, menuRuns: menuRuns(), main: main), true)
  }

  /// What ``prepare(_:runs:menuRuns:main:)`` gives: an answer already (the main title is a
  /// permutation family's), or the playlists to look at.
  enum Prepared {
    case decided(Found)
    case context(Context)
  }

  /// Finds the episodes from the navigation runs and the menu buttons run.
  ///
  /// - Parameters:
  ///   - runs: the navigation runs (``BlurayDisc/navigationRuns()``).
  ///   - menuRuns: the menu buttons run (``BlurayDisc/menuRuns(_:)``).
  ///   - main: the main title's playlist number, when known.
  package static func find(
    _ disc: BlurayDisc, runs: [HDMVRun], menuRuns: [HDMVRun], main: Int?
  ) -> Found {
    var context: Context
    switch prepare(disc, runs: runs, menuRuns: menuRuns, main: main) {
    case .decided(let found): return found
    case .context(let prepared): context = prepared
    }
    if var found = context.fromNavigation(menuRuns) {
      context.name(&found)
      return found
    }
    var found = context.fromStructure()
    context.name(&found)
    return found
  }

  /// The readable playlists, their variants (the representative of each: the lowest played by
  /// `runs` or `menuRuns`, else the lowest), the permutation families.
  static func prepare(
    _ disc: BlurayDisc, runs: [HDMVRun], menuRuns: [HDMVRun], main: Int?
  ) -> Prepared {
    var playlists: [Playlist] = []
    for file in disc.playlists {
      guard let pl = file.playlist, !pl.playItems.isEmpty,
        pl.playItems.allSatisfy({ $0.hasValidTimes && disc.clipInformation($0.clip.clipID) != nil })
      else { continue }
      var starts: [UInt32] = []
      var time: UInt32 = 0
      for item in pl.playItems {
        starts.append(time)
        time = time &+ item.duration45k
      }
      playlists.append(
        Playlist(
          number: file.number, playlist: pl,
          segments: pl.playItems.map {
            Segment(clip: $0.clip.clipID, inTime: $0.inTime, outTime: $0.outTime)
          }, starts: starts, duration: time))
    }
    let byNumber = Dictionary(playlists.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
    // Playlists the navigation plays (index titles, First Play, top menu, buttons).
    var played = Set<Int>()
    for list in [runs, menuRuns] {
      for run in list { for reach in run.reaches { played.insert(reach.playlist) } }
    }
    // Variants: the same segments in the same order.
    var groups: [[Segment]: [Int]] = [:]
    for p in playlists { groups[p.segments, default: []].append(p.number) }
    var variants: [Int: [Int]] = [:]
    var representative: [Int: Int] = [:]
    for (_, members) in groups {
      let rep =
        members.filter { played.contains($0) }.min() ?? members.min() ?? members[0]
      variants[rep] = members.filter { $0 != rep }.sorted()
      for m in members { representative[m] = rep }
    }
    let reps = playlists.filter { representative[$0.number] == $0.number }
    // Permutation families (floods) are features, never play-alls.
    let families = PlaylistFamily.families(
      reps.map {
        .init(
          name: TitleKeyText.five($0.number) + ".mpls", number: $0.number, playlist: $0.playlist)
      })
    let inFamily = Set(families.flatMap(\.members).compactMap { Int($0.prefix(5)) })
    if let main, inFamily.contains(representative[main] ?? main) {
      return .decided(
        Found(
          reason:
            "the main title is one of a family of playlists playing the same segments in other orders (a feature, not episodes)"
        ))
    }
    return .context(
      Context(
        byNumber: byNumber, reps: reps, variants: variants, representative: representative,
        inFamily: inFamily, main: main.map { representative[$0] ?? $0 }))
  }

  struct Context {
    var byNumber: [Int: Playlist]
    var reps: [Playlist]
    var variants: [Int: [Int]]
    var representative: [Int: Int]
    var inFamily: Set<Int>
    var main: Int?

    /// Lengths alike: the longest at most `ratio` times the shortest.
    static func alike(_ lengths: [UInt32], ratio: Double) -> Bool {
      guard let lo = lengths.min(), let hi = lengths.max(), lo > 0 else { return false }
      return Double(hi) <= Double(lo) * ratio
    }

    /// A play-all: two or more long items of similar lengths, none repeated, not a permutation.
    func isPlayAll(_ p: Playlist) -> Bool {
      let long = p.long
      guard long.count >= 2, !inFamily.contains(p.number) else { return false }
      let segments = long.map { p.segments[$0] }
      guard Set(segments).count == segments.count else { return false }
      for (a, x) in segments.enumerated() {
        for y in segments[(a + 1)...] where x.matches(y) { return false }
      }
      return Self.alike(segments.map(\.duration), ratio: 1.35)
    }

    // MARK: Navigation

    /// A menu button starting a playlist, as the evidence names it (the sentence is built only
    /// for the presses an answer keeps: a disc's menus hold hundreds of buttons).
    struct Press {
      enum How {
        case playlist
        case mark(Int)
        case item(Int)
      }
      var button: Int
      var page: Int
      var menu: Int
      var playlist: Int
      var how: How
      /// The command that started it, when the button's run went through a title or object.
      var at: HDMVLocation?

      /// `button 3 of page 1 of the menu in playlist 00010 starts it (PlayPLatMK 1 mark 4)`.
      var text: String {
        var how: String
        switch self.how {
        case .playlist: how = "PlayPL \(playlist)"
        case .mark(let mark): how = "PlayPLatMK \(playlist) mark \(mark)"
        case .item(let item): how = "PlayPLatPI \(playlist) item \(item)"
        }
        if let at { how += " in \(at)" }
        return
          "button \(button) of page \(page) of the menu in playlist \(TitleKeyText.five(menu)) starts it (\(how))"
      }
    }

    func fromNavigation(_ menuRuns: [HDMVRun]) -> Found? {
      struct Start: Hashable {
        var playlist: Int
        var time: UInt32
      }
      struct Page: Hashable {
        var menu: Int
        var page: Int
      }
      var pages: [Page: [(start: Start, press: Press)]] = [:]
      var order: [Page] = []
      for run in menuRuns {
        guard case .button(let page, let button, let menu) = run.entry,
          let reach = run.reaches.first,
          let p = byNumber[reach.playlist]
        else { continue }
        var time: UInt32 = 0
        var press = Press(
          button: button, page: page, menu: menu, playlist: reach.playlist, how: .playlist,
          at: reach.path.count > 1 ? reach.path.last : nil)
        let marks = p.playlist.marks
        if let mark = reach.mark, mark < marks.count {
          let m = marks[mark]
          let item = Int(m.playItemRef)
          guard item < p.segments.count else { continue }
          time = p.starts[item] &+ (m.time &- p.segments[item].inTime)
          press.how = .mark(mark)
        } else if let item = reach.playItem, item < p.starts.count {
          time = p.starts[item]
          press.how = .item(item)
        }
        let key = Page(menu: menu, page: page)
        if pages[key] == nil { order.append(key) }
        pages[key, default: []].append((Start(playlist: reach.playlist, time: time), press))
      }
      // The best page so far; its sentences (the reason, each episode's button) are written once
      // it has won.
      var best: (found: Found, presses: [Press?], reason: () -> String)?
      func consider(_ found: Found, _ presses: [Press?], _ reason: @escaping () -> String) {
        if best.map({ $0.found.items.count < found.items.count }) ?? true {
          best = (found, presses, reason)
        }
      }
      for key in order {
        let starts = pages[key] ?? []
        // A: one playlist started at two or more points.
        var byPlaylist: [Int: [UInt32: Press]] = [:]
        for s in starts where byPlaylist[s.start.playlist]?[s.start.time] == nil {
          byPlaylist[s.start.playlist, default: [:]][s.start.time] = s.press
        }
        for (number, points) in byPlaylist.sorted(by: { $0.key < $1.key }) where points.count >= 2 {
          guard let p = byNumber[number] else { continue }
          let times = points.keys.sorted()
          var items: [Item] = []
          var presses: [Press?] = []
          for (i, t) in times.enumerated() {
            let end: UInt32
            if i + 1 < times.count {
              end = times[i + 1]
            } else {
              guard let item = p.starts.lastIndex(where: { $0 <= t }) else { continue }
              end = p.end(ofItem: item)
            }
            items.append(Item(playlist: number, start: t, end: end, whole: false, kind: .menu))
            presses.append(points[t])
          }
          guard items.count >= 2,
            items.allSatisfy({ $0.end &- $0.start >= BlurayEpisodeFinder.longItem }),
            Self.alike(items.map { $0.end &- $0.start }, ratio: 1.5)
          else { continue }
          let layout: EpisodeLayout =
            items.allSatisfy { e in p.starts.contains(e.start) } ? .playItems : .chapters
          var found = Found(layout: layout, confidence: .navigation, reason: "", items: items)
          // A play-all of items (chapter ranges of one clip are the title itself, not a
          // play-all beside the episodes).
          if layout == .playItems { found.playAll = [number] }
          let count = items.count
          consider(found, presses) {
            "the buttons of page \(key.page) of the menu in playlist \(TitleKeyText.five(key.menu)) start playlist \(TitleKeyText.five(number)) at \(count) points"
          }
        }
        // B: two or more long playlists started from their beginning.
        var seen = Set<Int>()
        var whole: [Item] = []
        var presses: [Press?] = []
        for s in starts where s.start.time == 0 {
          let rep = representative[s.start.playlist] ?? s.start.playlist
          guard seen.insert(rep).inserted, let p = byNumber[rep],
            p.duration >= BlurayEpisodeFinder.longItem,
            !isPlayAll(p)
          else { continue }
          whole.append(Item(playlist: rep, start: 0, end: p.duration, whole: true, kind: .menu))
          presses.append(s.press)
        }
        if whole.count >= 2, Self.alike(whole.map(\.end), ratio: 1.5) {
          let found = Found(layout: .titles, confidence: .navigation, reason: "", items: whole)
          let count = whole.count
          consider(found, presses) {
            "the buttons of page \(key.page) of the menu in playlist \(TitleKeyText.five(key.menu)) start \(count) playlists of similar length"
          }
        }
      }
      guard let best else { return nil }
      var found = best.found
      found.reason = best.reason()
      for (i, press) in best.presses.enumerated() { found.items[i].evidence = [press?.text ?? ""] }
      return found
    }

    // MARK: Structure

    func fromStructure() -> Found {
      let playAlls = reps.filter(isPlayAll).sorted {
        ($0.long.count, $0.duration, -$0.number) > ($1.long.count, $1.duration, -$1.number)
      }
      // Playlists of one long clip.
      let singles = reps.filter { $0.long.count == 1 && !isPlayAll($0) }
      if let tie = undecidedPlayAlls(playAlls) {
        return Found(
          confidence: .ambiguous,
          reason:
            "play-alls \(tie.map(TitleKeyText.five).joined(separator: ", ")) play as many long clips of similar length, share none, and nothing on the disc (menu, main title) chooses between them: which holds the episodes is undecided",
          candidates: tie)
      }
      if let chosen = choosePlayAll(playAlls) {
        return fromPlayAll(chosen, playAlls: playAlls, singles: singles)
      }
      // No play-all: playlists of one long clip each, alike and the longest on the disc.
      var bodies: [(Playlist, Segment)] = []
      for p in singles {
        let body = p.segments[p.long[0]]
        if let k = bodies.firstIndex(where: { $0.1.matches(body) }) {
          // The same episode twice (a commentary copy): keep the one the main title is, else
          // the lower number.
          if p.number == main { bodies[k] = (p, body) }
          continue
        }
        bodies.append((p, body))
      }
      let longest = reps.map(\.duration).max() ?? 0
      if bodies.count >= 2, Self.alike(bodies.map { $0.0.duration }, ratio: 1.5),
        let top = bodies.map({ $0.0.duration }).max(), Double(top) * 1.5 >= Double(longest)
      {
        let ordered = bodies.sorted { ($0.1.clip, $0.1.inTime) < ($1.1.clip, $1.1.inTime) }
        var items: [Item] = []
        for (p, body) in ordered {
          var item = Item(playlist: p.number, start: 0, end: p.duration, whole: true)
          item.variants = singles.filter {
            $0.number != p.number && $0.segments[$0.long[0]].matches(body)
          }.map(\.number)
          item.evidence = [
            "a playlist of one long clip (\(body.clip)), one of \(bodies.count) of similar length; no play-all"
          ]
          items.append(item)
        }
        return Found(
          layout: .titles, confidence: .heuristic,
          reason:
            "\(items.count) playlists of one long clip each, of similar length, and no play-all: in clip order",
          items: items)
      }
      // One long clip with a periodic chapter pattern.
      if let feature = chapterFeature, let items = chapterSplit(feature), items.count >= 2 {
        return Found(
          layout: .chapters, confidence: .heuristic,
          reason:
            "playlist \(TitleKeyText.five(feature.number))'s long clip repeats a chapter pattern every episode: \(items.count) chapter ranges",
          items: items)
      }
      return Found(
        reason: bodies.count >= 2
          ? "the long playlists differ in length (a feature and extras)"
          : "one feature (no play-all, no episode playlists, no chapter pattern)")
    }

    /// Play-alls that the evidence cannot choose between: two or more with as many long items as
    /// the first, of similar total length (within 10 %), sharing no long clip, none holding the
    /// main title's material. `nil` when one is chosen.
    func undecidedPlayAlls(_ playAlls: [Playlist]) -> [Int]? {
      guard let top = playAlls.first else { return nil }
      if let main, let m = byNumber[main] {
        let mainLong = m.long.map { m.segments[$0] }
        if playAlls.contains(where: { p in
          p.long.contains { i in mainLong.contains { $0.matches(p.segments[i]) } }
        }) {
          return nil
        }
      }
      let tied = playAlls.filter {
        $0.long.count == top.long.count && Self.alike([$0.duration, top.duration], ratio: 1.1)
      }
      guard tied.count >= 2 else { return nil }
      for (a, x) in tied.enumerated() {
        for y in tied[(a + 1)...] {
          let shares = x.long.contains { i in
            y.long.contains { x.segments[i].matches(y.segments[$0]) }
          }
          if shares { return nil }
        }
      }
      return tied.map(\.number).sorted()
    }

    /// The playlist whose long clip may be split at a chapter pattern: the main title, else the
    /// longest.
    var chapterFeature: Playlist? {
      main.flatMap { byNumber[$0] } ?? reps.max { $0.duration < $1.duration }
    }

    /// Whether that playlist's long clip repeats a chapter pattern at the scale of short
    /// episodes (ranges of five minutes or more, ``BlurayEpisodeFinder/longItem``): candidates
    /// a menu page starting it at those chapters would confirm (the structure alone splits at
    /// ten minutes or more).
    func hasChapterCandidates() -> Bool {
      guard let feature = chapterFeature else { return false }
      return (chapterSplit(feature, minimum: BlurayEpisodeFinder.longItem)?.count ?? 0) >= 2
    }

    /// The play-all holding the episodes: the one with the main title's material, else the one
    /// with the most long items.
    func choosePlayAll(_ playAlls: [Playlist]) -> Playlist? {
      guard !playAlls.isEmpty else { return nil }
      if let main, let m = byNumber[main] {
        let mainLong = m.long.map { m.segments[$0] }
        if let hit = playAlls.first(where: { p in
          p.long.contains { i in mainLong.contains { $0.matches(p.segments[i]) } }
        }) {
          return hit
        }
      }
      return playAlls.first
    }

    func fromPlayAll(_ p: Playlist, playAlls: [Playlist], singles: [Playlist]) -> Found {
      let long = p.long
      // Each long item's own playlists.
      let own = long.map { i in
        singles.filter { $0.segments[$0.long[0]].matches(p.segments[i]) }.map(\.number).sorted()
      }
      var found: Found
      if own.allSatisfy({ !$0.isEmpty }) {
        var items: [Item] = []
        for (j, numbers) in own.enumerated() {
          let chosen = numbers.first { $0 == main } ?? numbers[0]
          guard let q = byNumber[chosen] else { continue }
          var item = Item(playlist: chosen, start: 0, end: q.duration, whole: true)
          item.variants = numbers.filter { $0 != chosen }
          item.evidence = [
            "its one long clip \(p.segments[long[j]].clip) is item \(long[j] + 1) of play-all \(TitleKeyText.five(p.number))"
          ]
          items.append(item)
        }
        found = Found(
          layout: .titles, confidence: .heuristic,
          reason:
            "play-all \(TitleKeyText.five(p.number)) plays \(long.count) long clips, each the one long clip of a playlist of its own",
          items: items)
      } else {
        var items: [Item] = []
        for (j, range) in Self.decompose(p).enumerated() {
          var item = Item(
            playlist: p.number, start: p.starts[range.lowerBound],
            end: p.end(ofItem: range.upperBound),
            whole: false)
          item.variants = own[j]
          item.evidence = [
            "item\(range.count > 1 ? "s" : "") \(range.lowerBound + 1)\(range.count > 1 ? "-\(range.upperBound + 1)" : "") of play-all \(TitleKeyText.five(p.number)) (long clip \(p.segments[long[j]].clip))"
          ]
          items.append(item)
        }
        found = Found(
          layout: .playItems, confidence: .heuristic,
          reason:
            "play-all \(TitleKeyText.five(p.number)) plays \(long.count) long clips of similar length"
            + (own.contains { !$0.isEmpty } ? ", not all with a playlist of their own" : ""),
          items: items)
      }
      found.playAll = [p.number]
      for other in playAlls where other.number != p.number {
        let shares = other.long.contains { i in
          long.contains { p.segments[$0].matches(other.segments[i]) }
        }
        if shares { found.playAll.append(other.number) } else { found.extras.append(other.number) }
      }
      return found
    }

    /// The item ranges of a play-all's episodes: each long item with the short items every
    /// episode repeats directly before it (a logo, a recap) or after it (credits).
    static func decompose(_ p: Playlist) -> [ClosedRange<Int>] {
      let long = p.long
      guard let first = long.first, let last = long.last else { return [] }
      var gaps: [[Int]] = [Array(0..<first)]
      for (a, b) in zip(long, long.dropFirst()) { gaps.append(Array((a + 1)..<b)) }
      gaps.append(Array((last + 1)..<p.segments.count))
      func segs(_ gap: [Int]) -> Set<Segment> { Set(gap.map { p.segments[$0] }) }
      // Before every long item, and after every long item.
      let before = gaps.dropLast().map(segs).reduce(segs(gaps[0])) { $0.intersection($1) }
      let after = gaps.dropFirst().map(segs).reduce(segs(gaps[gaps.count - 1])) {
        $0.intersection($1)
      }.subtracting(before)
      return long.map { i in
        var lo = i
        while lo > 0, !long.contains(lo - 1), before.contains(p.segments[lo - 1]) { lo -= 1 }
        var hi = i
        while hi + 1 < p.segments.count, !long.contains(hi + 1), after.contains(p.segments[hi + 1])
        {
          hi += 1
        }
        return lo...hi
      }
    }

    /// A long clip's chapter ranges when its chapters repeat a pattern: `k` ranges of similar
    /// length, each boundary a chapter within 12 % of a `k`-th of the clip, whose first (or last)
    /// chapters have the same length (an opening, an ending; one episode, the first or the last,
    /// may lack it); of the boundaries that fit, those nearest the even split. The largest such
    /// `k` wins.
    func chapterSplit(
      _ p: Playlist, minimum: UInt32 = BlurayEpisodeFinder.chapterEpisode
    ) -> [Item]? {
      guard p.long.count == 1 else { return nil }
      let item = p.long[0]
      let itemStart = p.starts[item]
      let itemEnd = p.end(ofItem: item)
      let times = p.playlist.marks.filter { $0.isEntry && Int($0.playItemRef) == item }.map {
        itemStart &+ ($0.time &- p.segments[item].inTime)
      }.filter { $0 >= itemStart && $0 < itemEnd }
      guard times.count >= 4, let origin = times.first else { return nil }
      let total = Double(itemEnd - origin)
      func chapterLength(_ c: Int) -> UInt32 {
        (c + 1 < times.count ? times[c + 1] : itemEnd) - times[c]
      }
      /// 0: every episode opens (or closes) alike; 1: all but the first or the last; nil: no
      /// pattern.
      func exceptions(_ bounds: [Int]) -> Int? {
        let nexts = Array(bounds.dropFirst()) + [times.count]
        guard zip(bounds, nexts).allSatisfy({ $1 - $0 >= 2 }) else { return nil }
        func alike(_ xs: ArraySlice<UInt32>) -> Bool {
          guard let lo = xs.min(), let hi = xs.max() else { return false }
          return hi - lo <= 3 * 45_000 && hi <= 210 * 45_000
        }
        var best: Int?
        for lengths in [bounds.map(chapterLength), nexts.map { chapterLength($0 - 1) }] {
          if alike(lengths[...]) { return 0 }
          if lengths.count >= 3, alike(lengths.dropFirst()) || alike(lengths.dropLast()) {
            best = 1
          }
        }
        return best
      }
      var chosen: [Item]?
      for k in 2...max(2, min(12, times.count / 2)) {
        let target = total / Double(k)
        guard target >= Double(minimum) else { break }
        // The chapters near each boundary of the even split.
        var windows: [[Int]] = []
        for j in 1..<k {
          let want = Double(origin) + Double(j) * target
          windows.append(times.indices.filter { abs(Double(times[$0]) - want) <= 0.12 * target })
        }
        guard windows.allSatisfy({ !$0.isEmpty }),
          windows.reduce(1, { $0 * $1.count }) <= 4096
        else { continue }
        var best: (exceptions: Int, deviation: Double, bounds: [Int])?
        func search(_ j: Int, _ bounds: [Int], _ deviation: Double) {
          if j == windows.count {
            let ends = bounds.dropFirst().map { times[$0] } + [itemEnd]
            let lengths = zip(bounds.map { times[$0] }, ends).map { $1 - $0 }
            guard Self.alike(lengths, ratio: 1.35), let e = exceptions(bounds) else { return }
            if best.map({ (e, deviation) < ($0.exceptions, $0.deviation) }) ?? true {
              best = (e, deviation, bounds)
            }
            return
          }
          let want = Double(origin) + Double(j + 1) * target
          for c in windows[j] where c > (bounds.last ?? 0) {
            search(j + 1, bounds + [c], deviation + abs(Double(times[c]) - want))
          }
        }
        search(0, [0], 0)
        guard let bounds = best?.bounds else { continue }
        let ends = bounds.dropFirst().map { times[$0] } + [itemEnd]
        chosen = zip(bounds.map { times[$0] }, ends).map { start, end in
          Item(
            playlist: p.number, start: start, end: end, whole: false,
            evidence: [
              "chapter range of playlist \(TitleKeyText.five(p.number))'s long clip \(p.segments[item].clip): \(k) ranges of similar length, each opening (or closing) with a chapter of the same length"
            ])
        }
      }
      return chosen
    }

    /// Adds the variants of each episode's playlist and names the remaining long playlists as
    /// extras.
    func name(_ found: inout Found) {
      for i in found.items.indices {
        let own = variants[found.items[i].playlist] ?? []
        if found.items[i].whole {
          found.items[i].variants = (own + found.items[i].variants).sorted()
        }
      }
      guard found.items.count >= 2 else { return }
      found.playAll += found.playAll.flatMap { variants[$0] ?? [] }
      found.playAll.sort()
      let used = Set(found.items.map(\.playlist) + found.items.flatMap(\.variants) + found.playAll)
      let episodeLength = found.items.map { $0.end &- $0.start }.min() ?? 0
      for p in reps where !used.contains(p.number) && !found.extras.contains(p.number) {
        guard p.duration >= BlurayEpisodeFinder.longItem || p.duration * 2 >= episodeLength else {
          continue
        }
        // A playlist holding only episode material is a partial play-all.
        let bodies = found.items.compactMap { byNumber[$0.playlist] }.flatMap { q in
          q.long.map { q.segments[$0] }
        }
        let isEpisodeMaterial =
          !p.long.isEmpty
          && p.long.allSatisfy { i in bodies.contains { $0.matches(p.segments[i]) } }
        if isEpisodeMaterial && p.long.count >= 2 {
          found.playAll.append(p.number)
        } else if !isEpisodeMaterial {
          found.extras.append(p.number)
        }
      }
      found.extras.sort()
    }
  }
}

enum TitleKeyText {
  /// `2` → `00002`.
  static func five(_ number: Int) -> String {
    // Playlist numbers (0...99999) as five ASCII digits, written directly (interpolating and
    // padding costs a thousand instructions a key); others as interpolation gives them.
    guard (0...99_999).contains(number) else {
      let digits = "\(number)"
      return digits.count >= 5 ? digits : String(repeating: "0", count: 5 - digits.count) + digits
    }
    return String(unsafeUninitializedCapacity: 5) { buffer in
      var rest = number
      for i in (0..<5).reversed() {
        buffer[i] = UInt8(0x30 + rest % 10)
        rest /= 10
      }
      return 5
    }
  }
}
