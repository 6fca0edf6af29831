/// How a disc lays out its episodes (see ``EpisodeList``).
public enum EpisodeLayout: String, Sendable, Hashable, Codable, CaseIterable {
  /// One title per episode: a playlist per episode on a Blu-ray (often beside a play-all of the
  /// same clips), a title per episode on a DVD.
  case titles
  /// The play items of one play-all playlist, one (with its repeated logo or credits items) per
  /// episode, and no playlist of its own for every episode.
  case playItems = "play-items"
  /// Ranges of one long title: chapter ranges (a Blu-ray clip holding several episodes, a DVD
  /// title whose chapters a menu reaches with `JumpVTS_PTT`).
  case chapters
  /// The PGCs of one DVD title, one per episode: the title plays them in a row (its PGCs linked
  /// by `NextPGC` or post commands' `LinkPGCN`) and the menu starts each (`LinkPGCN` from the
  /// title's first PGC, by a register the button sets), or the PGCs its chapters start when
  /// nothing links them. Each is a chapter range of the title, or, when no chapter of the title
  /// names it, a PGC of its own (``Episode/programChain``).
  case programChains = "program-chains"
}

/// One episode: where it is (the title that holds it and the range within it), its chapters,
/// the titles playing the same episode, and how DiscKit knows.
public struct Episode: Sendable, Hashable, Codable {
  /// 1-based, in playing order.
  public var number: Int
  /// The title that holds it (``DiscTitle/key``: the playlist `00002`, the DVD title `3`).
  public var key: String
  /// The key that opens the episode itself with ``Disc/title(key:angle:)`` (`00002:e3`): a
  /// title of its own, from 0, with its own chapters.
  public var titleKey: String
  /// Where it starts and ends on the timeline of the title that holds it (90 kHz).
  public var start90k: Int64
  public var end90k: Int64
  /// `end90k - start90k`, and as `h:mm:ss.mmm`.
  public var duration90k: Int64
  public var duration: String
  /// The chapters of the holding title it covers (1-based numbers), in order.
  public var chapters: [Int]
  /// Other titles that play the same episode (language or commentary copies, the episode's own
  /// playlist beside a play-all that holds it).
  public var variants: [String]
  /// How DiscKit knows, strongest first.
  public var evidence: [TitleEvidence]
  /// DVD: the PGC (of the holding title's title set) the episode is when no chapter of the title
  /// names it (a PGC the navigation reaches only by `LinkPGCN`): the title's timeline does not
  /// hold it, ``start90k`` and ``end90k`` are within the PGC and ``chapters`` is empty (the
  /// episode's own chapters are the PGC's programs). Absent otherwise.
  public var programChain: Int?

  /// An episode.
  public init(
    number: Int, key: String, start90k: Int64, end90k: Int64, chapters: [Int],
    variants: [String] = [], evidence: [TitleEvidence] = [], programChain: Int? = nil
  ) {
    self.number = number
    self.key = key
    titleKey = "\(key):e\(number)"
    self.start90k = start90k
    self.end90k = end90k
    duration90k = end90k - start90k
    duration = MediaTime(ticks: end90k - start90k).description
    self.chapters = chapters
    self.variants = variants
    self.evidence = evidence
    self.programChain = programChain
  }
}

/// A disc's episodes, each once and in playing order, with the play-all and extras named: what
/// `disckit titles` prints under "Episodes" and the `episodes` section of its JSON.
///
/// The disc's navigation decides first (menu buttons that start episodes, possibly through a
/// register and a title whose movie object plays `PlayPL`, `PlayPLatPI` or `PlayPLatMK`; DVD
/// buttons that jump to titles or chapters), then the structure (playlists whose one long clip
/// is an item of a play-all, a play-all alone, a long clip with a periodic chapter pattern). A
/// movie (one long feature, a permutation flood) is not split: ``isEpisodic`` is `false` and
/// ``episodes`` is empty.
public struct EpisodeList: Sendable, Hashable, Codable {
  /// Whether the disc holds two or more episodes.
  public var episodic: Bool
  /// How they are laid out (`nil` when not episodic).
  public var layout: EpisodeLayout?
  /// What decided: `navigation` (the menus or navigation start the episodes), `heuristic`
  /// (structure), `ambiguous` (see ``candidates``).
  public var confidence: TitleConfidence?
  /// Why, in words.
  public var reason: String
  /// The episodes in playing order.
  public var episodes: [Episode]
  /// Titles that play several episodes in a row (the play-all).
  public var playAll: [String]
  /// Menu buttons that play the episodes in a row without a play-all title of their own (a DVD
  /// button setting a GPRM flag that the episodes' post commands test to chain them), named by
  /// their menu (`VMGM PGC 1 button 1`); absent when there is none.
  public var playAllButtons: [String]?
  /// Titles of episode-like length that are not episodes (a second play-all of featurettes, long
  /// extras).
  public var extras: [String]
  /// When the evidence cannot decide (``TitleConfidence/ambiguous``): the titles that could hold
  /// the episodes; absent otherwise.
  public var candidates: [String]?

  /// Whether the disc holds two or more episodes.
  public var isEpisodic: Bool { episodic }

  /// A list.
  public init(
    layout: EpisodeLayout?, confidence: TitleConfidence?, reason: String, episodes: [Episode],
    playAll: [String] = [], extras: [String] = [], candidates: [String]? = nil,
    playAllButtons: [String]? = nil
  ) {
    episodic = episodes.count >= 2
    self.layout = episodes.count >= 2 ? layout : nil
    self.confidence = confidence
    self.reason = reason
    self.episodes = episodes.count >= 2 ? episodes : []
    self.playAll = playAll
    self.extras = extras
    self.candidates = candidates
    self.playAllButtons = playAllButtons
  }

  /// Undecided: the evidence cannot tell (no navigation, equal structures); `candidates` are the
  /// titles that could hold the episodes.
  public static func ambiguous(_ reason: String, candidates: [String]) -> EpisodeList {
    EpisodeList(
      layout: nil, confidence: .ambiguous, reason: reason, episodes: [], candidates: candidates)
  }

  /// Not episodic, and why.
  public static func none(_ reason: String, extras: [String] = []) -> EpisodeList {
    EpisodeList(layout: nil, confidence: nil, reason: reason, episodes: [], extras: extras)
  }
}
