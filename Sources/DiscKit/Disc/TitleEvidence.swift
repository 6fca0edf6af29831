/// One fact that speaks for (or against) a title being the disc's main title, with where it
/// comes from.
///
/// The main-title selection (``TitleSelection/smart``) collects evidence in an order of trust:
/// what the disc *names* (a BD-J program or an authoring project file), what its *navigation*
/// plays when executed (First Play, the index titles, menu buttons), and only then the
/// *heuristics* of length, chapters and streams. ``TitleList/evidence`` lists what was found for
/// the main title and for the titles it was preferred to; ``TitleList/confidence`` says which kind
/// decided.
public struct TitleEvidence: Sendable, Hashable, Codable {
  /// Where a piece of evidence comes from, in order of trust.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A BD-J program names the playlist (a locator in a JAR of the title's application, the
    /// BDJO's table of accessible playlists).
    case bdj
    /// An authoring project file carried on the disc names the playlist, and its duration
    /// matches the playlist's.
    case projectFile = "project-file"
    /// The disc's navigation commands play the title when executed from First Play or an index
    /// title (Blu-ray HDMV movie objects, DVD pre/post/cell commands).
    case navigation
    /// A menu button plays the title (a Blu-ray Interactive Graphics button, a DVD highlight
    /// button) when its commands are executed.
    case menu
    /// The title belongs to a family of titles that play the same clips in other orders (a
    /// permutation flood); the detail gives the family's size.
    case family
    /// A physical implausibility counts against the title (larger than the disc, missing clips,
    /// repeated segments).
    case physical
    /// The length, chapter and stream rules decided.
    case heuristic
  }

  /// Where the evidence comes from.
  public var kind: Kind
  /// The title the evidence is about (``DiscTitle/key``: `00800` on a Blu-ray, `3` on a DVD).
  public var key: String
  /// What was found, in words (e.g. `PlayPL 800 in movie object 4, reached from index title 1`).
  public var detail: String

  /// Creates a piece of evidence.
  public init(kind: Kind, key: String, detail: String) {
    self.kind = kind
    self.key = key
    self.detail = detail
  }
}

/// How the main title was decided: which kind of evidence settled it, or that nothing could.
public enum TitleConfidence: String, Sendable, Hashable, Codable, CaseIterable {
  /// The disc names the title (BD-J, an authoring project file).
  case named
  /// The disc's navigation or menus play the title, and no rival is played the same way.
  case navigation
  /// Length, chapters and streams decided: nothing on the disc points at one title, but the
  /// chosen title is distinguishable from the others.
  case heuristic
  /// Several titles are indistinguishable by everything DiscKit reads (``TitleList/candidates``
  /// lists them); the main title was picked among them by a fixed rule that the reason names.
  case ambiguous
}
