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
  }

  /// Where playback from `time` starts: the random access point at or before it, PAT/PMT
  /// first, exactly as libbluray's first read after `bd_seek_time` (Blu-ray) or at the VOBU whose
  /// time covers it (DVD).
  public func playbackStart(at time: MediaTime) throws(DiscKitError) -> PlaybackStart {
    let clamped = MediaTime(ticks: min(max(time.ticks, 0), duration.ticks))
    switch content {
    case .bluray(let title):
      let start = try title.playbackStart(forTitleTime: UInt64(clamped.ticks))
      return PlaybackStart(time: clamped, offset: start.offset, prefix: start.prefix)
    case .dvd(let title, let disc):
      let source = try disc.byteSource(title: title.number, angle: angle)
      let seek = try disc.timeSeek(in: source, titleSet: title.titleSet, to: clamped.ticks)
      return PlaybackStart(time: clamped, offset: seek.offset, prefix: [])
    }
  }

  /// The title's bytes as a player starting at `time` reads them: the ``PlaybackStart/prefix``
  /// followed by the title from ``PlaybackStart/offset`` to the end, as one source.
  public func byteSource(startingAt time: MediaTime) throws(DiscKitError) -> any ByteSource {
    let start = try playbackStart(at: time)
    let whole = try byteSource()
    let from = min(max(start.offset, 0), whole.size)
    var parts: [ConcatenatedByteSource.Extent] = []
    if !start.prefix.isEmpty {
      parts.append(
        .init(
          source: MemoryByteSource(start.prefix), offset: 0, length: Int64(start.prefix.count)))
    }
    parts.append(.init(source: whole, offset: from, length: whole.size - from))
    return try ConcatenatedByteSource(parts, structure: "title \(key) from \(start.time)")
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
  public func scan(
    at time: MediaTime? = nil, window: Int64 = PESPreScanner.defaultWindow,
    options: PESScanOptions = PESScanOptions()
  ) throws(DiscKitError) -> ScanReport {
    try scan(at: time, offset: 0, window: window, options: options)
  }

  /// Scans `window` bytes of the title from byte `offset` of ``byteSource()``.
  public func scan(
    from offset: Int64, window: Int64 = PESPreScanner.defaultWindow,
    options: PESScanOptions = PESScanOptions()
  ) throws(DiscKitError) -> ScanReport {
    try scan(at: nil, offset: offset, window: window, options: options)
  }

  private func scan(at time: MediaTime?, offset: Int64, window: Int64, options: PESScanOptions)
    throws(DiscKitError) -> ScanReport
  {
    switch content {
    case .bluray(let title):
      var source: any ByteSource = try title.byteSource()
      var start = offset
      var boundaries = title.clips.map(\.titleOffset).filter { $0 > 0 }
      if let time {
        let playback = try title.playbackStart(forTitleTime: UInt64(max(time.ticks, 0)))
        let spliced = try playback.splice(into: source)
        source = spliced.source
        start = spliced.offset
        boundaries = boundaries.map { $0 == playback.offset ? spliced.offset : $0 }
      }
      var options = options
      options.streamBoundaries = boundaries
      return .transportStream(
        try PESPreScanner.scan(source: source, offset: start, window: window, options: options))
    case .dvd(let title, let disc):
      let source = try disc.byteSource(title: title.number, angle: angle)
      var start = offset
      if let time {
        start = try disc.timeSeek(in: source, titleSet: title.titleSet, to: max(time.ticks, 0))
          .offset
      }
      return .programStream(
        try ProgramStreamScanner.scan(source: source, offset: start, window: window))
    }
  }
}
