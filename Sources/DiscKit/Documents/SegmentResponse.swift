/// The answer to a ``SegmentRequest`` (an output line of the batch mode of `disckit segment`).
///
/// Only the fields of the request's operation are set; absent fields are omitted from JSON.
public struct SegmentResponse: Sendable, Hashable, Codable {
  /// The result of a plain conversion (`streamTime`, `runningTime`, `positionFrom…`); `nil` is none.
  public var result: UInt64?
  /// The sign a `…Full` conversion returned: `1`, `-1`, or `0` for failure.
  public var sign: Int?
  /// The magnitude a `…Full` conversion returned (`nil` when `sign` is 0).
  public var value: UInt64?
  /// Whether a clipped range is (partly) inside the segment.
  public var inside: Bool?
  /// The clipped start (`nil` when outside or none).
  public var clipStart: UInt64?
  /// The clipped stop (`nil` when outside or none).
  public var clipStop: UInt64?
  /// Whether a mutating operation succeeded.
  public var ok: Bool?
  /// `doSeek`'s `update` (position changed), when the seek was performed.
  public var update: Bool?
  /// The segment after a mutating operation.
  public var segment: Segment?
  /// An error message (a request that could not be read).
  public var error: String?

  /// An empty response.
  public init() {}
}
