/// Nanosecond clock values as GStreamer's `GstClockTime` uses them, and exact conversions from the
/// MPEG 90 kHz and Blu-ray 45 kHz tick units.
///
/// GStreamer stores every time as an unsigned 64-bit count of nanoseconds and reserves the all-ones
/// value `GST_CLOCK_TIME_NONE` (`UInt64.max`) for "no time". DiscKit's public API models "none" as
/// `nil`; ``none`` is the raw value used where a bit-exact GStreamer representation is needed.
public enum ClockTime {
  /// `GST_CLOCK_TIME_NONE`: the raw value GStreamer uses for "no time".
  public static let none: UInt64 = .max
  /// One second in nanoseconds (`GST_SECOND`).
  public static let second: UInt64 = 1_000_000_000
  /// One millisecond in nanoseconds (`GST_MSECOND`).
  public static let millisecond: UInt64 = 1_000_000

  /// Maps `nil` to ``none`` (the raw GStreamer value).
  @inlinable
  public static func raw(_ value: UInt64?) -> UInt64 { value ?? none }

  /// Maps ``none`` to `nil`.
  @inlinable
  public static func optional(_ raw: UInt64) -> UInt64? { raw == none ? nil : raw }

  /// Converts 90 kHz MPEG ticks (PTS/DTS units) to nanoseconds, rounding down.
  ///
  /// This is `ticks × 100 000 / 9` computed without overflow, the same value GStreamer's
  /// `tsdemux` assigns to a buffer (`MPEGTIME_TO_GSTTIME`, i.e.
  /// `gst_util_uint64_scale (ticks, GST_MSECOND / 10, 9)`). Returns `nil` when the result does not
  /// fit in 64 bits or would be ``none``.
  public static func nanoseconds(ticks90kHz ticks: UInt64) -> UInt64? {
    scaleDown(ticks, multiplier: 100_000, divisor: 9)
  }

  /// Converts 45 kHz Blu-ray ticks (MPLS/CLPI `IN_time`, `OUT_time`, presentation times) to
  /// nanoseconds, rounding down.
  ///
  /// One 45 kHz tick is exactly two 90 kHz ticks, so this equals
  /// ``nanoseconds(ticks90kHz:)`` of `2 × ticks`: a clip's in-time and the PTS of the picture at that
  /// in-time convert to the same nanosecond value.
  public static func nanoseconds(ticks45kHz ticks: UInt64) -> UInt64? {
    scaleDown(ticks, multiplier: 200_000, divisor: 9)
  }

  /// `value × multiplier / divisor`, rounded down, with a 128-bit intermediate.
  static func scaleDown(_ value: UInt64, multiplier: UInt64, divisor: UInt64) -> UInt64? {
    let product = value.multipliedFullWidth(by: multiplier)
    guard product.high < divisor else { return nil }
    let (quotient, _) = divisor.dividingFullWidth(product)
    return quotient == none ? nil : quotient
  }
}
