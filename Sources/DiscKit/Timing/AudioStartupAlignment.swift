/// Where audio has to start so that it lines up with the first decodable video picture, when a
/// player starts (or seeks) into a stream whose video and audio come out of the demuxer in
/// different PTS epochs (the Blu-ray "split epoch" case).
///
/// The video decoder can only start at a random access point, so the first picture shown has the
/// buffer timestamp `firstVideoPTS`, usually a little after the requested position. Audio must be
/// dropped up to the same *stream time*. Comparing raw PTS values across the two streams is wrong
/// when their segments differ; the segments say how each stream's timestamps map to stream time:
///
///     videoStreamTime = video.toStreamTime(firstVideoPTS)
///     targetAudioPTS  = audio.start + (videoStreamTime − audio.time) / |audio.appliedRate|
///
/// Terms (all nanoseconds):
/// - **timeline origin**: `videoSegment.time`, the stream time at which the video segment (and so
///   the startup timeline) begins; after a seek it is the seek position.
/// - **video offset**: the stream time from the video segment's origin to the first video picture,
///   `(firstVideoPTS − video.start) × |video.appliedRate|` (GStreamer's
///   `to_stream_time_full` of the video segment with `time` = 0); it can be negative.
/// - **video stream time**: `timeline origin + video offset` (`video.toStreamTimeFull(firstVideoPTS)`).
///
/// The target is computed by the first strategy that applies (see ``AudioAlignmentStrategy``):
/// 1. ``AudioAlignmentStrategy/observedAudioOrigin``: the observed first audio PTS, when its stream
///    time (through the audio segment) is within ``originTolerance`` of the timeline origin, plus
///    the video offset;
/// 2. ``AudioAlignmentStrategy/absoluteVideoAnchor``: the video stream time mapped through the audio
///    segment (`audio.positionFromStreamTimeFull`), when that is a non-negative position;
/// 3. ``AudioAlignmentStrategy/requestedStartOffset``: ``requestedStart`` plus the video offset;
/// 4. ``AudioAlignmentStrategy/unavailable``: no target; every audio buffer is kept.
///
/// A strategy whose result would be negative or not representable in 64 bits does not apply.
///
/// The drop rule (``decision(pts:duration:)``): an audio buffer `[pts, pts + duration)` is dropped
/// only when its *end* is before the target (the buffer holds nothing at or after the target).
/// A buffer that straddles the target is kept whole. This is `gst_segment_clip` against a segment
/// starting at the target: end < target drops; end == target drops unless the buffer is empty;
/// unknown duration or PTS keeps.
public struct AudioStartupAlignment: Sendable, Hashable {
  /// The default ``originTolerance``: 250 ms.
  public static let defaultOriginTolerance: UInt64 = 250 * ClockTime.millisecond

  /// The video stream's segment.
  public let videoSegment: Segment
  /// The PTS (ns) of the first video buffer that will be shown (the first random access point).
  public let firstVideoPTS: UInt64?
  /// The audio stream's segment.
  public let audioSegment: Segment
  /// The PTS (ns) of the first audio buffer the demuxer delivered.
  public let observedFirstAudioPTS: UInt64?
  /// The position playback was asked to start at, in the audio buffers' timestamp domain.
  public let requestedStart: UInt64?
  /// How far (ns) the observed first audio buffer's stream time may be from the timeline origin
  /// for strategy 1.
  public let originTolerance: UInt64

  /// The stream time of ``firstVideoPTS`` (`nil` when it cannot be computed).
  public let videoStreamTime: SignedClockTime?
  /// The video offset: stream time from the video segment's start to ``firstVideoPTS``.
  public let videoOffset: SignedClockTime?
  /// The stream time of ``observedFirstAudioPTS`` through the audio segment.
  public let observedAudioStreamTime: SignedClockTime?
  /// The audio PTS (ns) audio playback starts at, or `nil` when ``strategy`` is `unavailable`.
  public let targetPTS: UInt64?
  /// The strategy that produced ``targetPTS``.
  public let strategy: AudioAlignmentStrategy

