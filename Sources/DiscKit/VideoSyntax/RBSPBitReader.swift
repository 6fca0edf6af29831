/// A bounds-checked, most-significant-bit-first reader over the raw byte sequence payload (RBSP)
/// of one H.264/HEVC NAL unit: the emulation prevention bytes (`00 00 03`) of the NAL unit are
/// removed first, and every read past the end throws ``DiscKitError/Code/truncated`` naming the
/// structure and the absolute offset of the NAL-unit byte the read reached.
struct RBSPBitReader {
  /// The payload with the emulation prevention bytes removed.
  let rbsp: [UInt8]
  /// For error offsets: the RBSP indexes at which an emulation prevention byte was removed.
  private let removed: [Int]
  /// The absolute offset of the NAL unit's first payload byte.
  let baseOffset: Int64
  /// The structure named in errors.
  let structure: String
  /// The cursor, in bits from the start of ``rbsp``.
  private(set) var bit = 0

  /// A reader over `payload` (the NAL unit's bytes after its header), which starts at absolute
  /// offset `baseOffset`.
  init(payload: ArraySlice<UInt8>, baseOffset: Int64, structure: String) {
    var out: [UInt8] = []
    out.reserveCapacity(payload.count)
    var removed: [Int] = []
    var zeros = 0
    for b in payload {
      if zeros >= 2 && b == 3 {
        removed.append(out.count)
        zeros = 0
        continue
      }
      zeros = b == 0 ? zeros + 1 : 0
      out.append(b)
    }
    rbsp = out
    self.removed = removed
    self.baseOffset = baseOffset
    self.structure = structure
  }

  /// Bits left to read.
  var bitsLeft: Int { rbsp.count * 8 - bit }

  /// Whether the cursor is on a byte boundary.
  var isByteAligned: Bool { bit & 7 == 0 }

  /// The byte index of the cursor in ``rbsp``.
  var bytePosition: Int { bit >> 3 }

  /// The absolute offset of RBSP byte `index` in the NAL unit as stored.
  func absoluteOffset(ofRBSPByte index: Int) -> Int64 {
    var skipped = 0
    for r in removed where r <= index { skipped += 1 }
    return baseOffset + Int64(index + skipped)
  }

  /// An error at the cursor.
  func error(_ code: DiscKitError.Code, _ detail: String) -> DiscKitError {
    DiscKitError(
      code, structure, at: absoluteOffset(ofRBSPByte: min(bytePosition, rbsp.count)), detail)
  }

  /// Reads `n` (0...32) bits as an unsigned value.
  mutating func bits(_ n: Int, _ field: @autoclosure () -> String) throws(DiscKitError) -> UInt32 {
    guard n >= 0, n <= 32 else {
      throw error(.invalidArgument, "cannot read \(n) bits at once (\(field()))")
    }
    guard n <= bitsLeft else {
      throw error(.truncated, "\(field()) needs \(n) bits, but the NAL unit ends first")
    }
    var v: UInt32 = 0
    for _ in 0..<n {
      v = v << 1 | UInt32(rbsp[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
      bit += 1
    }
    return v
  }

  /// Reads one bit as a flag.
  mutating func flag(_ field: @autoclosure () -> String) throws(DiscKitError) -> Bool {
    try bits(1, field()) == 1
  }

  /// Skips `n` bits.
  mutating func skip(_ n: Int, _ field: @autoclosure () -> String) throws(DiscKitError) {
    guard n >= 0, n <= bitsLeft else {
      throw error(.truncated, "\(field()) needs \(n) bits, but the NAL unit ends first")
    }
    bit += n
  }

  /// Reads an unsigned Exp-Golomb code `ue(v)` (at most 32 bits of value).
  mutating func ue(_ field: @autoclosure () -> String) throws(DiscKitError) -> UInt32 {
    var zeros = 0
    while try bits(1, field()) == 0 {
      zeros += 1
      guard zeros < 32 else {
        throw error(.malformed, "\(field()): an Exp-Golomb code with 32 or more leading zeros")
      }
    }
    let rest = try bits(zeros, field())
    return UInt32((UInt64(1) << zeros) - 1 + UInt64(rest))
  }

  /// Reads an unsigned Exp-Golomb code and checks it against `limit` (inclusive).
  mutating func ue(_ field: @autoclosure () -> String, max limit: UInt32) throws(DiscKitError)
    -> UInt32
  {
    let value = try ue(field())
    guard value <= limit else {
      throw error(.malformed, "\(field()) is \(value); the largest allowed is \(limit)")
    }
    return value
  }

  /// Reads a signed Exp-Golomb code `se(v)`.
  mutating func se(_ field: @autoclosure () -> String) throws(DiscKitError) -> Int64 {
    let k = try ue(field())
    return k & 1 == 1 ? Int64(k / 2) + 1 : -Int64(k / 2)
  }
}
