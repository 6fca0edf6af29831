/// Arithmetic on 33-bit, 90 kHz MPEG presentation and decoding time stamps.
@_spi(Formats)
public enum MPEGTimestamp {
  /// 2^33: PTS and DTS count modulo this.
  public static let modulus: UInt64 = 1 << 33
  /// Ticks per second.
  public static let clockRate: Double = 90_000

  /// `later - earlier` modulo 2^33, in `0..<2^33` (the forward distance across a wrap).
  @inlinable
  public static func forwardDistance(from earlier: UInt64, to later: UInt64) -> UInt64 {
    (later &- earlier) & (modulus - 1)
  }

  /// `a - b` modulo 2^33, as a signed value in `-2^32..<2^32` (the nearest difference).
  @inlinable
  public static func signedDifference(_ a: UInt64, _ b: UInt64) -> Int64 {
    let d = Int64(bitPattern: forwardDistance(from: b, to: a))
    return d >= Int64(1) << 32 ? d - Int64(bitPattern: modulus) : d
  }

  /// Decodes a 5-byte PTS/DTS field (`'xxxx' b32..30 marker b29..15 marker b14..0 marker`).
  @inlinable
  public static func decode(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8, _ b4: UInt8)
    -> UInt64
  {
    UInt64(b0 >> 1 & 0x07) << 30 | UInt64(b1) << 22 | UInt64(b2 >> 1) << 15 | UInt64(b3) << 7
      | UInt64(b4 >> 1)
  }

  /// Whether the three marker bits of a 5-byte PTS/DTS field are set.
  @inlinable
  public static func markersValid(_ b0: UInt8, _ b2: UInt8, _ b4: UInt8) -> Bool {
    b0 & 1 == 1 && b2 & 1 == 1 && b4 & 1 == 1
  }
}
