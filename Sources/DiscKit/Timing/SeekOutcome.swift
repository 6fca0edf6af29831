/// The result of ``Segment/doSeek(rate:flags:startType:start:stopType:stop:)``.
public enum SeekOutcome: Sendable, Hashable {
  /// The seek cannot be performed (rate 0, an instant-rate-change seek, or start after stop);
  /// the segment is unchanged.
  case rejected
  /// The segment was updated; `positionChanged` is GStreamer's `update` (a seek to the new
  /// position is needed).
  case performed(positionChanged: Bool)
}
