/// The C arithmetic GStreamer's segment code relies on, reproduced bit for bit.
///
/// `gstsegment.c` scales unsigned 64-bit times by `double` rates with statements such as
/// `guint64 x; x *= rate;` and `x = ceil (x * rate);`. C evaluates them as: convert the integer to
/// `double` (round to nearest), do the `double` operation, then convert back to `guint64`,
/// truncating. Converting a `double` that does not fit (≥ 2⁶⁴, infinite, NaN) is undefined in C, so
/// the result is whatever the compiler's instruction sequence produces. This type reproduces that
/// sequence for the platform DiscKit is built for, so results agree with the system's GStreamer
/// even for overflowing inputs.
enum CDoubleConversion {
  /// `(guint64) value` as compiled by GCC/Clang for the current architecture.
  ///
  /// - x86-64 (SSE2): values below 2⁶³ (and NaN) go through `cvttsd2si`, which yields
  ///   `0x8000000000000000` for anything outside the signed range; values ≥ 2⁶³ have 2⁶³ subtracted
  ///   first and the top bit flipped afterwards, so values ≥ 2⁶⁴ (and +∞) become 0.
  /// - Other architectures (AArch64 `fcvtzu`): saturating: NaN and negatives → 0, ≥ 2⁶⁴ → `UInt64.max`.
  @inlinable
  static func toUInt64(_ value: Double) -> UInt64 {
    #if arch(x86_64) || arch(i386)
      let twoTo63 = 9_223_372_036_854_775_808.0
      if !(value >= twoTo63) {
        return cvttsd2si(value)
      }
      return cvttsd2si(value - twoTo63) ^ (1 << 63)
    #else
      if value.isNaN || value <= 0 { return 0 }
      if value >= 18_446_744_073_709_551_616.0 { return .max }
      return UInt64(value)
    #endif
  }

  /// The x86 `cvttsd2si` (64-bit): truncation toward zero, `0x8000000000000000` when out of range.
  @inlinable
  static func cvttsd2si(_ value: Double) -> UInt64 {
    let limit = 9_223_372_036_854_775_808.0
    guard value.isFinite, value < limit, value >= -limit else { return 1 << 63 }
    return UInt64(bitPattern: Int64(value))
  }

  /// C's `ABS (x)` macro: `x < 0 ? -x : x` (which keeps `-0.0` negative, unlike `abs`).
  @inlinable
  static func cAbs(_ value: Double) -> Double { value < 0 ? -value : value }

  /// `guint64 x; x *= factor;`
  @inlinable
  static func multiply(_ value: UInt64, by factor: Double) -> UInt64 {
    toUInt64(Double(value) * factor)
  }

  /// `guint64 x; x /= divisor;`
  @inlinable
  static func divide(_ value: UInt64, by divisor: Double) -> UInt64 {
    toUInt64(Double(value) / divisor)
  }

  /// `x = ceil (x * factor);`
  @inlinable
  static func multiplyCeil(_ value: UInt64, by factor: Double) -> UInt64 {
    toUInt64((Double(value) * factor).rounded(.up))
  }
}
