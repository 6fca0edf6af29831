extension DiscTitle {
  /// Where playback from a title time starts.
  public struct PlaybackStart: Sendable, Hashable {
    /// The requested time, clamped to the title.
    public var time: MediaTime
    /// The offset in ``DiscTitle/byteSource()`` of the random access point at or before the time
    /// (Blu-ray: moved back over the PAT/PMT/PCR packets before it; DVD: the VOBU's navigation
    /// pack).
    public var offset: Int64
    /// Blu-ray: the PSI packets of a non-seamless clip that precede its range in the title, to be
    /// sent before the bytes from ``offset`` (usually empty); DVD: empty.
    public var prefix: [UInt8]
    /// The title time of the random access point playback starts from (at or before ``time``):
    /// Blu-ray, the EP-map entry's presentation time; DVD, the VOBU's; a chapter cut, the
    /// chapter's start. Decoded pictures begin here.
    public var keyframeTime: MediaTime
  }

  /// Where playback from `time` starts: the random access point at or before it, PAT/PMT
  /// first, exactly as libbluray's first read after `bd_seek_time` (Blu-ray) or at the VOBU whose
  /// time covers it (DVD).
  public func playbackStart(at time: MediaTime) throws(DiscKitError) -> PlaybackStart {
    let clamped = MediaTime(ticks: min(max(time.ticks, 0), duration.ticks))
    switch content {
    case .bluray(let title):
      let start = try title.playbackStart(forTitleTime: UInt64(clamped.ticks))
      return PlaybackStart(
        time: clamped, offset: start.offset, prefix: start.prefix,
        keyframeTime: title.keyframeTime(forTitleTime: UInt64(clamped.ticks)))
    case .dvd(let title, let disc):
      let source = try disc.byteSource(title: title, angle: angle)
      let seek = try disc.timeSeek(in: source, titleSet: title.titleSet, to: clamped.ticks)
      return PlaybackStart(
        time: clamped, offset: seek.offset, prefix: [],
        keyframeTime: MediaTime(ticks: min(max(seek.time90k, 0), clamped.ticks)))
    }
  }

  /// The title's bytes as a player starting at `time` reads them, on the disc's own timeline
  /// (``byteSource(timeline:startingAt:)`` with ``TitleTimeline/original``).
  public func byteSource(startingAt time: MediaTime) throws(DiscKitError) -> any ByteSource {
    try byteSource(timeline: .original, from: try playbackStart(at: time))
  }

  /// The title's bytes on `timeline` as a player starting at `time` reads them: the
  /// ``PlaybackStart/prefix`` followed by the title from ``PlaybackStart/offset`` to the end, as
  /// one source. On the continuous timeline the prefix's timestamps move with those of the clip
  /// it belongs to, so the whole source is on one timeline.
  public func byteSource(timeline: TitleTimeline, startingAt time: MediaTime)
    throws(DiscKitError) -> any ByteSource
  {
    try byteSource(timeline: timeline, from: try playbackStart(at: time))
  }

  /// The title's bytes on `timeline` from a playback start found by
  /// ``playbackStart(at:)``: its prefix (on the same timeline), then the title from its offset.
  public func byteSource(timeline: TitleTimeline, from start: PlaybackStart)
    throws(DiscKitError) -> any ByteSource
  {
    let whole = try byteSource(timeline: timeline)
    return try cut(whole, from: start, to: whole.size, structure: "title \(key) from \(start.time)")
  }

  /// `start`'s prefix (on the timeline of `whole`) followed by `whole` from `start`'s offset to
  /// `end`, as one source.
  func cut(_ whole: any ByteSource, from start: PlaybackStart, to end: Int64, structure: String)
    throws(DiscKitError) -> any ByteSource
  {
    let from = min(max(start.offset, 0), whole.size)
    let to = min(max(end, from), whole.size)
    var parts: [ConcatenatedByteSource.Extent] = []
    if !start.prefix.isEmpty {
      let prefix = try prefixSource(start, of: whole)
      parts.append(.init(source: prefix, offset: 0, length: prefix.size))
    }
    parts.append(.init(source: whole, offset: from, length: to - from))
    return try ConcatenatedByteSource(parts, structure: structure)
  }

  /// The prefix of `start` as a source on the timeline of `whole` (the title's bytes from
  /// ``byteSource(timeline:)``): on the continuous timeline its timestamps (PCR) are moved and its
  /// continuity counters renumbered like those of the clip whose range begins at
  /// ``PlaybackStart/offset``.
  func prefixSource(_ start: PlaybackStart, of whole: any ByteSource) throws(DiscKitError)
    -> any ByteSource
  {
    guard let continuous = whole as? ContinuousTimelineByteSource,
      let index = continuous.shifts.firstIndex(where: {
        $0.start <= start.offset && start.offset < $0.end
      })
    else { return MemoryByteSource(start.prefix) }
    return try Self.prefixSource(
      start.prefix, delta90k: continuous.shifts[index].delta90k,
      renumbering: continuous.joins.isEmpty ? [] : continuous.joins[index].renumbering)
  }

  /// Source packets (192 bytes) with every timestamp moved by `delta90k` (modulo 2^33) and the
  /// continuity counters of the PIDs in `renumbering` moved on, as the clip they precede.
  package static func prefixSource(
    _ packets: [UInt8], delta90k: UInt64, renumbering: [TransportStreamJoin.Renumbering] = []
  ) throws(DiscKitError) -> any ByteSource {
    let memory = MemoryByteSource(packets)
    guard delta90k & TimestampField.mask != 0 || !renumbering.isEmpty else { return memory }
    let count = memory.size
    return try ContinuousTimelineByteSource(
      base: memory, shifts: [TimestampShift(start: 0, end: count, delta90k: delta90k)],
      layout: .transportStream(packetSize: 192),
      joins: renumbering.isEmpty
        ? [] : [TransportStreamJoin(start: 0, end: count, renumbering: renumbering, nulling: [])])
  }

  /// The pre-scan of the title's bytes (first PAT, first IDR and audio PTS, pre-IDR gap), from the
  /// start or from the playback start for `time`.
  public enum ScanReport: Sendable, Encodable {
    /// A Blu-ray title: a transport stream.
    case transportStream(PESScanReport)
    /// A DVD title: a program stream.
    case programStream(ProgramStreamScanReport)

    public func encode(to encoder: any Encoder) throws {
      switch self {
      case .transportStream(let report): try report.encode(to: encoder)
      case .programStream(let report): try report.encode(to: encoder)
      }
    }
  }

  /// Scans `window` bytes of the title from its start, or from where playback at `time` starts
  /// (as a player receives them: on a Blu-ray the spliced PSI packets included, clip boundaries
  /// known to the scanner so a clip change is no continuity error).
  ///
  /// - Parameter timeline: the timeline of the scanned bytes, so that the timestamps reported are
  ///   those of the bytes ``byteSource(timeline:startingAt:)`` gives (and `disckit serve` streams)
  ///   on the same timeline. Offsets are the same on both timelines.
  public func scan(
    at time: MediaTime? = nil, timeline: TitleTimeline = .continuous,
    window: Int64 = PESPreScanner.defaultWindow, options: PESScanOptions = PESScanOptions()
  ) throws(DiscKitError) -> ScanReport {
    try scan(at: time, offset: 0, timeline: timeline, window: window, options: options)
  }

  /// Scans `window` bytes of the title from byte `offset` of ``byteSource(timeline:)``.
  public func scan(
    from offset: Int64, timeline: TitleTimeline = .continuous,
    window: Int64 = PESPreScanner.defaultWindow, options: PESScanOptions = PESScanOptions()
  ) throws(DiscKitError) -> ScanReport {
    try scan(at: nil, offset: offset, timeline: timeline, window: window, options: options)
  }

  private func scan(
    at time: MediaTime?, offset: Int64, timeline: TitleTimeline, window: Int64,
    options: PESScanOptions
  ) throws(DiscKitError) -> ScanReport {
    switch content {
    case .bluray(let title):
      var source: any ByteSource = try title.byteSource(timeline: timeline)
      var start = offset
      var boundaries = title.clips.map(\.titleOffset).filter { $0 > 0 }
      if let time {
        let clamped = MediaTime(ticks: min(max(time.ticks, 0), duration.ticks))
        let found = try title.playbackStart(forTitleTime: UInt64(clamped.ticks))
        let playback = PlaybackStart(
          time: clamped, offset: found.offset, prefix: found.prefix,
          keyframeTime: title.keyframeTime(forTitleTime: UInt64(clamped.ticks)))
        let spliced = try Self.splice(
          try prefixSource(playback, of: source), into: source, at: playback.offset)
        source = spliced.source
        start = spliced.offset
        boundaries = boundaries.map { $0 == playback.offset ? spliced.offset : $0 }
      }
      var options = options
      options.streamBoundaries = boundaries
      return .transportStream(
        try PESPreScanner.scan(source: source, offset: start, window: window, options: options))
    case .dvd(let title, let disc):
      // The continuous timeline moves timestamps in place: offsets are the same on both, so the
      // time seek reads the disc's own bytes.
      let original = try disc.byteSource(title: title, angle: angle)
      let source =
        timeline == .original
        ? original : try disc.byteSource(title: title, angle: angle, timeline: timeline)
      var start = offset
      if let time {
        start = try disc.timeSeek(in: original, titleSet: title.titleSet, to: max(time.ticks, 0))
          .offset
      }
      return .programStream(
        try ProgramStreamScanner.scan(source: source, offset: start, window: window))
    }
  }
}

extension DiscTitle {
  /// `source` with `prefix` spliced in just before `offset` (over the bytes there), and the
  /// offset to read from: as ``BlurayTitle/PlaybackStart/splice(into:)``, with the prefix given
  /// as a source (on the timeline of `source`).
  static func splice(_ prefix: any ByteSource, into source: any ByteSource, at offset: Int64)
    throws(DiscKitError) -> (source: any ByteSource, offset: Int64)
  {
    let count = min(prefix.size, offset)
    guard count > 0 else { return (source, offset) }
    let from = offset - count
    let spliced = try ConcatenatedByteSource(
      [
        .init(source: source, offset: 0, length: from),
        .init(source: prefix, offset: prefix.size - count, length: count),
        .init(source: source, offset: offset, length: source.size - offset),
      ], structure: "title with playback prefix")
    return (spliced, from)
  }
}
