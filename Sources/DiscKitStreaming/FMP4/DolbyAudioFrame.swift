/// One AC-3 or E-AC-3 syncframe header (ETSI TS 102 366 §4.4.1 and annex E.1.2): what the MP4
/// sample entry (`dac3`, `dec3`) and the sample's duration need.
package struct DolbyAudioFrame: Sendable, Hashable {
  /// `bsid`: ≤ 8 AC-3 (`ac-3`), 16 E-AC-3.
  package var bsid: Int
  /// `fscod` (0 48 kHz, 1 44.1 kHz, 2 32 kHz).
  package var fscod: Int
  /// `frmsizecod` (AC-3 only; the bit rate code is its upper 5 bits).
  package var frameSizeCode: Int
  /// `bsmod` (AC-3 only; 0 for E-AC-3, whose `bsmod` is in optional metadata).
  package var bsmod: Int
  /// `acmod`.
  package var acmod: Int
  /// `lfeon`.
  package var lfe: Bool
  /// E-AC-3 `strmtyp` (0 independent, 1 dependent, 2 AC-3 converted); 0 for AC-3.
  package var streamType: Int
  /// E-AC-3 `substreamid`.
  package var substreamID: Int
  /// E-AC-3 dependent substream `chanmap` (16 bits) when `chanmape` is set.
  package var channelMap: Int?
  /// The syncframe's size in bytes.
  package var size: Int
  /// Audio blocks of 256 samples (6 for AC-3).
  package var blocks: Int
  /// E-AC-3 with Dolby Atmos (joint object coding): `complexity_index_type_a`, from the
  /// additional bitstream information whose first byte's last bit is
  /// `flag_ec3_extension_type_a` (ETSI TS 103 420 §8.3; the value `dec3` repeats and HLS names
  /// as `CHANNELS="16/JOC"`); nil without it.
  package var complexityIndex: Int? = nil

  /// Whether the frame is E-AC-3 (`bsid` 11 to 16).
  package var isEnhanced: Bool { bsid > 10 }
  /// The sample rate in hertz.
  package var sampleRate: Int { [48_000, 44_100, 32_000, 48_000][fscod & 3] }
  /// Samples per channel in the frame.
  package var samples: Int { blocks * 256 }
  /// The full-bandwidth channels plus the LFE.
  package var channels: Int { [2, 1, 2, 3, 3, 4, 4, 5][acmod & 7] + (lfe ? 1 : 0) }

  private static let bitRates = [
    32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640,
  ]

  /// Decodes the header at the start of `bytes` (a syncword `0B 77` first); nil when it is not
  /// a valid header or `bytes` is too short to hold it.
  package init?(_ bytes: ArraySlice<UInt8>) {
    guard bytes.count >= 8, bytes[bytes.startIndex] == 0x0B, bytes[bytes.startIndex + 1] == 0x77
    else { return nil }
    var r = BitCursor(bytes)
    r.skip(16)
    let bsidPeek = Int(bytes[bytes.startIndex + 5] >> 3)
    bsid = bsidPeek
    channelMap = nil
    if bsidPeek <= 10 {
      r.skip(16)  // crc1
      fscod = r.read(2)
      frameSizeCode = r.read(6)
      guard fscod != 3, frameSizeCode < 38 else { return nil }
      r.skip(5)
      bsmod = r.read(3)
      acmod = r.read(3)
      if acmod & 1 != 0 && acmod != 1 { r.skip(2) }
      if acmod & 4 != 0 { r.skip(2) }
      if acmod == 2 { r.skip(2) }
      lfe = r.read(1) == 1
      streamType = 0
      substreamID = 0
      blocks = 6
      let rate = Self.bitRates[frameSizeCode >> 1]
      let words: Int
      switch fscod {
      case 0: words = rate * 2
      case 1: words = rate * 320 / 147 + (frameSizeCode & 1)
      default: words = rate * 3
      }
      size = words * 2
    } else if bsidPeek <= 16 {
      streamType = r.read(2)
      substreamID = r.read(3)
      size = (r.read(11) + 1) * 2
      fscod = r.read(2)
      // Reduced sample rates (fscod 3, fscod2) are not used on Blu-ray discs.
      guard fscod != 3 else { return nil }
      blocks = [1, 2, 3, 6][r.read(2)]
      acmod = r.read(3)
      lfe = r.read(1) == 1
      r.skip(5)  // bsid
      r.skip(5)  // dialnorm
      if r.read(1) == 1 { r.skip(8) }
      if acmod == 0 {
        r.skip(5)
        if r.read(1) == 1 { r.skip(8) }
      }
      if streamType == 1, r.read(1) == 1 { channelMap = r.read(16) }
      bsmod = 0
      frameSizeCode = 0
      complexityIndex = Self.joc(&r, streamType: streamType, acmod: acmod, lfe: lfe, blocks: blocks)
    } else {
      return nil
    }
    guard size >= 8 else { return nil }
  }

  /// Reads the rest of an E-AC-3 `bsi()` (ETSI TS 102 366 E.1.2.2, after `chanmap`) up to the
  /// additional bitstream information: the Atmos complexity index when it is there.
  static func joc(_ r: inout BitCursor, streamType: Int, acmod: Int, lfe: Bool, blocks: Int) -> Int?
  {
    skipMetadata(&r, streamType: streamType, acmod: acmod, lfe: lfe, blocks: blocks)
    guard r.read(1) == 1 else { return nil }  // addbsie
    let length = r.read(6) + 1
    guard length >= 2 else { return nil }
    r.skip(7)
    guard r.read(1) == 1 else { return nil }  // flag_ec3_extension_type_a
    return r.read(8)
  }

  /// Skips an E-AC-3 `bsi()`'s mixing and informational metadata, `convsync` and `frmsizecod`
  /// (after `chanmap`, up to `addbsie`).
  static func skipMetadata(
    _ r: inout BitCursor, streamType: Int, acmod: Int, lfe: Bool, blocks: Int
  ) {
    if r.read(1) == 1 {  // mixmdate
      if acmod > 2 { r.skip(2) }  // dmixmod
      if acmod & 1 != 0, acmod > 2 { r.skip(6) }  // ltrtcmixlev, lorocmixlev
      if acmod & 4 != 0 { r.skip(6) }  // ltrtsurmixlev, lorosurmixlev
      if lfe, r.read(1) == 1 { r.skip(5) }  // lfemixlevcod
      if streamType == 0 {
        for _ in 0..<(acmod == 0 ? 2 : 1) where r.read(1) == 1 { r.skip(6) }  // pgmscl
        if r.read(1) == 1 { r.skip(6) }  // extpgmscl
        switch r.read(2) {  // mixdef
        case 1: r.skip(5)
        case 2: r.skip(12)
        case 3: r.skip((r.read(5) + 2) * 8)
        default: break
        }
        if acmod < 2 {
          for _ in 0..<(acmod == 0 ? 2 : 1) where r.read(1) == 1 { r.skip(14) }  // paninfo
        }
        if r.read(1) == 1 {  // frmmixcfginfoe
          for _ in 0..<blocks where blocks == 1 || r.read(1) == 1 { r.skip(5) }
        }
      }
    }
    if r.read(1) == 1 {  // infomdate
      r.skip(5)  // bsmod, copyrightb, origbs
      if acmod == 2 { r.skip(4) }  // dsurmod, dheadphonmod
      if acmod >= 6 { r.skip(2) }  // dsurexmod
      for _ in 0..<(acmod == 0 ? 2 : 1) where r.read(1) == 1 { r.skip(8) }  // audprodi
      r.skip(1)  // sourcefscod (fscod < 3: no reduced rates here)
    }
    if streamType == 0, blocks != 6 { r.skip(1) }  // convsync
    if streamType == 2, blocks == 6 || r.read(1) == 1 { r.skip(6) }  // frmsizecod
  }

  /// Splits `bytes` into syncframes: the ranges of the frames found from the start on (stops at
  /// the first byte that does not start a valid, complete frame).
  package static func split(_ bytes: ArraySlice<UInt8>) -> [(
    frame: DolbyAudioFrame, range: Range<Int>
  )] {
    var frames: [(DolbyAudioFrame, Range<Int>)] = []
    var i = bytes.startIndex
    while i + 8 <= bytes.endIndex, let frame = DolbyAudioFrame(bytes[i...]),
      i + frame.size <= bytes.endIndex
    {
      frames.append((frame, i..<(i + frame.size)))
      i += frame.size
    }
    return frames
  }
}

/// A big-endian bit reader over a byte slice that reads zeros past the end (the audio headers'
/// fields here and in DiscKitTranscode).
package struct BitCursor {
  package let bytes: ArraySlice<UInt8>
  package var bit = 0
  package init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
  package mutating func read(_ count: Int) -> Int {
    var value = 0
    for _ in 0..<count {
      let index = bytes.startIndex + bit / 8
      let b = index < bytes.endIndex ? Int(bytes[index] >> (7 - UInt8(bit % 8))) & 1 : 0
      value = value << 1 | b
      bit += 1
    }
    return value
  }
  package mutating func skip(_ count: Int) { bit += count }
}
