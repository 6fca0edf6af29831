/// The result of ``Segment/clip(start:stop:)``: a `[start, stop]` range clipped to a segment.
public struct ClippedRange: Sendable, Hashable, Codable {
  /// The clipped start: `max(start, segment.start)`, or `nil` when the given start was none.
  public var start: UInt64?
  /// The clipped stop: `min(stop, segment.stop)`; the segment's stop when the given stop was none,
  /// the given stop when the segment's stop is none (`nil` when both are none).
  public var stop: UInt64?

  /// Creates a range.
  public init(start: UInt64?, stop: UInt64?) {
    self.start = start
    self.stop = stop
  }
}
