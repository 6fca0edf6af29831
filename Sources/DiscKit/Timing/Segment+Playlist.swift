extension Segment {
  /// The segment of one clip of a Blu-ray playlist, mapping the clip's own PTS epoch onto the
  /// title timeline.
  ///
  /// A playlist (MPLS) plays `[IN_time, OUT_time)` of each clip (M2TS) in turn; the times are 45 kHz
  /// ticks in the clip's PTS domain, and each clip has its own epoch. With `start` = the clip's
  /// in-time and `time` = the title time at the clip's start, a buffer PTS `p` of the clip has
  /// stream time `titleTimeAtClipStart + (p − inTime)`: the title time, whatever the clip's epoch.
  ///
  /// Ticks convert to nanoseconds with ``ClockTime/nanoseconds(ticks45kHz:)`` (rounding down exactly
  /// as GStreamer's `tsdemux` converts 90 kHz PTS), so the in-time and the PTS of the picture at the
  /// in-time give the same nanoseconds.
  ///
  /// - Parameters:
  ///   - inTime45kHz: the PlayItem's `IN_time` (45 kHz ticks).
  ///   - outTime45kHz: the PlayItem's `OUT_time` (45 kHz ticks).
  ///   - titleTimeAtClipStart: the title (stream) time, ns, at which this clip's in-time plays.
  ///   - runningTimeAtClipStart: the segment's `base`; defaults to `titleTimeAtClipStart` (playback
  ///     of the title from its beginning at rate 1).
  /// - Throws: `invalidArgument` when the out-time is before the in-time or a value does not fit.
  public static func forPlaylistClip(
    inTime45kHz: UInt64, outTime45kHz: UInt64, titleTimeAtClipStart: UInt64,
    runningTimeAtClipStart: UInt64? = nil
  ) throws(DiscKitError) -> Segment {
    guard outTime45kHz >= inTime45kHz else {
      throw DiscKitError(
        .invalidArgument, "playlist clip segment", at: nil,
        "OUT_time \(outTime45kHz) is before IN_time \(inTime45kHz)")
    }
    return try clipSegment(
      start: ClockTime.nanoseconds(ticks45kHz: inTime45kHz),
      stop: ClockTime.nanoseconds(ticks45kHz: outTime45kHz),
      titleTimeAtClipStart: titleTimeAtClipStart, runningTimeAtClipStart: runningTimeAtClipStart)
  }

  /// The segment of one clip whose in- and out-times are given as 90 kHz PTS ticks (e.g. the first
  /// and last PTS of a clip found by scanning it); otherwise like
  /// ``forPlaylistClip(inTime45kHz:outTime45kHz:titleTimeAtClipStart:runningTimeAtClipStart:)``.
  ///
  /// - Throws: `invalidArgument` when the out-time is before the in-time or a value does not fit.
  public static func forPlaylistClip(
    inTime90kHz: UInt64, outTime90kHz: UInt64, titleTimeAtClipStart: UInt64,
    runningTimeAtClipStart: UInt64? = nil
  ) throws(DiscKitError) -> Segment {
    guard outTime90kHz >= inTime90kHz else {
      throw DiscKitError(
        .invalidArgument, "playlist clip segment", at: nil,
        "out-time \(outTime90kHz) is before in-time \(inTime90kHz) (90 kHz)")
    }
    return try clipSegment(
      start: ClockTime.nanoseconds(ticks90kHz: inTime90kHz),
      stop: ClockTime.nanoseconds(ticks90kHz: outTime90kHz),
      titleTimeAtClipStart: titleTimeAtClipStart, runningTimeAtClipStart: runningTimeAtClipStart)
  }

  /// A clip's segment from its in/out times already in nanoseconds (`nil` = did not fit).
  private static func clipSegment(
    start: UInt64?, stop: UInt64?, titleTimeAtClipStart: UInt64, runningTimeAtClipStart: UInt64?
  ) throws(DiscKitError) -> Segment {
    guard let start, let stop, titleTimeAtClipStart != ClockTime.none else {
      throw DiscKitError(
        .invalidArgument, "playlist clip segment", at: nil,
        "time does not fit in 64-bit nanoseconds")
    }
    return Segment(
      base: runningTimeAtClipStart ?? titleTimeAtClipStart, start: start, stop: stop,
      time: titleTimeAtClipStart, position: start)
  }

  /// The segments of all clips of a playlist, played one after the other from title time 0.
  ///
  /// The title time at clip *i*'s start is the sum of the preceding clips' `OUT_time − IN_time`,
  /// summed in ticks and converted once (so rounding does not accumulate).
  ///
  /// - Throws: `invalidArgument` when a clip's out-time is before its in-time or the title is longer
  ///   than 64-bit nanoseconds.
  public static func forPlaylist(
    clips: [(inTime45kHz: UInt64, outTime45kHz: UInt64)]
  ) throws(DiscKitError) -> [Segment] {
    var segments: [Segment] = []
    segments.reserveCapacity(clips.count)
    var elapsedTicks: UInt64 = 0
    for clip in clips {
      guard let titleTime = ClockTime.nanoseconds(ticks45kHz: elapsedTicks) else {
        throw DiscKitError(
          .invalidArgument, "playlist clip segment", at: nil, "title longer than 64-bit nanoseconds"
        )
      }
      segments.append(
        try forPlaylistClip(
          inTime45kHz: clip.inTime45kHz, outTime45kHz: clip.outTime45kHz,
          titleTimeAtClipStart: titleTime))
      let (sum, overflow) = elapsedTicks.addingReportingOverflow(
        clip.outTime45kHz - clip.inTime45kHz)
      guard !overflow else {
        throw DiscKitError(
          .invalidArgument, "playlist clip segment", at: nil, "title longer than 64-bit ticks")
      }
      elapsedTicks = sum
    }
    return segments
  }
}
