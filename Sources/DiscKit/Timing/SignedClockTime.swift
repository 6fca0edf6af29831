/// A possibly negative clock time as GStreamer's `_full` segment functions return it: a sign and
/// an unsigned 64-bit magnitude (so the full range −(2⁶⁴−1) … 2⁶⁴−1 is representable).
///
/// GStreamer returns `1` with the value for a positive result, `-1` with the value to be negated
/// for a negative one, and `0` on failure; DiscKit returns `nil` for the failure case.
public struct SignedClockTime: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The sign of a result.
  public enum Sign: Int, Sendable, Hashable, Codable {
    /// The value is `-magnitude`.
    case negative = -1
    /// The value is `+magnitude`.
    case positive = 1
  }

  /// The sign (`1` or `-1` in GStreamer's terms).
  public var sign: Sign
  /// The absolute value in nanoseconds.
  public var magnitude: UInt64

  /// Creates a signed time.
  public init(sign: Sign, magnitude: UInt64) {
    self.sign = sign
    self.magnitude = magnitude
  }

  /// A positive time.
  public static func positive(_ magnitude: UInt64) -> SignedClockTime {
    SignedClockTime(sign: .positive, magnitude: magnitude)
  }

  /// A negative time (`-magnitude`).
  public static func negative(_ magnitude: UInt64) -> SignedClockTime {
    SignedClockTime(sign: .negative, magnitude: magnitude)
  }

  /// The value as a signed integer; `nil` when it does not fit in `Int64`.
  public var int64Value: Int64? {
    switch sign {
    case .positive:
      return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    case .negative:
      if magnitude <= UInt64(Int64.max) { return -Int64(magnitude) }
      return magnitude == UInt64(Int64.max) + 1 ? Int64.min : nil
    }
  }

  /// The positive value, or `nil` when the time is negative.
  public var nonNegative: UInt64? { sign == .positive ? magnitude : nil }

  public var description: String { (sign == .negative ? "-" : "") + String(magnitude) }
}
