/// Reading and moving the 33-bit, 90 kHz timestamp fields of MPEG-2 systems streams in place:
/// PES PTS/DTS (5 bytes), transport-stream PCR (6 bytes) and program-stream pack SCR (6 bytes).
/// Marker bits, prefixes and extensions are kept; only the 33-bit base changes, modulo 2^33.
package enum TimestampField {
  /// 2^33 - 1.
  package static let mask: UInt64 = (1 << 33) - 1

  /// The value of a PES PTS or DTS field (`'001x' t[32..30] 1 t[29..15] 1 t[14..0] 1`).
  @inline(__always)
  package static func pesTimestamp(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8, _ b4: UInt8)
    -> UInt64
  {
    (UInt64((b0 >> 1) & 7) << 30) | (UInt64(b1) << 22) | (UInt64(b2 >> 1) << 15)
      | (UInt64(b3) << 7) | UInt64(b4 >> 1)
  }

  /// Adds `delta` to the PES timestamp whose 5 bytes are at `index(0)`...`index(4)` of `p`.
  @inline(__always)
  static func shiftPES(
    _ p: UnsafeMutablePointer<UInt8>, delta: UInt64, _ index: (Int) -> Int
  ) {
    let i0 = index(0)
    let i1 = index(1)
    let i2 = index(2)
    let i3 = index(3)
    let i4 = index(4)
    let v = (pesTimestamp(p[i0], p[i1], p[i2], p[i3], p[i4]) &+ delta) & mask
    p[i0] = (p[i0] & 0xF1) | (UInt8(truncatingIfNeeded: v >> 30) & 7) << 1
    p[i1] = UInt8(truncatingIfNeeded: v >> 22)
    p[i2] = (UInt8(truncatingIfNeeded: v >> 15) & 0x7F) << 1 | (p[i2] & 1)
    p[i3] = UInt8(truncatingIfNeeded: v >> 7)
    p[i4] = (UInt8(truncatingIfNeeded: v) & 0x7F) << 1 | (p[i4] & 1)
  }

  /// Adds `delta` to the PCR base at `p[0...5]` (`base[32..0] reserved(6) extension(9)`).
  @inline(__always)
  static func shiftPCR(_ p: UnsafeMutablePointer<UInt8>, delta: UInt64) {
    let base =
      (UInt64(p[0]) << 25) | (UInt64(p[1]) << 17) | (UInt64(p[2]) << 9) | (UInt64(p[3]) << 1)
      | UInt64(p[4] >> 7)
    let v = (base &+ delta) & mask
    p[0] = UInt8(truncatingIfNeeded: v >> 25)
    p[1] = UInt8(truncatingIfNeeded: v >> 17)
    p[2] = UInt8(truncatingIfNeeded: v >> 9)
    p[3] = UInt8(truncatingIfNeeded: v >> 1)
    p[4] = UInt8(truncatingIfNeeded: v & 1) << 7 | (p[4] & 0x7F)
  }

  /// The SCR base of an MPEG-2 pack header at `p[0...5]`
  /// (`'01' s[32..30] 1 s[29..15] 1 s[14..0] 1 ext(9) 1`).
  @inline(__always)
  package static func scr(_ p: UnsafePointer<UInt8>) -> UInt64 {
    (UInt64((p[0] >> 3) & 7) << 30) | (UInt64(p[0] & 3) << 28) | (UInt64(p[1]) << 20)
      | (UInt64(p[2] >> 3) << 15) | (UInt64(p[2] & 3) << 13) | (UInt64(p[3]) << 5)
      | UInt64(p[4] >> 3)
  }

  /// Adds `delta` to the SCR base of an MPEG-2 pack header at `p[0...5]`.
  @inline(__always)
  static func shiftSCR(_ p: UnsafeMutablePointer<UInt8>, delta: UInt64) {
    let v = (scr(UnsafePointer(p)) &+ delta) & mask
    p[0] =
      (p[0] & 0xC4) | (UInt8(truncatingIfNeeded: v >> 30) & 7) << 3
      | (UInt8(truncatingIfNeeded: v >> 28) & 3)
    p[1] = UInt8(truncatingIfNeeded: v >> 20)
    p[2] =
      (p[2] & 0x04) | (UInt8(truncatingIfNeeded: v >> 15) & 0x1F) << 3
      | (UInt8(truncatingIfNeeded: v >> 13) & 3)
    p[3] = UInt8(truncatingIfNeeded: v >> 5)
    p[4] = (p[4] & 0x07) | (UInt8(truncatingIfNeeded: v) & 0x1F) << 3
  }

  /// Whether a PES `stream_id` has the optional PES header (with PTS/DTS flags).
  @inline(__always)
  static func hasOptionalHeader(_ streamID: UInt8) -> Bool {
    switch streamID {
    case 0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xF2, 0xF8, 0xFF: false
    default: streamID >= 0xBD
    }
  }
}
