/// One segment computation: an operation, the segment and its arguments.
///
/// This is an input line of the batch mode of `disckit segment` and of the GStreamer oracle script
/// (`Tests/oracles/gst_segment_oracle.py`), e.g.
/// `{"op":"streamTimeFull","segment":{"start":1000,"stop":null,"time":0,"appliedRate":-1},"value":5}`.
/// `null` (or an absent field) is none.
public struct SegmentRequest: Sendable, Hashable, Codable {
  /// The operation.
  public var op: SegmentOperation
  /// The segment it applies to.
  public var segment: Segment
  /// The position, stream time or running time argument; the start of a range for ``SegmentOperation/clip``.
  public var value: UInt64?
  /// The stop of a ``SegmentOperation/clip`` range, or the stop of a ``SegmentOperation/doSeek``.
  public var stop: UInt64?
  /// The signed offset of ``SegmentOperation/offsetRunningTime``.
  public var signedValue: Int64?
  /// The rate of a ``SegmentOperation/doSeek``.
  public var rate: Double?
  /// The `GstSeekFlags` bits of a ``SegmentOperation/doSeek``.
  public var seekFlags: SeekFlags?
  /// The start type of a ``SegmentOperation/doSeek`` (default `set`).
  public var startType: SeekType?
  /// The stop type of a ``SegmentOperation/doSeek`` (default `none`).
  public var stopType: SeekType?

  /// Creates a request.
  public init(
    op: SegmentOperation, segment: Segment, value: UInt64? = nil, stop: UInt64? = nil,
    signedValue: Int64? = nil, rate: Double? = nil, seekFlags: SeekFlags? = nil,
    startType: SeekType? = nil, stopType: SeekType? = nil
  ) {
    self.op = op
    self.segment = segment
    self.value = value
    self.stop = stop
    self.signedValue = signedValue
    self.rate = rate
    self.seekFlags = seekFlags
    self.startType = startType
    self.stopType = stopType
  }

  /// Performs the operation.
  public func evaluate() -> SegmentResponse {
    var response = SegmentResponse()
    func full(_ result: SignedClockTime?) {
      response.sign = result.map { $0.sign.rawValue } ?? 0
      response.value = result?.magnitude
    }
    switch op {
    case .streamTime: response.result = segment.toStreamTime(value)
    case .streamTimeFull: full(segment.toStreamTimeFull(value))
    case .positionFromStreamTime: response.result = segment.positionFromStreamTime(value)
    case .positionFromStreamTimeFull: full(segment.positionFromStreamTimeFull(value))
    case .runningTime: response.result = segment.toRunningTime(value)
    case .runningTimeFull: full(segment.toRunningTimeFull(value))
    case .positionFromRunningTime: response.result = segment.positionFromRunningTime(value)
    case .positionFromRunningTimeFull: full(segment.positionFromRunningTimeFull(value))
    case .clip:
      let clipped = segment.clip(start: value, stop: stop)
      response.inside = clipped != nil
      response.clipStart = clipped?.start
      response.clipStop = clipped?.stop
    case .setRunningTime:
      var updated = segment
      response.ok = updated.setRunningTime(value)
      response.segment = updated
    case .offsetRunningTime:
      var updated = segment
      response.ok = updated.offsetRunningTime(by: signedValue ?? 0)
      response.segment = updated
    case .doSeek:
      var updated = segment
      switch updated.doSeek(
        rate: rate ?? 1, flags: seekFlags ?? [], startType: startType ?? .set, start: value,
        stopType: stopType ?? .none, stop: stop)
      {
      case .rejected:
        response.ok = false
      case .performed(let positionChanged):
        response.ok = true
        response.update = positionChanged
      }
      response.segment = updated
    }
    return response
  }
}
