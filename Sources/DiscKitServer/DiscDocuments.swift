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
    public var duration90k: UInt64?
    /// Why the disc cannot be opened (DiscKit's error line), absent when it opens.
    public var error: String?
  }

  /// The discs, by path.
  public var discs: [Disc]
}

/// `GET /discs/{id}`: as `disckit info --json`, plus the id, the main title and its duration.
public struct DiscInfoDocument: Codable, Sendable, Hashable {
  public var id: String
  /// Relative to the root.
  public var path: String
  public var fileSystem: String
  public var udfRevision: String?
  public var volumeLabel: String
  public var imageSize: Int64?
  public var discKind: String
  public var notes: [String]?
  public var mainTitle: String?
  public var duration90k: UInt64?
  /// How many titles (Blu-ray playlists, DVD titles) the disc has.
  public var titleCount: Int

  /// The document of an opened disc.
  public init(_ disc: OpenedDisc) {
    let image = disc.image
    id = disc.entry.id
    path = disc.entry.path
    fileSystem = image.fileSystem.kind.rawValue
    udfRevision = image.fileSystem.revision
    volumeLabel = image.fileSystem.volumeLabel
    imageSize = image.source?.size
    discKind = image.kind.rawValue
    notes = image.notes.isEmpty ? nil : image.notes
    let main = disc.mainTitle()
    mainTitle = main?.key
    duration90k = main?.duration90k
    switch disc.navigation {
    case .bluray(let b): titleCount = b.playlists.count
    case .dvd(let d): titleCount = d.titles.count
    }
  }
}

/// `GET /discs/{id}/titles/{key}/chapters`.
public struct ChaptersDocument: Codable, Sendable, Hashable {
  /// One chapter.
  public struct Chapter: Codable, Sendable, Hashable {
    /// 1-based.
    public var number: Int
    /// Title time of its start, 90 kHz.
    public var start90k: UInt64
    public var duration90k: UInt64
    /// Where it starts in the title's bytes (the stream URL without `start=`), when known.
    public var offset: Int64?
    /// The stream URL starting at this chapter (relative to the disc routes).
    public var stream: String
  }
  /// The title key.
  public var title: String
  public var chapters: [Chapter]
}

/// `GET /discs/{id}/titles/{key}/scan`: the pre-scan report exactly as `disckit scan --json`
/// (the report's keys at the top level) plus where the scan started and the clip's time segment.
public struct ScanDocument: Encodable, Sendable {
  /// Where the stream of the same `start=` begins.
  public struct Start: Codable, Sendable, Hashable {
    /// The requested time, seconds (null: the title start).
    public var seconds: Double?
    /// The offset in the title's bytes (with the PSI prefix spliced in, on a Blu-ray) where the
    /// stream of the same `start=` begins; report offsets minus this are offsets in that stream.
    public var offset: Int64
    /// Bytes of the stream (its Content-Length).
    public var length: Int64
  }

  /// The clip played at the start (Blu-ray): its PTS epoch as a GStreamer segment.
  public struct Clip: Encodable, Sendable {
    public var index: Int
    public var clipID: String
    public var timeline: BlurayTitle.ClipTimeline
    /// The clip's `GstSegment` (PTS in ns → title time): feed it to the pipeline, or map
    /// demuxed PTS with it.
    public var segment: Segment?
  }

  public var start: Start
  public var clip: Clip?
  /// The transport-stream report (Blu-ray).
  public var transportStream: PESScanReport?
  /// The program-stream report (DVD).
  public var programStream: ProgramStreamScanReport?

  enum Key: String, CodingKey { case start, clip }

  public func encode(to encoder: any Encoder) throws {
    if let transportStream { try transportStream.encode(to: encoder) }
    if let programStream { try programStream.encode(to: encoder) }
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(start, forKey: .start)
    try container.encodeIfPresent(clip, forKey: .clip)
  }
}

/// `GET /status`.
public struct StatusDocument: Codable, Sendable, Hashable {
  public var activeStreams: Int
  public var maxStreams: Int
  public var streamsServed: Int
  public var openDiscs: Int
}
