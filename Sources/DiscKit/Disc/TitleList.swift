/// A disc's titles as a selection lists them: numbered, with the main title and the reason it was
/// chosen, and (when asked for) the titles set aside with why.
///
/// This is what `disckit titles` prints; servers and batch jobs get the same list here.
public struct TitleList: Sendable {
  /// One listed title.
  public struct Entry: Sendable {
    /// The 1-based title number (`nil` for a title set aside on a Blu-ray, which is not numbered).
    public var number: Int?
    /// The key of the title (``DiscTitle/key``): `00800` on a Blu-ray, `3` on a DVD.
    public var key: String
    /// Why the selection set the title aside, or `nil` when it is listed as a title.
    public var excluded: TitleExclusion?
    /// Blu-ray: the index titles whose navigation plays this playlist (0 = first play).
    public var playedByTitles: [Int]
    /// Whether this is the main title.
    public var isMain: Bool
    /// How long the title plays, from its navigation file (the playlist, the DVD title's program
    /// chain); `nil` when that cannot be read.
    public var duration: MediaTime? = nil
    /// The title's angles, from its navigation file (the playlist, the DVD title search table);
    /// `nil` when that cannot be read.
    public var angleCount: Int? = nil
    /// Blu-ray: why the playlist cannot be read, when it cannot.
    public var error: DiscKitError? = nil
    /// DVD: the title set of the title and the title's number in it (title search table).
    package var dvdTitleSet: (set: Int, title: Int)? = nil
  }

  /// The selection used.
  public var selection: TitleSelection
  /// The listed titles, in disc order.
  public var entries: [Entry]
  /// The key of the main title, if any.
  public var mainKey: String?
  /// Why the main title was chosen.
  public var reason: String
  /// The evidence for the main title and against the titles it was preferred to, strongest kind
  /// first (see ``TitleEvidence``).
  public var evidence: [TitleEvidence] = []
  /// What decided the main title (`nil` when there is none).
  public var confidence: TitleConfidence? = nil
  /// When ``confidence`` is ``TitleConfidence/ambiguous``: the keys of the titles nothing on the
  /// disc tells apart from the main title, the main title among them.
  public var candidates: [String] = []
  /// Blu-ray: the clips whose menus were read from their stream files to answer (empty when the
  /// answer did not depend on a menu: then no stream file was read).
  public var menusRead: [MenuRead] = []
  /// Blu-ray: other versions of the main title (other cuts the disc plays, the same cut with
  /// other streams), with what differs.
  public var versions: [Version] = []

  /// Another version of the main title.
  public struct Version: Sendable, Hashable {
    /// The title's key (`00801`).
    public var key: String
    /// `extended`, `alternate` or `shorter` (another cut: longer by a minute or more, within a
    /// minute, shorter by a minute or more), `commentary` (the same cut with more audio
    /// streams) or `streams` (the same cut with other streams).
    public var kind: String
    /// Its duration minus the main title's.
    public var durationDifference: MediaTime
    /// Its audio and subtitle streams minus the main title's.
    public var audioDifference: Int
    public var subtitleDifference: Int
    /// What differs, in words (`alternate cut, 0:00:02.000 longer, 1 more audio stream`).
    public var detail: String
  }

  /// A clip whose menu (its interactive-graphics composition) was read from its stream file, up
  /// to the first complete composition.
  public struct MenuRead: Sendable, Hashable {
    /// The clip, e.g. `00050`.
    public var clip: String
    /// The bytes of the clip's stream file read.
    public var bytesRead: Int64
    /// The buttons of the menu, or `nil` when what was read holds no complete composition.
    public var buttons: Int?
    /// Why the stream file could not be read or its menu parsed.
    public var error: DiscKitError?
  }
}

extension Disc {
  /// The titles `selection` lists, numbered as `disckit titles` numbers them.
  ///
  /// - Parameters:
  ///   - includeExcluded: also list the titles the selection set aside (with the reason).
  ///   - minimumLength: hide titles shorter than this (the main title is always kept); on a
  ///     Blu-ray with ``TitleSelection/smart`` it also replaces the 20 s minimum.
  public func titleList(
    selection: TitleSelection = .smart, includeExcluded: Bool = false,
    minimumLength: MediaTime? = nil
  ) throws(DiscKitError) -> TitleList {
    switch navigation {
    case .bluray(let bluray):
      return try TitleList(
        bluray: bluray, selection: selection, includeExcluded: includeExcluded,
        minimumLength: minimumLength)
    case .dvd(let dvd):
      return TitleList(
        dvd: dvd, selection: selection, includeExcluded: includeExcluded,
        minimumLength: minimumLength)
    }
  }

  /// `00800.mpls` → `00800`.
  static func key(ofPlaylist name: String) -> String {
    name.lowercased().hasSuffix(".mpls") ? String(name.dropLast(5)) : name
  }

}

