import DiscKit

/// `GET /discs`: every disc under the root.
public struct DiscListDocument: Codable, Sendable, Hashable {
  /// One disc.
  public struct Disc: Codable, Sendable, Hashable {
    /// The opaque stable id (a hash of ``path``).
    public var id: String
    /// The path relative to the root.
    public var path: String
    /// `bluray`, `uhd-bluray`, `avchd`, `dvd`; null when the disc cannot be opened.
    public var kind: String?
    /// The volume label.
    public var label: String?
    /// The main title's key (`00800`, or a DVD title number), null when there is none.
    public var mainTitle: String?
    /// The main title's duration in 90 kHz ticks.
    public var duration90k: Int64?
    /// Why the disc cannot be opened (DiscKit's error line), absent when it opens.
    public var error: String?
  }

  /// The discs, by path.
  public var discs: [Disc]
}

/// `GET /discs/{id}`: the document of `disckit info --json` (``InfoDocument``, with the path
/// relative to the root), plus the id, the main title and its duration.
public struct DiscInfoDocument: Codable, Sendable, Hashable {
  /// The disc's id.
  public var id: String
  /// The info document (its `path` relative to the root); encoded at the top level.
  public var info: InfoDocument
  /// The main title's key and duration.
  public var mainTitle: String?
  public var duration90k: Int64?

  /// The document of an opened disc.
  public init(_ disc: OpenedDisc) {
    id = disc.entry.id
    info = InfoDocument(image: disc.disc.image)
    info.path = disc.entry.path
    mainTitle = disc.main?.key
    duration90k = disc.main?.duration.ticks
  }

  private enum Key: String, CodingKey { case id, mainTitle, duration90k }

  public init(from decoder: any Decoder) throws {
    info = try InfoDocument(from: decoder)
    let container = try decoder.container(keyedBy: Key.self)
    id = try container.decode(String.self, forKey: .id)
    mainTitle = try container.decodeIfPresent(String.self, forKey: .mainTitle)
    duration90k = try container.decodeIfPresent(Int64.self, forKey: .duration90k)
  }

  public func encode(to encoder: any Encoder) throws {
    try info.encode(to: encoder)
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(id, forKey: .id)
    try container.encodeIfPresent(mainTitle, forKey: .mainTitle)
    try container.encodeIfPresent(duration90k, forKey: .duration90k)
  }
}

/// `GET /discs/{id}/titles/{key}/chapters`.
public struct ChaptersDocument: Codable, Sendable, Hashable {
  /// One chapter.
  public struct Chapter: Codable, Sendable, Hashable {
    /// 1-based.
    public var number: Int
    /// Title time of its start, 90 kHz.
    public var start90k: Int64
    public var duration90k: Int64
    /// Where it starts in the title's bytes (the stream URL without `start=`), when known.
    public var offset: Int64?
    /// The stream URL starting at this chapter (relative to the disc routes).
    public var stream: String
  }
  /// The title key.
  public var title: String
  public var chapters: [Chapter]
}

/// `GET /status`.
public struct StatusDocument: Codable, Sendable, Hashable {
  public var activeStreams: Int
  public var maxStreams: Int
  public var streamsServed: Int
  public var openDiscs: Int
}
