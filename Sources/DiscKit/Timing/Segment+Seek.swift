extension Segment {
  /// Updates the segment with the values of a seek event (`gst_segment_do_seek`).
  ///
  /// Afterwards ``start``, ``stop``, ``time`` (= start) and ``position`` hold the new playback
  /// range; ``base`` is 0 for a flushing seek and otherwise the running time reached so far;
  /// ``appliedRate`` is reset to 1. Start values are clamped to the duration (when known) and to 0.
  ///
  /// - Returns: ``SeekOutcome/rejected`` (segment unchanged) when `rate` is 0, `flags` contains
  ///   ``SeekFlags/instantRateChange``, or the resulting start is after the stop.
  @discardableResult
  public mutating func doSeek(
    rate: Double, flags: SeekFlags = [], startType: SeekType, start: UInt64?, stopType: SeekType,
    stop: UInt64?
  ) -> SeekOutcome {
    guard rate != 0, !flags.contains(.instantRateChange) else { return .rejected }
    let none = ClockTime.none
    let duration = ClockTime.raw(self.duration)
    var newStart = ClockTime.raw(start)
    var newStop = ClockTime.raw(stop)
    var updateStart = true
    var updateStop = true
    var position = ClockTime.raw(self.position)

    switch startType {
    case .none:
      newStart = self.start
      updateStart = false
    case .set:
      if newStart == none { newStart = 0 }
    case .end:
      if duration != none {
        newStart = duration &+ newStart
      } else {
        newStart = self.start
        updateStart = false
      }
    }
    if duration != none {
      newStart = min(newStart, duration)
    } else {
      newStart = UInt64(bitPattern: max(Int64(bitPattern: newStart), 0))
    }

    switch stopType {
    case .none:
      newStop = ClockTime.raw(self.stop)
      updateStop = false
    case .set:
      break
    case .end:
      if duration != none {
        newStop = duration &+ newStop
      } else {
        newStop = ClockTime.raw(self.stop)
        updateStop = false
      }
    }
    if newStop != none {
      let signed = Int64(bitPattern: newStop)
      if duration != none {
        // CLAMP (x, 0, high) in gint64: x > high ? high : (x < 0 ? 0 : x)
        let high = Int64(bitPattern: duration)
        newStop = UInt64(bitPattern: signed > high ? high : (signed < 0 ? 0 : signed))
      } else {
        newStop = UInt64(bitPattern: max(signed, 0))
      }
    }
    if newStop != none && newStart > newStop { return .rejected }

    let newBase: UInt64
    if flags.contains(.flush) {
      newBase = 0
    } else {
      // CLAMP (position, start, stop) on guint64
      let segmentStop = ClockTime.raw(self.stop)
      position =
        position > segmentStop ? segmentStop : (position < self.start ? self.start : position)
      newBase = ClockTime.raw(toRunningTime(position))
    }

    if updateStart && rate > 0 { position = newStart }
    if updateStop && rate < 0 {
      if newStop != none {
        position = newStop
      } else {
        position = duration != none ? duration : 0
      }
    }
    let positionChanged = position != ClockTime.raw(self.position)

    var newFlags: SegmentFlags = []
    if flags.contains(.flush) { newFlags.insert(.reset) }
    if flags.contains(.trickmode) { newFlags.insert(.trickmode) }
    if flags.contains(.segment) { newFlags.insert(.segment) }
    if flags.contains(.trickmodeKeyUnits) { newFlags.insert(.trickmodeKeyUnits) }
    if flags.contains(.trickmodeNoAudio) { newFlags.insert(.trickmodeNoAudio) }
    if flags.contains(.trickmodeForwardPredicted) { newFlags.insert(.trickmodeForwardPredicted) }

    self.flags = newFlags
    self.rate = rate
    self.appliedRate = 1
    self.base = newBase
    if rate > 0 {
      self.offset = position &- newStart
    } else if newStop != none {
      self.offset = newStop &- position
    } else if duration != none {
      self.offset = duration &- position
    } else {
      self.offset = 0
    }
    self.start = newStart
    self.stop = ClockTime.optional(newStop)
    self.time = ClockTime.optional(newStart)
    self.position = ClockTime.optional(position)
    return .performed(positionChanged: positionChanged)
  }
}
