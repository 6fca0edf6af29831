import Synchronization

extension Disc {
  /// The disc's episodes, each once and in playing order, with the play-all and the extras
  /// named (see ``EpisodeList``); a movie disc gives a list that is not episodic.
  public func episodeList() throws(DiscKitError) -> EpisodeList {
    if let known = episodeCache.list { return known }
    let mainKey = try titleList().mainKey
    episodeCache.setDefault(mainKey)
    return try episodeList(mainKey: mainKey)
  }

  /// ``episodeList()`` with the main title already chosen (`disckit titles` lists both).
  package func episodeList(mainKey: String?) throws(DiscKitError) -> EpisodeList {
    if let known = episodeCache.list(mainKey: mainKey) { return known }
    let list = try findEpisodes(mainKey: mainKey)
    episodeCache.store(list, mainKey: mainKey)
    return list
  }

  private func findEpisodes(mainKey: String?) throws(DiscKitError) -> EpisodeList {
    switch navigation {
    case .bluray(let bluray):
      return bluray.episodeList(bluray.episodeFinding(main: mainKey.flatMap { Int($0) }))
    case .dvd(let dvd):
      return dvd.episodeList(main: mainKey.flatMap { Int($0) })
    }
  }

  /// Each episode as a title of its own (``Episode/titleKey``, e.g. `00002:e3`): from 0, with its
  /// own chapters, served like any title (byte sources on both timelines, time seeks, scans,
  /// Matroska). Empty when the disc is not episodic.
  public func episodes(angle: Int = 1) throws(DiscKitError) -> [DiscTitle] {
    let list = try episodeList()
    var titles: [DiscTitle] = []
    for episode in list.episodes { titles.append(try title(episode: episode, angle: angle)) }
    return titles
  }

  /// Episode `number` (1-based) as a title of its own.
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` when the disc has no such episode.
  public func episode(_ number: Int, angle: Int = 1) throws(DiscKitError) -> DiscTitle {
    let list = try episodeList()
    guard let episode = list.episodes.first(where: { $0.number == number }) else {
      throw DiscKitError(
        .notFound, "episode \(number)", at: nil,
        list.episodic
          ? "the disc has \(list.episodes.count) episodes"
          : "the disc is not episodic: \(list.reason)")
    }
    return try title(episode: episode, angle: angle)
  }

  /// The title of `episode`.
  public func title(episode: Episode, angle: Int = 1) throws(DiscKitError) -> DiscTitle {
    switch navigation {
    case .bluray(let bluray):
      let title = try bluray.episodeTitle(episode, angle: max(angle - 1, 0))
      return try DiscTitle(
        bluray: bluray, title: title, number: nil, requestedAngle: angle
      ).renamed(episode.titleKey)
    case .dvd(let dvd):
      return try dvd.episodeTitle(episode, angle: angle).renamed(episode.titleKey)
    }
  }

  /// `00002:e3` → (`00002`, 3); `nil` for a key that names no episode.
  static func episodeKey(_ key: String) -> (holder: String, number: Int)? {
    guard let colon = key.firstIndex(of: ":") else { return nil }
    let holder = String(key[..<colon])
    var rest = key[key.index(after: colon)...]
    guard rest.first == "e" || rest.first == "E" else { return nil }
    rest = rest.dropFirst()
    guard !rest.isEmpty, rest.count <= 4, rest.allSatisfy(\.isASCIIDigit), let n = Int(rest),
      !holder.isEmpty
    else { return nil }
    return (holder, n)
  }

  /// The title an episode key (`00002:e3`) names.
  func title(episodeKey key: String, angle: Int) throws(DiscKitError) -> DiscTitle? {
    guard let (holder, number) = Self.episodeKey(key) else { return nil }
    let list = try episodeList()
    let wanted =
      holder.hasSuffix(".mpls") ? String(holder.dropLast(5)) : holder
    guard
      let episode = list.episodes.first(where: {
        $0.number == number && (Int($0.key) == Int(wanted))
      })
    else {
      throw DiscKitError(
        .notFound, "episode \(key)", at: nil,
        list.episodic
          ? "the disc's episodes are \(list.episodes.map(\.titleKey).joined(separator: ", "))"
          : "the disc is not episodic: \(list.reason)")
    }
    return try title(episode: episode, angle: angle)
  }
}

/// The episode list of a disc, computed once: a server asks for it at every request of an
/// episode key. The main title's key it was found with is kept (a list found for another main
/// title, as `--min-length` can choose, is not reused).
final class EpisodeCache: Sendable {
  /// Lists by the main title's key they were found with (`""`: none), and the default title
  /// selection's main key once known.
  private let storage = Mutex<(lists: [String: EpisodeList], defaultKey: String??)>(([:], nil))

  /// The list found with the default title selection's main title.
  var list: EpisodeList? {
    storage.withLock { s in s.defaultKey.flatMap { s.lists[$0 ?? ""] } }
  }

  func list(mainKey: String?) -> EpisodeList? { storage.withLock { $0.lists[mainKey ?? ""] } }

  func store(_ list: EpisodeList, mainKey: String?) {
    storage.withLock { if $0.lists.count < 8 { $0.lists[mainKey ?? ""] = list } }
  }

  func setDefault(_ mainKey: String?) { storage.withLock { $0.defaultKey = .some(mainKey) } }
}

extension DiscTitle {
  /// The same title under another key (an episode's `00002:e3`).
  init(renaming other: DiscTitle, key: String) {
    content = other.content
    self.key = key
    number = other.number
    angle = other.angle
  }

  func renamed(_ key: String) -> DiscTitle { DiscTitle(renaming: self, key: key) }

  /// Whether this title is an episode cut from another title (its key names an episode).
  public var isEpisode: Bool { Disc.episodeKey(key) != nil }
}
