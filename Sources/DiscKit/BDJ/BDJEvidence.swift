/// One piece of evidence, found in a disc's BD-J objects, JAR files or authoring project file,
/// that the disc names a playlist.
@_spi(Formats)
public struct BDJEvidence: Sendable, Hashable {
  /// How much the evidence says, weakest first.
  public enum Trust: Int, Sendable, Hashable, Comparable, Codable {
    /// The playlist is only listed: the first entry of a BD-J title's table of accessible
    /// playlists with the autostart flag (often a menu background), or a file name in a resource.
    case listed
    /// A locator in a JAR that no autostart application of a BD-J title loads.
    case otherJAR
    /// A locator in the JAR of an autostart application of a BD-J title.
    case autostartJAR
    /// A studio key or element naming the feature (`featurePlaylist=800`).
    case featureKey
    /// An authoring project record naming the feature whose duration matches the playlist's.
    case projectRecord

    /// Weaker than.
    public static func < (a: Trust, b: Trust) -> Bool { a.rawValue < b.rawValue }
  }

  /// Where the evidence is.
  public enum Source: Sendable, Hashable {
    /// The table of accessible playlists of a BDJO (its first entry, autostart flag set).
    case accessiblePlaylists(bdjo: String)
    /// A string in a JAR member (or a file of a JAR directory).
    case jar(path: String, member: String, className: String?, mention: PlaylistMention)
    /// A record of an authoring project file.
    case projectFile(path: String, record: BlurayProjectFile.Record)
  }

  /// The playlist number named.
  public var playlist: Int
  /// Where.
  public var source: Source
  /// How much it says.
  public var trust: Trust
  /// The BD-J objects whose applications load the JAR (or whose table this is).
  public var bdjo: [String]
  /// The index titles starting those objects (0 top menu, 65535 first play, as libbluray).
  public var titles: [Int]
  /// Whether an autostart application of one of those objects loads the JAR.
  public var autostart: Bool
  /// Whether the playlist is accessible to those objects (listed in their table of accessible
  /// playlists, or the table grants access to all).
  public var accessible: Bool
  /// How many playlists of the disc the same class file, resource or project file names (1: only
  /// this one). A program naming one playlist says more than a table naming hundreds.
  public var playlistsNamedBySameSource: Int = 1

  /// The evidence in words, e.g. `bd://0.PLAYLIST:00800 in BDMV/JAR/00000.jar
  /// (com/studio/Menu.class), autostart application of BDJO 00000 (title 1)`.
  public var detail: String {
    var text: String
    switch source {
    case .accessiblePlaylists(let bdjo):
      text = "first playlist of BDJO \(bdjo)'s table of accessible playlists, autostart flag set"
    case .jar(let path, let member, let className, let mention):
      text =
        "\(mention.form == .locator ? "locator" : mention.form == .fileName ? "file name" : "feature key") "
      text += "\"\(mention.text)\" in \(path)"
      if !member.isEmpty { text += " (\(className.map { $0 + ".class" } ?? member))" }
    case .projectFile(let path, let record):
      text =
        "\(record.name) in \(path): playlist \(record.playlist), \(record.presentation), "
        + "\(record.frameRate) fps, \(record.duration), matching the playlist's duration"
    }
    if autostart { text += ", autostart application" }
    if !bdjo.isEmpty { text += " of BDJO \(bdjo.joined(separator: ", "))" }
    if !titles.isEmpty {
      text +=
        " (title \(titles.map { $0 == 65535 ? "first play" : String($0) }.joined(separator: ", ")))"
    }
    if accessible, case .jar = source {
      text += "; the playlist is in the title's accessible table"
    }
    return text
  }
}
