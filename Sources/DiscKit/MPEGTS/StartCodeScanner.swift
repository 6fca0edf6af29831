/// Finds `00 00 01 xx` start codes in PES payload bytes fed in pieces (a start code may straddle
/// transport packets) and records what they announce in ``flags``. Allocation-free.
package struct StartCodeScanner: Sendable {
  /// What was found since the last ``reset()``.
  package private(set) var flags = AccessUnitFlags()
  private var window: UInt32 = 0xFFFF_FFFF
  private var code: UInt8 = 0
  private var follow = 0  // follow bytes still wanted after `code`
  private var first: UInt8 = 0

  /// Creates a scanner with nothing found.
  package init() {}

  /// Forgets the bytes seen (call at the start of each PES payload).
  package mutating func reset() {
    flags = AccessUnitFlags()
    window = 0xFFFF_FFFF
    follow = 0
  }

  /// Scans more payload bytes.
  package mutating func scan(_ bytes: UnsafeRawBufferPointer) {
    var w = window
    for b in bytes {
      if follow > 0 {
        if follow == 2 {
          first = b
          follow = 1
        } else {
          follow = 0
          evaluate(code, first, b)
        }
      }
      w = w << 8 | UInt32(b)
      if w & 0xFFFF_FF00 == 0x0000_0100 {
        code = b
        follow = 2
      }
    }
    window = w
  }

  /// Evaluates a start code with whatever follow bytes arrived (called at the end of a PES).
  package mutating func flush() {
    if follow > 0 {
      evaluate(code, follow == 1 ? first : 0, 0, partial: true)
      follow = 0
    }
  }

  private mutating func evaluate(_ c: UInt8, _ f1: UInt8, _ f2: UInt8, partial: Bool = false) {
    // H.264 (forbidden_zero_bit must be 0).
    if c & 0x80 == 0 {
      switch c & 0x1F {
      case 5: flags.h264IDR = true
      case 15: flags.mvcDependentView = true
      case 20:
        flags.mvcDependentView = true
        if !partial, f1 & 0x80 == 0, f1 & 0x40 == 0 { flags.mvcIDR = true }
      default: break
      }
      // HEVC: type in bits 6..1, nuh_layer_id = (c & 1) << 5 | f1 >> 3.
      let type = c >> 1 & 0x3F
      if (16...21).contains(type), flags.hevcIRAPType == nil, c & 1 == 0, f1 >> 3 == 0 {
        flags.hevcIRAPType = type
      }
    }
    // MPEG-1/2 video.
    if c == 0xB3 { flags.mpeg2SequenceHeader = true }
    if c == 0x00, !partial, flags.mpeg2SequenceHeader, f2 >> 3 & 0x07 == 1 {
      flags.mpeg2IPictureAfterSequenceHeader = true
    }
    // VC-1.
    if c == 0x0E { flags.vc1EntryPoint = true }
  }
}
