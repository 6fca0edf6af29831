extension Segment {
  /// The running time of `position`, extrapolated outside the segment
  /// (`gst_segment_to_running_time_full`).
  ///
  /// Positive ``rate``: `(position − (start + offset)) / |rate| + base`. Otherwise (negative or
  /// zero rate) `((stop − offset) − position) / |rate| + base`, where a none ``stop`` is replaced
  /// by `start + duration` when the duration is known.
  ///
  /// - Returns: the signed running time, or `nil` when `position` is none, or the rate is not
  ///   positive and the stop is unknown or smaller than ``offset``.
  public func toRunningTimeFull(_ position: UInt64?) -> SignedClockTime? {
    guard let position, position != ClockTime.none else { return nil }
    var result: UInt64
    var negative: Bool
    if rate > 0 {
      let start = self.start &+ offset
      if position < start {
        result = start &- position
        negative = true
      } else {
        result = position &- start
        negative = false
      }
    } else {
      var stop = ClockTime.raw(self.stop)
      let duration = ClockTime.raw(self.duration)
      if stop == ClockTime.none && duration != ClockTime.none {
        stop = start &+ duration
      }
      // GStreamer 1.22 reports these two with g_return_val_if_fail; later versions silently.
      guard stop != ClockTime.none, stop >= offset else { return nil }
      stop &-= offset
      if position > stop {
        result = position &- stop
        negative = true
      } else {
        result = stop &- position
        negative = false
      }
    }
    let absRate = CDoubleConversion.cAbs(rate)
    if absRate != 1 { result = CDoubleConversion.divide(result, by: absRate) }
    if !negative { return .positive(result &+ base) }
    if base >= result { return .positive(base &- result) }
    return .negative(result &- base)
  }

  /// The running time of a position inside the segment (`gst_segment_to_running_time`).
  ///
  /// - Returns: `nil` (none) when `position` is outside `[start, stop]`, none, or its running time
  ///   would be negative or cannot be computed.
  public func toRunningTime(_ position: UInt64?) -> UInt64? {
    let raw = ClockTime.raw(position)
    if raw < start { return nil }
    if let stop, raw > stop { return nil }
    guard let full = toRunningTimeFull(position), full.sign == .positive else { return nil }
    return ClockTime.optional(full.magnitude)
  }

  /// The position whose running time is `runningTime`, extrapolated outside the segment
  /// (`gst_segment_position_from_running_time_full`).
  ///
  /// Positive ``rate``: `start + offset + ceil((runningTime − base) × |rate|)`. Otherwise
  /// `stop − offset − ceil((runningTime − base) × |rate|)`.
  ///
  /// - Returns: the signed position, or `nil` when `runningTime` is none.
  public func positionFromRunningTimeFull(_ runningTime: UInt64?) -> SignedClockTime? {
    guard let runningTime, runningTime != ClockTime.none else { return nil }
    let absRate = CDoubleConversion.cAbs(rate)
    let stop = ClockTime.raw(self.stop)
    func scaled(_ value: UInt64) -> UInt64 {
      absRate != 1 ? CDoubleConversion.multiplyCeil(value, by: absRate) : value
    }
    if rate > 0 {
      let origin = start &+ offset
      if runningTime >= base {
        return .positive(scaled(runningTime &- base) &+ origin)
      }
      let value = scaled(base &- runningTime)
      if origin >= value { return .positive(origin &- value) }
      return .negative(value &- origin)
    }
    if runningTime >= base {
      let value = scaled(runningTime &- base)
      if stop < value &+ offset { return .negative(value &+ (offset &- stop)) }
      return .positive(stop &- value &- offset)
    }
    let value = scaled(base &- runningTime)
    if stop &+ value >= offset { return .positive(stop &+ value &- offset) }
    return .negative(offset &- value &- stop)
  }

  /// The position inside the segment whose running time is `runningTime`
  /// (`gst_segment_position_from_running_time`).
  ///
  /// - Returns: `nil` (none) when the position would be negative, outside `[start, stop]`, or
  ///   `runningTime` is none.
  public func positionFromRunningTime(_ runningTime: UInt64?) -> UInt64? {
    guard let full = positionFromRunningTimeFull(runningTime), full.sign == .positive else {
      return nil
    }
    let position = full.magnitude
    if position < start { return nil }
    if let stop, position > stop { return nil }
    return ClockTime.optional(position)
  }
}
