/// Finds `00 00 01 xx` start codes in PES payload bytes fed in pieces (a start code may straddle
/// transport packets) and records what they announce in ``flags``. Allocation-free.
package struct StartCodeScanner: Sendable {
  /// What was found since the last ``reset()``.
  package private(set) var flags = AccessUnitFlags()
  private var window: UInt32 = 0xFFFF_FFFF
  private var code: UInt8 = 0
  private var follow = 0  // follow bytes still wanted after `code`
  private var first: UInt8 = 0
  // The H.264 SEI messages walked (for a recovery point): 0 none, 1 the payload type, 2 the
  // payload size, 3 skipping the payload; the value summed, the bytes left, zeros seen (an
  // emulation prevention byte 03 after two is not payload).
  private var sei: UInt8 = 0
  private var seiValue = 0
  private var seiType = 0
  private var seiLeft = 0
  private var seiZeros = 0
  private var sliceSeen = false

  /// Creates a scanner with nothing found.
  package init() {}

  /// Forgets the bytes seen (call at the start of each PES payload).
  package mutating func reset() {
    flags = AccessUnitFlags()
    window = 0xFFFF_FFFF
    follow = 0
    sei = 0
    sliceSeen = false
  }

  /// Scans more payload bytes.
  package mutating func scan(_ bytes: UnsafeRawBufferPointer) {
    var w = window
    for b in bytes {
      if sei != 0 { walkSEI(b) }
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
        // An H.264 SEI NAL unit (forbidden bit 0, nal_ref_idc 0, type 6): walk its messages.
        sei = b & 0x9F == 0x06 ? 1 : 0
        seiValue = 0
        seiZeros = 0
      }
    }
    window = w
  }

  /// One byte of an H.264 SEI NAL unit's payload: message types and sizes (ff bytes adding 255),
  /// payloads skipped, until a recovery point (payload type 6) or the RBSP's trailing bits.
  private mutating func walkSEI(_ b: UInt8) {
    if seiZeros >= 2, b == 0x03 {
      seiZeros = 0
      return
    }
    seiZeros = b == 0 ? seiZeros + 1 : 0
    switch sei {
    case 1, 2:
      if sei == 1, seiValue == 0, b == 0x80 {
        sei = 0
      } else if b == 0xFF {
        seiValue += 255
      } else if sei == 1 {
        seiType = seiValue + Int(b)
        seiValue = 0
        sei = 2
      } else {
        seiLeft = seiValue + Int(b)
        seiValue = 0
        if seiType == 6 {
          flags.h264RecoveryPoint = true
          sei = 0
        } else {
          sei = seiLeft == 0 ? 1 : 3
        }
      }
    default:
      seiLeft -= 1
      if seiLeft <= 0 { sei = 1 }
    }
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
      let h264Type = c & 0x1F
      if h264Type == 1 || h264Type == 5, !sliceSeen {
        // The picture's first slice: first_mb_in_slice 0 (ue 1) and slice_type 2 or 7 (ue 011
        // or 0001000).
        sliceSeen = true
        flags.h264ISlice = !partial && (f1 & 0xF0 == 0xB0 || f1 == 0x88)
      }
      switch h264Type {
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
