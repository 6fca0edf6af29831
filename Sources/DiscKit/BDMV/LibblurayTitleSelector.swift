/// libbluray's title list and main-title guess (`nav_get_title_list` + `_pl_guess_main_title`),
/// reproduced exactly: same filters, same order, same 45 kHz uint32 arithmetic, same ties.
///
/// The playlists must be given in libbluray's enumeration order (on an image the directory's
/// on-disc order; on a folder libbluray uses `readdir()` order, which depends on the file system).
package enum LibblurayTitleSelector {
  /// `TITLES_FILTER_DUP_TITLE` / `TITLES_FILTER_DUP_CLIP`.
  package struct Flags: OptionSet, Sendable, Hashable {
    /// The flag bits (libbluray's `TITLES_*` values).
    package let rawValue: UInt8
    /// Creates flags from libbluray's bit values.
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `TITLES_FILTER_DUP_TITLE`: leave out a playlist identical to one already listed.
    package static let duplicateTitles = Flags(rawValue: 1)
    /// `TITLES_FILTER_DUP_CLIP`: leave out a playlist that plays one (clip, in, out) segment more
    /// than twice.
    package static let duplicateClips = Flags(rawValue: 2)
    /// `TITLES_RELEVANT`.
    package static let relevant: Flags = [.duplicateTitles, .duplicateClips]
    /// `TITLES_ALL`.
    package static let all: Flags = []
  }

  /// One playlist and its fate.
  package struct Entry: Sendable {
    /// The playlist file name, e.g. `00800.mpls`.
    package var name: String
    /// Index in the title list, or `nil` when excluded.
    package var titleIndex: Int?
    /// Why the playlist is left out, or `nil` when it is listed: ``TitleExclusion/unreadable(_:)``
    /// (without an error), ``TitleExclusion/duplicate(of:)``,
    /// ``TitleExclusion/repeatedSegments`` or ``TitleExclusion/tooShort``.
    package var exclusion: TitleExclusion?
  }

  /// The outcome.
  package struct Result: Sendable {
    /// Every playlist, in enumeration order.
    package var entries: [Entry]
    /// The titles' playlist names (libbluray's title numbering, 0-based).
    package var titles: [String]
    /// The main title: an index into ``titles`` (libbluray's `main_title_idx`; 0 when the list is empty).
    package var mainTitle: Int
  }

  /// Builds the list.
  ///
  /// - Parameters:
  ///   - playlists: `(name, playlist)` in enumeration order; `nil` playlists are unreadable.
  ///   - minSeconds: libbluray's `min_title_length`.
  ///   - known: libbluray's `MainFeature`/`Playlists` disc property (normally absent).
  package static func select(
    _ playlists: [(name: String, playlist: MoviePlaylist?)], flags: Flags, minSeconds: UInt32 = 0,
    known: String? = nil
  ) -> Result {
    var accepted: [MoviePlaylist] = []
    var titles: [String] = []
    var entries: [Entry] = []
    var main = 0
    // Accepted playlists bucketed by a key that equal playlists share (a fast path for discs
    // with hundreds of playlists; the bucket keeps list order, so the first match is libbluray's).
    var buckets: [BucketKey: [Int]] = [:]
    for (name, candidate) in playlists where !name.hasPrefix(".") {
      guard let pl = candidate else {
        entries.append(Entry(name: name, titleIndex: nil, exclusion: .unreadable(nil)))
        continue
      }
      let key = BucketKey(pl)
      let duplicateIndex = buckets[key]?.first { samePlaylist(pl, accepted[$0]) }
      if flags.contains(.duplicateTitles), let d = duplicateIndex {
        entries.append(Entry(name: name, titleIndex: nil, exclusion: .duplicate(of: titles[d])))
        continue
      }
      let repeats = hasRepeatedSegments(pl, limit: 2)
      if flags.contains(.duplicateClips) && repeats {
        entries.append(Entry(name: name, titleIndex: nil, exclusion: .repeatedSegments))
        continue
      }
      if minSeconds > 0 && UInt64(pl.duration45k) < UInt64(minSeconds) * 45000 {
        entries.append(Entry(name: name, titleIndex: nil, exclusion: .tooShort))
        continue
      }
      let i = accepted.count
      accepted.append(pl)
      buckets[key, default: []].append(i)
      titles.append(name)
      if duplicateIndex == nil && !repeats {
        let currentName = main < i ? titles[main] : name
        if guess(pl, accepted[main], name, currentName, known) <= 0 { main = i }
      }
      entries.append(Entry(name: name, titleIndex: i, exclusion: nil))
    }
    return Result(entries: entries, titles: titles, mainTitle: main)
  }

  /// `_pl_cmp == 0`: libbluray's notion of two identical playlists.
  package static func samePlaylist(_ a: MoviePlaylist, _ b: MoviePlaylist) -> Bool {
    guard a.playItems.count == b.playItems.count, a.marks.count == b.marks.count,
      a.subPaths.count == b.subPaths.count, a.extensionSubPaths.count == b.extensionSubPaths.count
    else { return false }
    for (m, n) in zip(a.marks, b.marks)
    where m.type != n.type || m.playItemRef != n.playItemRef || m.time != n.time
      || m.entryESPID != n.entryESPID
      || m.duration != n.duration
    {
      return false
    }
    for (p, q) in zip(a.playItems, b.playItems) {
      guard p.clip.clipID == q.clip.clipID, p.inTime == q.inTime, p.outTime == q.outTime,
        p.streams.sameForDuplicateCheck(q.streams)
      else { return false }
    }
    return true
  }

  /// `!_filter_repeats(pl, limit)`: some (clip, in, out) segment occurs more than `limit` times.
  package static func hasRepeatedSegments(_ pl: MoviePlaylist, limit: Int) -> Bool {
    var counts: [SegmentKey: Int] = [:]
    for item in pl.playItems {
      let key = SegmentKey(clip: item.clip.clipID, inTime: item.inTime, outTime: item.outTime)
      let n = (counts[key] ?? 0) + 1
      if n > limit { return true }
      counts[key] = n
    }
    return false
  }

  struct BucketKey: Hashable {
    var items: Int
    var marks: Int
    var subPaths: Int
    var first: SegmentKey?
    init(_ pl: MoviePlaylist) {
      items = pl.playItems.count
      marks = pl.marks.count
      subPaths = pl.subPaths.count &* 65536 &+ pl.extensionSubPaths.count
      first = pl.playItems.first.map {
        SegmentKey(clip: $0.clip.clipID, inTime: $0.inTime, outTime: $0.outTime)
      }
    }
  }

  struct SegmentKey: Hashable {
    var clip: String
    var inTime: UInt32
    var outTime: UInt32
  }

  static func streamsScore(_ pl: MoviePlaylist) -> Int {
    var audio = 0
    var pg = 0
    for k in pl.playItems.indices {
      audio = max(audio, pl.playItems[k].streams.audio.count)
      pg = max(pg, pl.playItems[k].streams.primaryPGCount)
    }
    return audio * 2 + pg
  }

  static func videoProps(_ pl: MoviePlaylist) -> (format: Int, codec: Int) {
    var format = 0
    var codec = 0
    for v in pl.playItems.first?.streams.video ?? [] {
      if v.codingType > 4 && codec < 1 { codec = 1 }
      if v.codingType == 0x24 { codec = 2 }
      if (v.format == 4 || v.format == 6) && format < 1 { format = 1 }
      if v.format == 8 { format = 2 }
    }
    return (format, codec)
  }

  /// `_pl_guess_main_title(p1 = new, p2 = current)`: < 0 prefers p1, > 0 prefers p2.
  static func guess(
    _ p1: MoviePlaylist, _ p2: MoviePlaylist, _ id1: String, _ id2: String, _ known: String?
  ) -> Int {
    let d1 = p1.duration45k
    let d2 = p2.duration45k
    let thirtyMinutes: UInt32 = 30 * 60 * 45000
    if d1 > thirtyMinutes && d2 > thirtyMinutes {
      let c1 = p1.chapterCount
      let c2 = p2.chapterCount
      let diff = c2 - c1
      if (c1 < 2 || c2 < 2) && (diff < -5 || diff > 5) { return diff }
      let v1 = videoProps(p1)
      let v2 = videoProps(p2)
      if v1.format != v2.format { return v2.format - v1.format }
      if v2.codec != v1.codec { return v2.codec - v1.codec }
      // libbluray's HD-audio rule compares the audio *format* nibble with coding types: never fires.
      if let known {
        let k1 = known.lowercased().contains(id1.lowercased()) ? 1 : 0
        let k2 = known.lowercased().contains(id2.lowercased()) ? 1 : 0
        if k2 != k1 { return k2 - k1 }
      }
    }
    if d1 < d2 { return 1 }
    if d1 > d2 { return -1 }
    return streamsScore(p2) - streamsScore(p1)
  }
}
