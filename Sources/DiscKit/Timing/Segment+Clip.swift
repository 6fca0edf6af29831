extension Segment {
  /// Clips the range `[start, stop]` (e.g. a buffer's PTS and PTS + duration) to the segment
  /// (`gst_segment_clip`).
  ///
  /// The range is outside (result `nil`) when it starts after the segment's stop, or at the
  /// segment's stop of a non-empty segment, or when it stops before the segment's start, or at the
  /// segment's start while being non-empty. So a buffer `[pts, pts + duration)` that ends exactly
  /// where the segment starts is outside, and a zero-length range at the segment start is inside.
  ///
  /// - Returns: the clipped range, or `nil` when the range lies completely outside the segment.
  public func clip(start: UInt64?, stop: UInt64?) -> ClippedRange? {
    let start = ClockTime.raw(start)
    let stop = ClockTime.raw(stop)
    let segmentStop = ClockTime.raw(self.stop)
    let none = ClockTime.none
    if segmentStop != none && start != none
      && (start > segmentStop || (self.start != segmentStop && start == segmentStop))
    {
      return nil
    }
    if stop != none && (stop < self.start || (start != stop && stop == self.start)) {
      return nil
    }
    let clippedStart = start == none ? none : max(start, self.start)
    let clippedStop: UInt64
    if stop == none {
      clippedStop = segmentStop
    } else if segmentStop == none {
      clippedStop = stop
    } else {
      clippedStop = min(stop, segmentStop)
    }
    return ClippedRange(
      start: ClockTime.optional(clippedStart), stop: ClockTime.optional(clippedStop))
  }
}
