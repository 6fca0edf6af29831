extension Segment {
  /// The stream time of `position`, extrapolated outside the segment (`gst_segment_to_stream_time_full`).
  ///
  /// Positive ``appliedRate``: `(position − start) × |appliedRate| + time`. Negative (or zero)
  /// ``appliedRate``: `(stop − position) × |appliedRate| + time`.
  ///
  /// - Returns: the signed stream time, or `nil` when `position` or ``time`` is none, or the applied
  ///   rate is not positive and ``stop`` is none.
  public func toStreamTimeFull(_ position: UInt64?) -> SignedClockTime? {
    guard let position, position != ClockTime.none else { return nil }
    let time = ClockTime.raw(self.time)
    guard time != ClockTime.none else { return nil }
    let absAppliedRate = CDoubleConversion.cAbs(appliedRate)
    var result: UInt64
    if appliedRate > 0 {
      if position > start {
        result = scaleStream(position &- start, absAppliedRate)
        return .positive(result &+ time)
      }
      result = scaleStream(start &- position, absAppliedRate)
      return result > time ? .negative(result &- time) : .positive(time &- result)
    }
    let stop = ClockTime.raw(self.stop)
    guard stop != ClockTime.none else { return nil }
    if position > stop {
      result = scaleStream(position &- stop, absAppliedRate)
      return result > time ? .negative(result &- time) : .positive(time &- result)
    }
    result = scaleStream(stop &- position, absAppliedRate)
    return .positive(result &+ time)
  }

  /// The stream time of a position inside the segment (`gst_segment_to_stream_time`).
  ///
  /// - Returns: `nil` (none) when `position` is before ``start``, after ``stop``, none, or its
  ///   stream time would be negative or cannot be computed.
  public func toStreamTime(_ position: UInt64?) -> UInt64? {
    let raw = ClockTime.raw(position)
    if raw < start { return nil }
    if let stop, raw > stop { return nil }
    guard let full = toStreamTimeFull(position), full.sign == .positive else { return nil }
    return ClockTime.optional(full.magnitude)
  }

  /// The position (buffer timestamp) whose stream time is `streamTime`, extrapolated outside the
  /// segment (`gst_segment_position_from_stream_time_full`).
  ///
  /// Positive ``appliedRate``: `start + (streamTime − time) / |appliedRate|`. Otherwise
  /// `stop − (streamTime − time) / |appliedRate|`.
  ///
  /// - Returns: the signed position, or `nil` when `streamTime` or ``time`` is none, or the applied
  ///   rate is not positive and ``stop`` is none.
  public func positionFromStreamTimeFull(_ streamTime: UInt64?) -> SignedClockTime? {
    guard let streamTime, streamTime != ClockTime.none else { return nil }
    let time = ClockTime.raw(self.time)
    guard time != ClockTime.none else { return nil }
    let absAppliedRate = CDoubleConversion.cAbs(appliedRate)
    var value: UInt64
    var negative: Bool
    if appliedRate > 0 {
      if streamTime > time {
        negative = false
        value = streamTime &- time
      } else {
        negative = true
        value = time &- streamTime
      }
      if absAppliedRate != 1 { value = CDoubleConversion.divide(value, by: absAppliedRate) }
      if negative {
        if value > start { return .negative(value &- start) }
        return .positive(start &- value)
      }
      return .positive(value &+ start)
    }
    let stop = ClockTime.raw(self.stop)
    guard stop != ClockTime.none else { return nil }
    if time > streamTime {
      negative = true
      value = time &- streamTime
    } else {
      negative = false
      value = streamTime &- time
    }
    if absAppliedRate != 1 { value = CDoubleConversion.divide(value, by: absAppliedRate) }
    if stop < value {
      return negative ? .positive(value &+ stop) : .negative(value &- stop)
    }
    return negative ? .positive(value &+ stop) : .positive(stop &- value)
  }

  /// The position inside the segment whose stream time is `streamTime`
  /// (`gst_segment_position_from_stream_time`).
  ///
  /// - Returns: `nil` (none) when the position would be outside `[start, stop]`, negative, or
  ///   cannot be computed.
  public func positionFromStreamTime(_ streamTime: UInt64?) -> UInt64? {
    // GStreamer compares its output variable even on failure; on failure the result is none anyway.
    guard let full = positionFromStreamTimeFull(streamTime) else { return nil }
    let position = full.magnitude
    if position < start { return nil }
    if let stop, position > stop { return nil }
    guard full.sign == .positive else { return nil }
    return ClockTime.optional(position)
  }

  /// `guint64 x; if (abs_applied_rate != 1.0) x *= abs_applied_rate;`
  private func scaleStream(_ value: UInt64, _ absAppliedRate: Double) -> UInt64 {
    absAppliedRate != 1 ? CDoubleConversion.multiply(value, by: absAppliedRate) : value
  }
}
