/// The segment operations ``SegmentRequest`` can ask for (the `op` of a segment batch line).
public enum SegmentOperation: String, Sendable, Hashable, Codable, CaseIterable {
  /// ``Segment/toStreamTime(_:)`` of `value`.
  case streamTime
  /// ``Segment/toStreamTimeFull(_:)`` of `value`.
  case streamTimeFull
  /// ``Segment/positionFromStreamTime(_:)`` of `value`.
  case positionFromStreamTime
  /// ``Segment/positionFromStreamTimeFull(_:)`` of `value`.
  case positionFromStreamTimeFull
  /// ``Segment/toRunningTime(_:)`` of `value`.
  case runningTime
  /// ``Segment/toRunningTimeFull(_:)`` of `value`.
  case runningTimeFull
  /// ``Segment/positionFromRunningTime(_:)`` of `value`.
  case positionFromRunningTime
  /// ``Segment/positionFromRunningTimeFull(_:)`` of `value`.
  case positionFromRunningTimeFull
  /// ``Segment/clip(start:stop:)`` of `[value, stop]`.
  case clip
  /// ``Segment/setRunningTime(_:)`` with `value`.
  case setRunningTime
  /// ``Segment/offsetRunningTime(by:)`` by `signedValue`.
  case offsetRunningTime
  /// ``Segment/doSeek(rate:flags:startType:start:stopType:stop:)``.
  case doSeek
}
