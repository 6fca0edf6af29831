extension DiscTitle.ScanReport {
  /// The first video PTS the scan saw (90 kHz, the stream's own epoch), as a ``MediaTime``.
  public var firstVideoPTS: MediaTime? {
    switch self {
    case .transportStream(let r): r.video.first?.firstPTS.map(MediaTime.init(clamping:))
    case .programStream(let r): r.video.first?.firstPTS.map(MediaTime.init(clamping:))
    }
  }

  /// The PTS of the first random access point (IDR, I-picture after a sequence header, VC-1 entry
  /// point): the first picture a decoder can show.
  public var firstKeyframePTS: MediaTime? {
    switch self {
    case .transportStream(let r): r.video.first?.firstIDRPTS.map(MediaTime.init(clamping:))
    case .programStream(let r): r.video.first?.firstIDRPTS.map(MediaTime.init(clamping:))
    }
  }

  /// The first audio PTS.
  public var firstAudioPTS: MediaTime? {
    switch self {
    case .transportStream(let r): r.audio.first?.firstPTS.map(MediaTime.init(clamping:))
    case .programStream(let r): r.audio.first?.firstPTS.map(MediaTime.init(clamping:))
    }
  }

  /// Pictures before the first keyframe (that a decoder cannot show): keyframe PTS minus first
  /// video PTS, modulo 2^33.
  public var preKeyframeGap: MediaTime? {
    guard let key = firstKeyframePTS, let first = firstVideoPTS else { return nil }
    return MediaTime(ticks: Int64((key.pts &- first.pts) & 0x1_FFFF_FFFF))
  }

  /// First audio PTS minus keyframe PTS (negative: audio starts first), taken modulo 2^33 as a
  /// signed 33-bit difference.
  public var audioOffset: MediaTime? {
    guard let audio = firstAudioPTS, let key = firstKeyframePTS else { return nil }
    let difference = Int64((audio.pts &- key.pts) & 0x1_FFFF_FFFF)
    return MediaTime(ticks: difference >= 1 << 32 ? difference - (1 << 33) : difference)
  }

  /// PES packets a demuxer with a PAT gate (GStreamer's tsdemux) drops: those before the first
  /// PAT. Program streams have no PAT: 0.
  public var pesBeforePAT: Int {
    switch self {
    case .transportStream(let r): r.pesBeforePAT
    case .programStream: 0
    }
  }
}

extension DiscTitle {
  /// Blu-ray: each play item's GStreamer segment (``Segment``, nanoseconds, GStreamer's unit),
  /// mapping the clip's own PTS epoch onto the title timeline; DVD: empty.
  public var segments: [Segment?] {
    switch content {
    case .bluray(let title): title.timeSegments
    case .dvd: []
    }
  }

  /// Blu-ray: the index of the play item playing at `time`; DVD: `nil`.
  public func clipIndex(at time: MediaTime) -> Int? {
    guard case .bluray(let title) = content, time.ticks >= 0 else { return nil }
    return title.clipIndex(atTitleTime: UInt32(clamping: time.ticks / 2))
  }

  /// Blu-ray: the title time of a PTS demuxed from play item `clipIndex` (its own epoch), or `nil`
  /// outside the item's in/out range; DVD: `nil`.
  public func titleTime(ofPTS pts: MediaTime, inClip clipIndex: Int) -> MediaTime? {
    guard case .bluray(let title) = content,
      let nanoseconds = title.titleTime(ofPTS: pts.pts, inClip: clipIndex)
    else { return nil }
    return MediaTime(nanoseconds: Int64(clamping: nanoseconds))
  }
}