extension TitleList {
  /// The title list of a Blu-ray (see ``Disc/titleList(selection:includeExcluded:minimumLength:)``).
  ///
  /// - Throws: ``DiscKitError/Code/invalidArgument`` for ``TitleSelection/lsdvd``.
  @_spi(Formats)
  public init(
    bluray disc: BlurayDisc, selection: TitleSelection = .smart, includeExcluded: Bool = false,
    minimumLength: MediaTime? = nil
  ) throws(DiscKitError) {
    let minSeconds = minimumLength.map { max($0.seconds, 0) }
    switch selection {
    case .libbluray:
      let navigation = disc.navigationMap
      let flags: LibblurayTitleSelector.Flags = includeExcluded ? .all : .relevant
      let result = LibblurayTitleSelector.select(
        disc.playlists.map { ($0.name, $0.playlist) }, flags: flags,
        minSeconds: UInt32(min(minSeconds ?? 0, 4_000_000_000)))
      let mainName = result.titles.isEmpty ? nil : result.titles[result.mainTitle]
      var entries: [TitleList.Entry] = []
      for (file, entry) in zip(disc.playlists.filter { !$0.name.hasPrefix(".") }, result.entries) {
        let reason = entry.exclusion
        if reason != nil && !includeExcluded { continue }
        entries.append(
          .init(
            number: entry.titleIndex.map { $0 + 1 }, key: Disc.key(ofPlaylist: file.name),
            excluded: reason, playedByTitles: navigation[file.number] ?? [],
            isMain: file.name == mainName,
            duration: file.playlist.map { MediaTime(ticks45k: $0.duration45k) },
            angleCount: file.playlist?.angleCount, error: file.error))
      }
      self.init(
        selection: selection, entries: entries, mainKey: mainName.map(Disc.key(ofPlaylist:)),
        reason:
          "libbluray's main-title guess (nav_get_title_list, flags \(includeExcluded ? "TITLES_ALL" : "TITLES_RELEVANT"))",
        evidence: mainName.map {
          [
            TitleEvidence(
              kind: .heuristic, key: Disc.key(ofPlaylist: $0),
              detail: "libbluray's main title: the longest, then more chapters, then more streams")
          ]
        } ?? [],
        confidence: mainName == nil ? nil : .heuristic)
    case .smart:
      // The navigation runs once; what the BD-J programs and project files name comes first.
      let result = disc.smartSelection(
        minSeconds: minSeconds ?? 20, relaxMinimum: minSeconds == nil)
      var entries: [TitleList.Entry] = []
      var number = 0
      for (file, entry) in zip(disc.playlists, result.entries) {
        if entry.excluded == nil {
          number += 1
        } else if !includeExcluded {
          continue
        }
        entries.append(
          .init(
            number: entry.excluded == nil ? number : nil, key: Disc.key(ofPlaylist: file.name),
            excluded: entry.excluded, playedByTitles: entry.playedByTitles,
            isMain: file.name == result.main,
            duration: file.playlist.map { MediaTime(ticks45k: $0.duration45k) },
            angleCount: file.playlist?.angleCount, error: file.error))
      }
      self.init(
        selection: selection, entries: entries, mainKey: result.main.map(Disc.key(ofPlaylist:)),
        reason: result.reason, evidence: result.evidence, confidence: result.confidence,
        candidates: result.candidates.map(Disc.key(ofPlaylist:)),
        menusRead: result.menuReads.map {
          MenuRead(
            clip: $0.clip, bytesRead: $0.bytesRead, buttons: $0.composition?.buttonCount,
            error: $0.error)
        },
        versions: result.versions.map {
          Version(
            key: Disc.key(ofPlaylist: $0.name), kind: $0.kind.rawValue,
            durationDifference: MediaTime(ticks: $0.durationDifference45k * 2),
            audioDifference: $0.audioDifference, subtitleDifference: $0.subtitleDifference,
            detail: $0.detail)
        })
    case .lsdvd:
      throw DiscKitError(
        .invalidArgument, "title selection", at: nil,
        "lsdvd selection applies to DVDs; use smart or libbluray")
    }
  }

  /// The title list of a DVD (see ``Disc/titleList(selection:includeExcluded:minimumLength:)``);
  /// ``TitleSelection/libbluray`` means ``TitleSelection/smart`` here.
  @_spi(Formats)
  public init(
    dvd disc: DVDDisc, selection: TitleSelection = .smart, includeExcluded: Bool = false,
    minimumLength: MediaTime? = nil
  ) {
    let main: Int?
    let reason: String
    var aside: [Int: TitleExclusion] = [:]
    var evidence: [TitleEvidence] = []
    var confidence: TitleConfidence?
    var candidates: [String] = []
    switch selection {
    case .lsdvd:
      let report = LsdvdTitleSelector.report(disc)
      let listed = Set(report.tracks.map(\.number))
      for n in disc.titles.indices.map({ $0 + 1 }) where !listed.contains(n) {
        aside[n] = .skippedByLsdvd
      }
      main = report.longestTrack == 0 ? nil : report.longestTrack
      reason = "lsdvd's longest track: first title with the greatest first-PGC playback time"
      if let main {
        evidence = [.init(kind: .heuristic, key: String(main), detail: reason)]
        confidence = .heuristic
      }
    case .smart, .libbluray:
      let chosen = DVDSmartTitleSelector.select(disc)
      (main, reason, aside) = (chosen.title, chosen.reason, chosen.setAside)
      (evidence, confidence) = (chosen.evidence, chosen.confidence)
      candidates = chosen.candidates.map { String($0) }
    }
    var entries: [TitleList.Entry] = []
    for (index, result) in disc.titles.enumerated() {
      let number = index + 1
      let isMain = number == main
      if !includeExcluded && !isMain && aside[number] != nil { continue }
      if let minimumLength, !isMain, case .success(let title) = result,
        title.duration90k < minimumLength.ticks
      {
        continue
      }
      let search = disc.videoManager.titles.titles
      let info = index < search.count ? search[index] : nil
      entries.append(
        .init(
          number: number, key: String(number), excluded: aside[number], playedByTitles: [],
          isMain: isMain, duration: (try? result.get()).map { MediaTime(ticks: $0.duration90k) },
          angleCount: info?.angleCount,
          dvdTitleSet: info.map { (set: $0.titleSet, title: $0.titleInSet) }))
    }
    self.init(
      selection: selection, entries: entries, mainKey: main.map { String($0) }, reason: reason,
      evidence: evidence, confidence: confidence, candidates: candidates)
  }
}
