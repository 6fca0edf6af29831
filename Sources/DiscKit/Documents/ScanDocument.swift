/// The document `disckit scan` prints as JSON and `GET /discs/{id}/titles/{key}/scan` serves: the
/// pre-scan report (its fields at the top level), plus how the scan start was found.
///
/// JSON Schema: `Sources/DiscKit/Documents/Schemas/scan.schema.json`.
public struct ScanDocument: Encodable, Sendable {
  /// The disc title a scan covered and where it started.
  public struct TitleStart: Encodable, Sendable, Hashable {
    /// The title's key (``DiscTitle/key``).
    public var key: String
    /// The requested start on the title timeline (90 kHz), when the scan started at a time.
    public var at90k: Int64?
    /// The offset in the title's bytes where playback from that time starts (``DiscTitle/PlaybackStart``).
    public var offset: Int64
    /// Blu-ray: each play item's place on the title timeline, to map demuxed PTS to title time.
    public var clips: [Clip]?
    /// The timeline of the scanned bytes (and so of every timestamp reported): `continuous`, as
    /// `disckit extract` writes and `disckit serve` streams by default, or `original`.
    public var timeline: TitleTimeline?
  }

  /// A Blu-ray clip's place on the title timeline, to map demuxed PTS onto title time: a PTS `p`
  /// (90 kHz, in this clip's STC) maps to title time `p - inTime90k + titleStart90k`.
  public struct Clip: Sendable, Hashable, Codable {
    /// The five-digit name of the clip read, e.g. `"00012"`.
    public var clipID: String
    /// The clip's in PTS (90 kHz, the clip's own STC epoch).
    public var inTime90k: UInt64
    /// The clip's out PTS (90 kHz, the clip's own STC epoch).
    public var outTime90k: UInt64
    /// The title time at which this clip starts (90 kHz).
    public var titleStart90k: UInt64
    /// The STC sequence (`ref_to_STC_id`) the in and out times belong to.
    public var stcID: UInt8
    /// The clip's bytes in the title: `byteStart..<byteEnd`.
    public var byteStart: Int64
    /// The end (exclusive) of the clip's bytes in the title.
    public var byteEnd: Int64
  }

  /// The report.
  public var report: DiscTitle.ScanReport
  /// Stream files: the time seek that chose the start.
  public var seek: TransportStreamTimeSeek.Result?
  /// Disc titles: which title and where.
  public var title: TitleStart?

  /// A document of `report` and how its start was found.
  public init(
    report: DiscTitle.ScanReport, seek: TransportStreamTimeSeek.Result? = nil,
    title: TitleStart? = nil
  ) {
    self.report = report
    self.seek = seek
    self.title = title
  }

  /// Scans `title` on `timeline` from its start or from where playback at `time` starts.
  public init(
    title: DiscTitle, at time: MediaTime? = nil, timeline: TitleTimeline = .continuous,
    window: Int64 = PESPreScanner.defaultWindow, options: PESScanOptions = PESScanOptions()
  ) throws(DiscKitError) {
    var offset: Int64 = 0
    if let time { offset = try title.playbackStart(at: time).offset }
    self.init(
      report: try title.scan(at: time, timeline: timeline, window: window, options: options),
      title: TitleStart(
        key: title.key, at90k: time?.ticks, offset: offset,
        clips: Self.clips(title), timeline: timeline))
  }

  /// Scans `title` from byte `offset` of its ``DiscTitle/byteSource(timeline:)``.
  public init(
    title: DiscTitle, from offset: Int64, timeline: TitleTimeline = .continuous,
    window: Int64 = PESPreScanner.defaultWindow, options: PESScanOptions = PESScanOptions()
  ) throws(DiscKitError) {
    self.init(
      report: try title.scan(from: offset, timeline: timeline, window: window, options: options),
      title: TitleStart(
        key: title.key, at90k: nil, offset: offset,
        clips: Self.clips(title), timeline: timeline))
  }

  /// The title's clip ranges as the document lists them (`nil` on a DVD).
  private static func clips(_ title: DiscTitle) -> [Clip]? {
    let clips = title.clips
    guard !clips.isEmpty else { return nil }
    return clips.map {
      Clip(
        clipID: $0.clipID, inTime90k: UInt64(clamping: $0.inTime.ticks),
        outTime90k: UInt64(clamping: $0.outTime.ticks),
        titleStart90k: UInt64(clamping: $0.start.ticks), stcID: UInt8(clamping: $0.stcID),
        byteStart: $0.bytes.lowerBound, byteEnd: $0.bytes.upperBound)
    }
  }

  private enum Key: String, CodingKey { case seek, title }

  public func encode(to encoder: any Encoder) throws {
    try report.encode(to: encoder)
    var container = encoder.container(keyedBy: Key.self)
    try container.encodeIfPresent(seek, forKey: .seek)
    try container.encodeIfPresent(title, forKey: .title)
  }
}
