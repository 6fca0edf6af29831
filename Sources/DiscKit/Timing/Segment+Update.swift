extension Segment {
  /// Moves the segment so that the next valid buffer is the one with `runningTime`
  /// (`gst_segment_set_running_time`).
  ///
  /// The position of `runningTime` becomes the new ``start`` (positive rate) or ``stop`` (negative
  /// rate), ``time`` becomes the stream time of the (new) start computed with the old segment, and
  /// ``base`` becomes `runningTime`.
  ///
  /// - Returns: `false` (segment unchanged) when `runningTime` is none or not inside the segment.
  @discardableResult
  public mutating func setRunningTime(_ runningTime: UInt64?) -> Bool {
    guard let position = positionFromRunningTime(runningTime), let runningTime else { return false }
    var newStart = start
    var newStop = stop
    if rate > 0 {
      newStart = position
    } else {
      newStop = position
    }
    time = toStreamTime(newStart)
    start = newStart
    stop = newStop
    base = runningTime
    return true
  }

  /// Applies `offset` to all future running-time calculations (`gst_segment_offset_running_time`).
  ///
  /// A positive offset is added to ``base``. A negative one is subtracted from ``base`` when it is
  /// larger; otherwise ``base`` becomes 0 and the remainder moves ``offset`` to the position of that
  /// remaining running time.
  ///
  /// - Returns: `false` when the remaining offset does not map to a position inside the segment.
  ///   As in GStreamer, ``base`` has then already been set to 0.
  @discardableResult
  public mutating func offsetRunningTime(by offset: Int64) -> Bool {
    if offset == 0 { return true }
    if offset > 0 {
      base &+= UInt64(offset)
      return true
    }
    var remaining = offset.magnitude
    if base > remaining {
      base &-= remaining
      return true
    }
    remaining &-= base
    base = 0
    guard let position = positionFromRunningTime(remaining) else { return false }
    self.offset = position &- start
    return true
  }
}
