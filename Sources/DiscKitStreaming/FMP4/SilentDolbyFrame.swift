/// A silent AC-3 (or E-AC-3) syncframe made from a stream's own frame: the fill a copied AC-3 rendition
/// carries where the disc's stream has no frame (a pause or an early end), so that its samples
/// run without a gap, as a player expects (ffmpeg's command line takes a gap of more than 10 s
/// in an HLS stream for a timestamp discontinuity and shifts every stream; a browser's buffered
/// ranges end at a gap).
///
/// The frame keeps the source frame's `syncinfo` and `bsi()` bit for bit (sample rate, bit rate
/// and so size, `bsid`, `bsmod`, channel layout, `dialnorm`, …), so a decoder sees the same
/// stream, and holds six audio blocks that code every coefficient as zero (ETSI TS 102 366
/// §5.4.3, §7.2.2.6: exponents 15 (D45, the narrowest bandwidth code), `csnroffst` and every
/// `fsnroffst` 0, which sets every bit allocation pointer to 0, so no mantissa is coded, and
/// `dithflag` 0, so the zero mantissas are not replaced by dither). The rest of the frame is
/// auxiliary-data zeros; both CRCs are computed (`crc1` solved so that the first 5/8 check,
/// `crc2` over the rest).
package enum SilentDolbyFrame {
  /// The silent frame for the stream whose frame `source` is (an AC-3 frame, `bsid` ≤ 8,
  /// complete), nil for another frame (``eac3(from:)``) or one too small to hold it.
  package static func ac3(from source: ArraySlice<UInt8>) -> [UInt8]? {
    guard let header = DolbyAudioFrame(source), header.bsid <= 8, source.count >= header.size
    else { return nil }
    let bytes = Array(source.prefix(header.size))
    guard let bsiEnd = bsiEnd(bytes[...]) else { return nil }
    let acmod = header.acmod
    let fullChannels = [2, 1, 2, 3, 3, 4, 4, 5][acmod]
    var w = BitPacker()
    w.put(0x0B77, 16)
    w.put(0, 16)  // crc1, below
    // syncinfo's fscod/frmsizecod and the whole bsi(), as the source has them.
    var r = BitCursor(bytes[...])
    r.skip(32)
    while r.bit < bsiEnd { w.put(r.read(1), 1) }
    for block in 0..<6 {
      let first = block == 0
      for _ in 0..<fullChannels { w.put(0, 1) }  // blksw
      for _ in 0..<fullChannels { w.put(0, 1) }  // dithflag: zeros stay zeros
      w.put(0, 1)  // dynrnge
      if acmod == 0 { w.put(0, 1) }  // dynrng2e
      w.put(first ? 1 : 0, 1)  // cplstre
      if first { w.put(0, 1) }  // cplinu: no coupling
      if acmod == 2 {
        w.put(first ? 1 : 0, 1)  // rematstr
        if first { w.put(0, 4) }  // rematflg of the four bands
      }
      for _ in 0..<fullChannels { w.put(first ? 3 : 0, 2) }  // chexpstr: D45, then reuse
      if header.lfe { w.put(first ? 1 : 0, 1) }  // lfeexpstr
      if first {
        for _ in 0..<fullChannels { w.put(0, 6) }  // chbwcod 0: 73 coefficients
        for _ in 0..<fullChannels {
          w.put(15, 4)  // the first exponent
          for _ in 0..<6 { w.put(62, 7) }  // (73 + 12 - 4) / 12 groups of three 0 deltas
          w.put(0, 2)  // gainrng
        }
        if header.lfe {
          w.put(15, 4)
          w.put(62, 7)
          w.put(62, 7)
        }
      }
      w.put(first ? 1 : 0, 1)  // baie
      if first { w.put(0b10_01_01_10_111, 11) }  // sdcycod 2, fdcycod 1, sgaincod 1, dbpbcod 2, floorcod 7
      w.put(first ? 1 : 0, 1)  // snroffste
      if first {
        w.put(0, 6)  // csnroffst
        for _ in 0..<(fullChannels + (header.lfe ? 1 : 0)) {
          w.put(0, 4)  // fsnroffst: with csnroffst 0, every bap 0
          w.put(4, 3)  // fgaincod
        }
      }
      w.put(0, 1)  // deltbaie
      w.put(0, 1)  // skiple
    }
    // auxdatae, crcrsv and crc2 are the frame's last 18 bits.
    guard w.used + 18 <= header.size * 8 else { return nil }
    var frame = w.bytes + [UInt8](repeating: 0, count: header.size - w.bytes.count)
    let size58 = ((header.size >> 2) + (header.size >> 4)) << 1
    let rest = crc16(frame[4..<size58])
    let crc1 = unshift(rest, bits: 16 + 8 * (size58 - 4))
    frame[2] = UInt8(crc1 >> 8)
    frame[3] = UInt8(crc1 & 0xFF)
    var crc2 = crc16(frame[size58..<(header.size - 2)])
    if crc2 == 0x0B77 {
      // Not a syncword at the frame's end: crcrsv (reserved for this) flipped.
      frame[header.size - 3] ^= 1
      crc2 = crc16(frame[size58..<(header.size - 2)])
    }
    frame[header.size - 2] = UInt8(crc2 >> 8)
    frame[header.size - 1] = UInt8(crc2 & 0xFF)
    return frame
  }

  /// The silent frame for an E-AC-3 stream whose sample `source` is: one independent frame
  /// (`strmtyp` 0) of six blocks, complete; nil for another (a sample with dependent
  /// substreams, fewer blocks) or a frame too small to hold it. Its `bsi()` is the source's bit
  /// for bit; `audfrm()` says: AC-3 exponent strategies, no AHT, frame SNR offsets (0 and 0:
  /// every bit allocation pointer 0), no transient processing, block switching or spectral
  /// extension attenuation, dither flags present (all 0), default bit allocation, no coupling;
  /// then six blocks as ``ac3(from:)`` writes them in E-AC-3's syntax (ETSI TS 102 366 E.1.2.3,
  /// E.1.2.4), zeros, and the CRC over the frame after its syncword.
  package static func eac3(from source: ArraySlice<UInt8>) -> [UInt8]? {
    guard let header = DolbyAudioFrame(source), header.isEnhanced, header.streamType == 0,
      header.blocks == 6, source.count >= header.size
    else { return nil }
    let bytes = Array(source.prefix(header.size))
    guard let bsiEnd = eac3BsiEnd(bytes[...]) else { return nil }
    let acmod = header.acmod
    let fullChannels = [2, 1, 2, 3, 3, 4, 4, 5][acmod]
    var w = BitPacker()
    w.put(0x0B77, 16)
    var r = BitCursor(bytes[...])
    r.skip(16)
    while r.bit < bsiEnd { w.put(r.read(1), 1) }
    // audfrm()
    w.put(1, 1)  // expstre: AC-3 exponent strategies
    w.put(0, 1)  // ahte
    w.put(0, 2)  // snroffststr: frame SNR offsets
    w.put(0, 1)  // transproce
    w.put(0, 1)  // blkswe
    w.put(1, 1)  // dithflage: dithflag present (0: zeros stay zeros)
    w.put(0, 1)  // bamode: default bit allocation
    w.put(0, 1)  // frmfgaincode
    w.put(0, 1)  // dbaflde
    w.put(0, 1)  // skipflde
    w.put(0, 1)  // spxattene
    if acmod > 1 {
      w.put(0, 1)  // cplinu[0] (cplstre[0] implied)
      for _ in 1..<6 { w.put(0, 1) }  // cplstre: as before
    }
    for block in 0..<6 {
      for _ in 0..<fullChannels { w.put(block == 0 ? 3 : 0, 2) }  // chexpstr: D45, then reuse
    }
    if header.lfe { for block in 0..<6 { w.put(block == 0 ? 1 : 0, 1) } }  // lfeexpstr
    for _ in 0..<fullChannels { w.put(0, 5) }  // convexpstr (six blocks: convexpstre implied)
    w.put(0, 6)  // frmcsnroffst
    w.put(0, 4)  // frmfsnroffst
    w.put(0, 1)  // blkstrtinfoe
    for block in 0..<6 {
      let first = block == 0
      for _ in 0..<fullChannels { w.put(0, 1) }  // dithflag
      w.put(0, 1)  // dynrnge
      if acmod == 0 { w.put(0, 1) }  // dynrng2e
      w.put(0, 1)  // block 0: spxinu (spxstre implied); then spxstre
      if acmod == 2 {
        if first { w.put(0, 4) } else { w.put(0, 1) }  // rematflg (rematstr implied) / rematstr
      }
      if first {
        for _ in 0..<fullChannels { w.put(0, 6) }  // chbwcod
        for _ in 0..<fullChannels {
          w.put(15, 4)
          for _ in 0..<6 { w.put(62, 7) }
          w.put(0, 2)  // gainrng
        }
        if header.lfe {
          w.put(15, 4)
          w.put(62, 7)
          w.put(62, 7)
        }
      }
      w.put(0, 1)  // convsnroffste
    }
    guard w.used + 17 <= header.size * 8 else { return nil }
    var frame = w.bytes + [UInt8](repeating: 0, count: header.size - w.bytes.count)
    var crc = crc16(frame[2..<(header.size - 2)])
    if crc == 0x0B77 {
      frame[header.size - 3] ^= 1
      crc = crc16(frame[2..<(header.size - 2)])
    }
    frame[header.size - 2] = UInt8(crc >> 8)
    frame[header.size - 1] = UInt8(crc & 0xFF)
    return frame
  }

  /// The bit where an E-AC-3 frame's `bsi()` ends, its `addbsi` included (ETSI TS 102 366
  /// E.1.2.2), nil when the frame is shorter.
  static func eac3BsiEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
    var r = BitCursor(bytes)
    r.skip(16)  // syncword
    let streamType = r.read(2)
    r.skip(3 + 11)  // substreamid, frmsiz
    guard r.read(2) != 3 else { return nil }  // fscod (no reduced rates)
    let blocks = [1, 2, 3, 6][r.read(2)]
    let acmod = r.read(3)
    let lfe = r.read(1) == 1
    r.skip(5 + 5)  // bsid, dialnorm
    if r.read(1) == 1 { r.skip(8) }  // compr
    if acmod == 0 {
      r.skip(5)
      if r.read(1) == 1 { r.skip(8) }
    }
    if streamType == 1, r.read(1) == 1 { r.skip(16) }  // chanmap
    DolbyAudioFrame.skipMetadata(&r, streamType: streamType, acmod: acmod, lfe: lfe, blocks: blocks)
    if r.read(1) == 1 { r.skip((r.read(6) + 1) * 8) }  // addbsi
    return r.bit <= bytes.count * 8 ? r.bit : nil
  }

  /// The bit where an AC-3 frame's `bsi()` ends (ETSI TS 102 366 §4.3.2; the alternate syntax
  /// of `bsid` 6 has the same lengths).
  static func bsiEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
    var r = BitCursor(bytes)
    r.skip(40)  // syncword, crc1, fscod, frmsizecod
    r.skip(8)  // bsid, bsmod
    let acmod = r.read(3)
    if acmod & 1 != 0 && acmod != 1 { r.skip(2) }
    if acmod & 4 != 0 { r.skip(2) }
    if acmod == 2 { r.skip(2) }
    r.skip(1)  // lfeon
    for _ in 0..<(acmod == 0 ? 2 : 1) {
      r.skip(5)  // dialnorm
      if r.read(1) == 1 { r.skip(8) }  // compr
      if r.read(1) == 1 { r.skip(8) }  // langcod
      if r.read(1) == 1 { r.skip(7) }  // mixlevel, roomtyp
    }
    r.skip(2)  // copyrightb, origbs
    if r.read(1) == 1 { r.skip(14) }  // timecod1 / xbsi1
    if r.read(1) == 1 { r.skip(14) }  // timecod2 / xbsi2
    if r.read(1) == 1 { r.skip((r.read(6) + 1) * 8) }  // addbsi
    return r.bit <= bytes.count * 8 ? r.bit : nil
  }

  /// CRC-16 with generator x¹⁶ + x¹⁵ + x² + 1, most significant bit first, from 0 (the AC-3
  /// syncframe's).
  static func crc16(_ bytes: ArraySlice<UInt8>) -> UInt16 {
    var crc: UInt16 = 0
    for byte in bytes {
      crc ^= UInt16(byte) << 8
      for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x8005 : crc << 1 }
    }
    return crc
  }

  /// The register that `bits` zero bits take to `crc` (the inverse of the CRC's step): the
  /// value to put first in a message whose CRC must be 0 (`crc1`, which leads the part it
  /// checks).
  static func unshift(_ crc: UInt16, bits: Int) -> UInt16 {
    var r = crc
    for _ in 0..<bits { r = r & 1 != 0 ? ((r ^ 0x8005) >> 1) | 0x8000 : r >> 1 }
    return r
  }
}