  /// Computes the alignment.
  public init(
    videoSegment: Segment, firstVideoPTS: UInt64?, audioSegment: Segment,
    observedFirstAudioPTS: UInt64?, requestedStart: UInt64?,
    originTolerance: UInt64 = AudioStartupAlignment.defaultOriginTolerance
  ) {
    self.videoSegment = videoSegment
    self.firstVideoPTS = firstVideoPTS
    self.audioSegment = audioSegment
    self.observedFirstAudioPTS = observedFirstAudioPTS
    self.requestedStart = requestedStart
    self.originTolerance = originTolerance

    var fromOrigin = videoSegment
    fromOrigin.time = 0
    let videoOffset = fromOrigin.toStreamTimeFull(firstVideoPTS)
    let videoStreamTime = videoSegment.toStreamTimeFull(firstVideoPTS)
    let observedAudioStreamTime = audioSegment.toStreamTimeFull(observedFirstAudioPTS)
    self.videoOffset = videoOffset
    self.videoStreamTime = videoStreamTime
    self.observedAudioStreamTime = observedAudioStreamTime

    var target: UInt64?
    var strategy = AudioAlignmentStrategy.unavailable
    if let observed = observedFirstAudioPTS, let observedAudioStreamTime,
      let origin = videoSegment.time,
      let videoOffset,
      Self.distance(observedAudioStreamTime, .positive(origin)).map({ $0 <= originTolerance })
        == true,
      let result = Self.add(observed, videoOffset)
    {
      target = result
      strategy = .observedAudioOrigin
    } else if let videoStreamTime, videoStreamTime.sign == .positive,
      let anchored = audioSegment.positionFromStreamTimeFull(videoStreamTime.magnitude),
      let result = anchored.nonNegative, result != ClockTime.none
    {
      target = result
      strategy = .absoluteVideoAnchor
    } else if let requestedStart, let videoOffset,
      let result = Self.add(requestedStart, videoOffset)
    {
      target = result
      strategy = .requestedStartOffset
    }
    self.targetPTS = target
    self.strategy = strategy
  }

  /// Whether to keep or drop an audio buffer with timestamp `pts` and `duration` (ns).
  ///
  /// Dropped only when the buffer ends before the target (see the type's discussion); kept when
  /// there is no target, or the PTS or duration is unknown.
  public func decision(pts: UInt64?, duration: UInt64?) -> AudioSampleDecision {
    guard let targetPTS, let pts else { return .keep }
    let end = duration.flatMap { duration -> UInt64? in
      let (sum, overflow) = pts.addingReportingOverflow(duration)
      return overflow ? nil : sum
    }
    let fromTarget = Segment(start: targetPTS, stop: nil, time: 0)
    return fromTarget.clip(start: pts, stop: end) == nil ? .drop : .keep
  }

  /// `base + offset`, or `nil` when negative or not below ``ClockTime/none``.
  static func add(_ base: UInt64, _ offset: SignedClockTime) -> UInt64? {
    switch offset.sign {
    case .positive:
      let (sum, overflow) = base.addingReportingOverflow(offset.magnitude)
      return overflow || sum == ClockTime.none ? nil : sum
    case .negative:
      return base >= offset.magnitude ? base - offset.magnitude : nil
    }
  }

  /// `|a − b|`, or `nil` when it does not fit in 64 bits.
  static func distance(_ a: SignedClockTime, _ b: SignedClockTime) -> UInt64? {
    if a.sign == b.sign {
      return a.magnitude >= b.magnitude ? a.magnitude - b.magnitude : b.magnitude - a.magnitude
    }
    let (sum, overflow) = a.magnitude.addingReportingOverflow(b.magnitude)
    return overflow ? nil : sum
  }
}
