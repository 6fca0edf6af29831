/// A GStreamer segment (`GstSegment`): how the timestamps of a stream's buffers map to stream time
/// and running time, with GStreamer's semantics reproduced bit for bit.
///
/// A demuxer announces a segment before the buffers it applies to. For a buffer timestamp
/// `position` (a PTS in nanoseconds, "position" in GStreamer's terms):
///
/// - **stream time** is the position in the media: with a positive ``appliedRate``,
///   `stream_time = (position − start) × |appliedRate| + time`; with a negative one,
///   `stream_time = (stop − position) × |appliedRate| + time`.
/// - **running time** is the time the pipeline clock must have reached when the buffer is shown:
///   with a positive ``rate``, `running_time = (position − (start + offset)) / |rate| + base`; with a
///   negative one, `running_time = ((stop − offset) − position) / |rate| + base`.
///
/// The `…Full` variants extrapolate outside `[start, stop]` and can return negative results
/// (``SignedClockTime``); the plain variants return `nil` (GStreamer's `-1`,
/// `GST_CLOCK_TIME_NONE`) for positions outside the segment or negative results.
///
/// Times are unsigned 64-bit nanoseconds. GStreamer's "none" (`GST_CLOCK_TIME_NONE`, all ones) is
/// `nil` in ``stop``, ``time``, ``position`` and ``duration`` and in the arguments and results of
/// the conversions; the arithmetic is done on the raw values exactly as `gstsegment.c` does it
/// (version 1.22), including its wrap-around on unsigned overflow and the C conversions of
/// `double`-scaled values (see `the Segments article (Sources/DiscKit/DiscKit.docc/Segments.md)`), so results are
/// identical to GStreamer's for every input, including values near 2⁶⁴.
///
/// ```swift
/// var audio = Segment()            // start 0, stop none, time 0, rate 1
/// audio.start = 1_000_000_000
/// audio.time = 600_000_000_000     // PTS 1 s is title time 600 s
/// audio.toStreamTime(1_500_000_000)              // 600.5 s
/// audio.positionFromStreamTime(601_000_000_000)  // PTS 2 s
/// ```
public struct Segment: Sendable, Hashable, Codable {
  /// `GstSegmentFlags`.
  public var flags: SegmentFlags
  /// The playback rate (negative for reverse playback). GStreamer never sets 0.
  public var rate: Double
  /// The rate already applied to the stream upstream (e.g. by a demuxer doing trick modes);
  /// stream time uses its absolute value, and its sign decides whether stream time counts from
  /// ``start`` (positive) or from ``stop`` (negative).
  public var appliedRate: Double
  /// The unit of the values (nanoseconds: ``SegmentFormat/time``).
  public var format: SegmentFormat
  /// The running time of the segment's start (accumulated running time of previous segments).
  public var base: UInt64
  /// The offset into the segment (from ``start`` for positive rates, from ``stop`` for negative
  /// ones) that running time 0 + ``base`` corresponds to.
  public var offset: UInt64
  /// The first timestamp of the segment (GStreamer: never none).
  public var start: UInt64
  private var rawStop: UInt64
  private var rawTime: UInt64
  private var rawPosition: UInt64
  private var rawDuration: UInt64

  /// The timestamp the segment ends at, or `nil` (none: open-ended).
  public var stop: UInt64? {
    get { ClockTime.optional(rawStop) }
    set { rawStop = ClockTime.raw(newValue) }
  }

  /// The stream time of ``start``, or `nil` (none: stream time unknown).
  public var time: UInt64? {
    get { ClockTime.optional(rawTime) }
    set { rawTime = ClockTime.raw(newValue) }
  }

  /// The last known position in the segment, or `nil`.
  public var position: UInt64? {
    get { ClockTime.optional(rawPosition) }
    set { rawPosition = ClockTime.raw(newValue) }
  }

  /// The duration of the stream, or `nil` (unknown).
  public var duration: UInt64? {
    get { ClockTime.optional(rawDuration) }
    set { rawDuration = ClockTime.raw(newValue) }
  }

  /// A segment initialised like `gst_segment_init`: no flags, rates 1, base/offset/start/time/
  /// position 0, stop and duration none.
  public init(format: SegmentFormat = .time) {
    self.init(format: format, start: 0, stop: nil, time: 0)
  }

  /// A segment with every field given.
  public init(
    flags: SegmentFlags = [], rate: Double = 1, appliedRate: Double = 1,
    format: SegmentFormat = .time,
    base: UInt64 = 0, offset: UInt64 = 0, start: UInt64, stop: UInt64?, time: UInt64?,
    position: UInt64? = 0, duration: UInt64? = nil
  ) {
    self.flags = flags
    self.rate = rate
    self.appliedRate = appliedRate
    self.format = format
    self.base = base
    self.offset = offset
    self.start = start
    self.rawStop = ClockTime.raw(stop)
    self.rawTime = ClockTime.raw(time)
    self.rawPosition = ClockTime.raw(position)
    self.rawDuration = ClockTime.raw(duration)
  }

  // MARK: Codable (none is JSON null)

  private enum CodingKeys: String, CodingKey {
    case flags, rate, appliedRate, format, base, offset, start, stop, time, position, duration
  }

  /// Decodes a segment; absent fields take their `gst_segment_init` defaults and `null` is none.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init()
    flags = try container.decodeIfPresent(SegmentFlags.self, forKey: .flags) ?? []
    rate = try container.decodeIfPresent(Double.self, forKey: .rate) ?? 1
    appliedRate = try container.decodeIfPresent(Double.self, forKey: .appliedRate) ?? 1
    format = try container.decodeIfPresent(SegmentFormat.self, forKey: .format) ?? .time
    base = try container.decodeIfPresent(UInt64.self, forKey: .base) ?? 0
    offset = try container.decodeIfPresent(UInt64.self, forKey: .offset) ?? 0
    start = try container.decodeIfPresent(UInt64.self, forKey: .start) ?? 0
    // A present `null` means none; an absent key keeps the default.
    if container.contains(.stop) {
      stop = try container.decodeIfPresent(UInt64.self, forKey: .stop)
    }
    if container.contains(.time) {
      time = try container.decodeIfPresent(UInt64.self, forKey: .time)
    }
    if container.contains(.position) {
      position = try container.decodeIfPresent(UInt64.self, forKey: .position)
    }
    if container.contains(.duration) {
      duration = try container.decodeIfPresent(UInt64.self, forKey: .duration)
    }
  }

  /// Encodes every field; none is `null`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(flags, forKey: .flags)
    try container.encode(rate, forKey: .rate)
    try container.encode(appliedRate, forKey: .appliedRate)
    try container.encode(format, forKey: .format)
    try container.encode(base, forKey: .base)
    try container.encode(offset, forKey: .offset)
    try container.encode(start, forKey: .start)
    try container.encode(stop, forKey: .stop)
    try container.encode(time, forKey: .time)
    try container.encode(position, forKey: .position)
    try container.encode(duration, forKey: .duration)
  }
}
