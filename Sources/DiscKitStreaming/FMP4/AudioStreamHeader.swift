/// What libavcodec's decoder of a disc audio stream gives (the transcoder's decoders: TrueHD,
/// DTS in bit-exact mode, AC-3, E-AC-3, `pcm_bluray`), read from the stream's own headers, so
/// that the fMP4 HLS plan describes its AAC and FLAC renditions without loading libavcodec
/// (issue 28: its ~100 libraries are 15-16 MiB of resident memory, mapped only once a client
/// asks for a transcoded segment).
///
/// Each rule is libavcodec's (FFmpeg 5.1 to 7), checked against `ffprobe -flags +bitexact` on
/// every audio stream of the generated discs and the real samples:
/// - TrueHD (Dolby TrueHD, the MLP major sync `F8726FBA`): the decoder decodes up to the third
///   substream (a fourth is Atmos data) and gives that substream's presentation: with one or two
///   substreams the 6-channel presentation's `channel_arrangement`, with three or more the
///   8-channel one's (the 6-channel one's when it is 0); its rate from the sync's rate code, 32-bit
///   samples of 24 bits (`bits_per_raw_sample` 24, whatever the stream).
/// - DTS (ETSI TS 102 114): a core frame alone gives the core's `AMODE` channels and `LFF`'s LFE
///   at `SFREQ`, 24-bit integers in planar 32-bit words (bit-exact synthesis); a DTS-HD extension
///   substream whose asset has the lossless extension (XLL, DTS-HD MA) gives the asset's channels
///   (its loudspeaker activity mask), rate and bit depth (planar 16-bit words up to 16 bits, else
///   32-bit words of 24 bits). A core with its own extensions (XCH, X96, XXCH) or an extension
///   substream without XLL (DTS-HD High Resolution, LBR) is not described: the decoder's channels
///   or rate then depend on those extensions' own headers, and the caller asks the decoder.
/// - Blu-ray LPCM: the 4-byte header (BD-ROM part 3 table 5-20): channels, rate, 16 bits in
///   16-bit words or 20/24 bits in 32-bit words.
/// - AC-3 and E-AC-3 (ETSI TS 102 366): `acmod` and `lfeon` of the first syncframe, `fscod`'s rate,
///   floating-point samples. An E-AC-3 stream with dependent substreams (7.1 and more) or a
///   second program is not described (the decoder's layout then follows `chanmap`).
package struct AudioStreamHeader: Sendable, Hashable {
  package var sampleRate: Int
  /// The decoded channels as libavutil's channel mask (`AV_CH_*` bits, native order).
  package var channelMask: UInt64
  /// libavutil's sample format name (`av_get_sample_fmt_name`): `fltp`, `s16`, `s32`, `s16p`,
  /// `s32p`.
  package var sampleFormat: String
  /// The decoder's `bits_per_raw_sample` (0: not set, as for 16-bit LPCM and AC-3).
  package var bitsPerRawSample: Int

  package var channels: Int { channelMask.nonzeroBitCount }

  /// The decoded samples as a transcoder describes them (``AudioTranscodeFormat``): bits per
  /// sample 16 or 24 for integer samples FLAC can hold, 0 for floating-point ones.
  package var format: AudioTranscodeFormat {
    let bits: Int
    switch sampleFormat {
    case "s16", "s16p": bits = 16
    case "s32", "s32p":
      bits =
        bitsPerRawSample > 16 && bitsPerRawSample <= 24
        ? 24 : bitsPerRawSample > 0 && bitsPerRawSample <= 16 ? 16 : 0
    default: bits = 0
    }
    return AudioTranscodeFormat(sampleRate: sampleRate, channels: channels, bitsPerSample: bits)
  }

  /// The header of a stream of `source` from its first PES payloads (a TrueHD PID's AC-3 core
  /// packets left out), nil when they hold none or one this type does not describe.
  package static func parse(_ source: AudioTranscodeSource, payloads: [ArraySlice<UInt8>])
    -> AudioStreamHeader?
  {
    switch source {
    case .truehd: return trueHD(payloads)
    case .dts: return payloads.lazy.compactMap(dts).first
    case .lpcm: return payloads.lazy.compactMap(lpcm).first
    case .ac3, .eac3: return dolby(payloads)
    }
  }

  // MARK: TrueHD

  /// The channel groups of a major sync's `channel_arrangement` bits (Dolby TrueHD; libavcodec's
  /// `ff_truehd_layout`), as libavutil masks: L/R, C, LFE, Ls/Rs, Lvh/Rvh, Lc/Rc, Lrs/Rrs, Cs,
  /// Ts, Lsd/Rsd, Lw/Rw, Cvh, LFE2.
  static let trueHDGroups: [UInt64] = [
    AVChannel.fl | AVChannel.fr, AVChannel.fc, AVChannel.lfe, AVChannel.sl | AVChannel.sr,
    AVChannel.tfl | AVChannel.tfr, AVChannel.flc | AVChannel.frc, AVChannel.bl | AVChannel.br,
    AVChannel.bc, AVChannel.tc, AVChannel.sdl | AVChannel.sdr, AVChannel.wl | AVChannel.wr,
    AVChannel.tfc, AVChannel.lfe2,
  ]

  static func trueHDMask(_ arrangement: Int) -> UInt64 {
    var mask: UInt64 = 0
    for (k, group) in trueHDGroups.enumerated() where arrangement >> k & 1 != 0 { mask |= group }
    return mask
  }

  /// The first major sync in the access units of `payloads`.
  static func trueHD(_ payloads: [ArraySlice<UInt8>]) -> AudioStreamHeader? {
    for payload in payloads {
      var i = payload.startIndex
      while i + 4 <= payload.endIndex {
        let size = (Int(payload[i] & 0x0F) << 8 | Int(payload[i + 1])) * 2
        guard size >= 4, i + size <= payload.endIndex else { break }
        if size >= 21, payload[i + 4] == 0xF8, payload[i + 5] == 0x72, payload[i + 6] == 0x6F,
          payload[i + 7] == 0xBA
        {
          return trueHDMajorSync(payload[(i + 4)..<(i + size)])
        }
        i += size
      }
    }
    return nil
  }

  /// A major sync (from its `format_sync`): `audio_sampling_frequency`, the 6- and 8-channel
  /// presentations' `channel_arrangement` and `substreams`.
  static func trueHDMajorSync(_ b: ArraySlice<UInt8>) -> AudioStreamHeader? {
    let s = b.startIndex
    guard b.count >= 17 else { return nil }
    let rateCode = Int(b[s + 4] >> 4)
    guard rateCode != 0x0F, rateCode & 7 <= 2 else { return nil }
    let rate = (rateCode & 8 != 0 ? 44_100 : 48_000) << (rateCode & 7)
    let six = Int(b[s + 5] & 0x0F) << 1 | Int(b[s + 6] >> 7)
    let eight = Int(b[s + 6] & 0x1F) << 8 | Int(b[s + 7])
    let substreams = Int(b[s + 16] >> 4)
    guard substreams >= 1 else { return nil }
    let sixMask = trueHDMask(six)
    // libavcodec decodes substreams 0 to min(substreams - 1, 2): the last one's presentation.
    let mask = substreams >= 3 && eight != 0 ? trueHDMask(eight) : sixMask
    // A mono presentation over two substreams is decoded from the first (stereo) one.
    if substreams == 2, sixMask == AVChannel.fc { return nil }
    guard mask != 0 else { return nil }
    return AudioStreamHeader(
      sampleRate: rate, channelMask: mask, sampleFormat: "s32", bitsPerRawSample: 24)
  }

  // MARK: DTS

  /// The core frame's sample rates by `SFREQ` (ETSI TS 102 114 table 5-5).
  static let dtsCoreRates = [
    0, 8000, 16_000, 32_000, 0, 0, 11_025, 22_050, 44_100, 0, 0, 12_000, 24_000, 48_000, 0, 0,
  ]
  /// An extension substream asset's `nuMaxSampleRate` (table 7-7).
  static let dtsHDRates = [
    8000, 16_000, 32_000, 64_000, 128_000, 22_050, 44_100, 88_200, 176_400, 352_800, 12_000,
    24_000, 48_000, 96_000, 192_000, 384_000,
  ]

  /// DTS loudspeakers (ETSI TS 102 114 table 7-10's order, libavcodec's `DCASpeaker`) as
  /// libavutil channels: C, L, R, Ls, Rs, LFE1, Cs, Lsr, Rsr, Lss, Rss, Lc, Rc, Lh, Ch, Rh,
  /// LFE2, Lw, Rw, Oh, Lhs, Rhs, Chr, Lhr, Rhr, Cl, Ll, Rl (libavcodec's `dca2wav_norm`; with
  /// `dca2wav_wide` for the 7.0/7.1 wide layouts, Ls/Rs as back and Lw/Rw as side channels).
  static let dtsSpeakers: [UInt64] = [
    AVChannel.fc, AVChannel.fl, AVChannel.fr, AVChannel.sl, AVChannel.sr, AVChannel.lfe,
    AVChannel.bc, AVChannel.bl, AVChannel.br, AVChannel.sl, AVChannel.sr, AVChannel.flc,
    AVChannel.frc, AVChannel.tfl, AVChannel.tfc, AVChannel.tfr, AVChannel.lfe, AVChannel.flc,
    AVChannel.frc, AVChannel.tc, AVChannel.tfl, AVChannel.tfr, AVChannel.tbc, AVChannel.tbl,
    AVChannel.tbr, AVChannel.bc, AVChannel.bl, AVChannel.br,
  ]

  /// A DTS speaker mask (bits in ``dtsSpeakers``' order) as libavutil's mask: each speaker's
  /// channel, a channel two speakers map to counted once (as libavcodec does).
  static func dtsMask(_ speakers: Int) -> UInt64 {
    // C L R Ls Rs (+ LFE1) + Lw Rw: libavcodec's wide mapping.
    let wide = speakers == 0x1F | 0x60000 || speakers == 0x3F | 0x60000
    var mask: UInt64 = 0
    for (k, channel) in dtsSpeakers.enumerated() where speakers >> k & 1 != 0 {
      if wide, k == 3 || k == 4 {
        mask |= k == 3 ? AVChannel.bl : AVChannel.br
      } else if wide, k == 17 || k == 18 {
        mask |= k == 17 ? AVChannel.sl : AVChannel.sr
      } else {
        mask |= channel
      }
    }
    return mask
  }

  /// A DTS PES payload: a core frame (sync `7FFE8001`) and the extension substream after it
  /// (sync `64582025`), or an extension substream alone.
  static func dts(_ payload: ArraySlice<UInt8>) -> AudioStreamHeader? {
    let s = payload.startIndex
    guard payload.count >= 16 else { return nil }
    func word(_ i: Int) -> UInt32 {
      UInt32(payload[i]) << 24 | UInt32(payload[i + 1]) << 16 | UInt32(payload[i + 2]) << 8
        | UInt32(payload[i + 3])
    }
    var core: AudioStreamHeader?
    var coreExtended = false
    var exss = s
    if word(s) == 0x7FFE_8001 {
      var r = BitCursor(payload)
      r.skip(32)
      let normal = r.read(1) == 1
      let deficit = r.read(5) + 1
      r.skip(1)  // CPF
      let blocks = r.read(7) + 1
      let size = r.read(14) + 1
      let amode = r.read(6)
      let rate = dtsCoreRates[r.read(4)]
      r.skip(5 + 1 + 1 + 1 + 1 + 1)  // RATE, fixed bit, DYNF, TIMEF, AUXF, HDCD
      r.skip(3)  // EXT_AUDIO_ID
      coreExtended = r.read(1) == 1
      r.skip(1)  // ASPF
      let lff = r.read(2)
      guard !normal || deficit == 32, blocks >= 8, blocks & 7 == 0, size >= 96, amode <= 9,
        rate > 0, lff != 3
      else { return nil }
      // libavcodec's audio_mode_ch_mask: C; L R (A+B, L/R, sum/difference, Lt/Rt); C L R;
      // L R Cs; C L R Cs; L R Ls Rs; C L R Ls Rs.
      var speakers = [0x1, 0x6, 0x6, 0x6, 0x6, 0x7, 0x46, 0x47, 0x1E, 0x1F][amode]
      if lff != 0 { speakers |= 0x20 }
      core = AudioStreamHeader(
        sampleRate: rate, channelMask: dtsMask(speakers), sampleFormat: "s32p",
        bitsPerRawSample: 24)
      exss = s + size
    }
    if exss + 16 <= payload.endIndex, word(exss) == 0x6458_2025 {
      // The lossless extension gives the output; without it the core (with the extension
      // substream's own extensions, not described here) does.
      switch dtsHDAsset(payload[exss...]) {
      case .lossless(let header): return header
      case .other, .unknown: return nil
      case .noXLL: return nil
      }
    }
    return coreExtended ? nil : core
  }

  enum DTSHDAsset {
    case lossless(AudioStreamHeader)
    case noXLL
    case other
    case unknown
  }

  /// The first asset of an extension substream (ETSI TS 102 114 §7.4-7.5): its coding components
  /// and, with XLL, the format its static fields give.
  static func dtsHDAsset(_ b: ArraySlice<UInt8>) -> DTSHDAsset {
    var r = BitCursor(b)
    r.skip(32)
    r.skip(8)  // UserDefinedBits
    let index = r.read(2)  // nExtSSIndex
    let long = r.read(1) == 1  // bHeaderSizeType
    r.skip(long ? 12 : 8)  // nuExtSSHeaderSize
    r.skip(long ? 20 : 16)  // nuExtSSFsize
    guard r.read(1) == 1 else { return .unknown }  // bStaticFieldsPresent
    r.skip(2 + 3)  // nuRefClockCode, nuExSSFrameDurationCode
    if r.read(1) == 1 { r.skip(36) }  // bTimeStampFlag, nuTimeStamp, nLSB
    let presentations = r.read(3) + 1
    let assets = r.read(3) + 1
    guard presentations == 1, assets == 1 else { return .unknown }
    var active: [Int] = []
    for _ in 0..<presentations { active.append(r.read(index + 1)) }  // nuActiveExSSMask
    for p in 0..<presentations {
      for ss in 0...index where active[p] >> ss & 1 != 0 { r.skip(8) }  // nuActiveAssetMask
    }
    var mixConfigurations: [Int] = []
    let mixMetadata = r.read(1) == 1  // bMixMetadataEnbl
    if mixMetadata {
      r.skip(2)  // nuMixMetadataAdjLevel
      let bits = (r.read(2) + 1) << 2  // nuBits4MixOutMask
      let configurations = r.read(2) + 1  // nuNumMixOutConfigs
      for _ in 0..<configurations { mixConfigurations.append(speakerCount(r.read(bits))) }
    }
    for _ in 0..<assets { r.skip(long ? 20 : 16) }  // nuAssetFsize
    // The asset descriptor.
    let start = r.bit
    let descriptorSize = r.read(9) + 1  // nuAssetDescriptFsize
    r.skip(3)  // nuAssetIndex
    if r.read(1) == 1 { r.skip(4) }  // bAssetTypeDescrPresent, nuAssetTypeDescriptor
    if r.read(1) == 1 { r.skip(24) }  // bLanguageDescrPresent, LanguageDescriptor
    if r.read(1) == 1 { r.skip((r.read(10) + 1) * 8) }  // bInfoTextPresent, InfoTextString
    let bits = r.read(5) + 1  // nuBitResolution
    let rate = dtsHDRates[r.read(4)]  // nuMaxSampleRate
    let channels = r.read(8) + 1  // nuTotalNumChs
    guard r.read(1) == 1 else { return .unknown }  // bOne2OneMapChannels2Speakers
    var embeddedStereo = false
    var embeddedSix = false
    if channels > 2 { embeddedStereo = r.read(1) == 1 }
    if channels > 6 { embeddedSix = r.read(1) == 1 }
    guard r.read(1) == 1 else { return .unknown }  // bSpkrMaskEnabled
    let maskBits = (r.read(2) + 1) << 2  // nuNumBits4SAMask
    let activity = r.read(maskBits)  // nuSpkrActivityMask
    let remapSets = r.read(3)  // nuNumSpkrRemapSets
    var remapSpeakers: [Int] = []
    for _ in 0..<remapSets { remapSpeakers.append(speakerCount(r.read(maskBits))) }
    for set in 0..<remapSets {
      let decoded = r.read(5) + 1  // nuNumDecCh4Remap
      for _ in 0..<remapSpeakers[set] {
        let used = r.read(decoded).nonzeroBitCount  // nuRemapDecChMask
        r.skip(used * 5)  // nuSpkrRemapCodes
      }
    }
    // Dynamic metadata.
    let drc = r.read(1) == 1  // bDRCCoefPresent
    if drc { r.skip(8) }
    if r.read(1) == 1 { r.skip(5) }  // bDialNormPresent, nuDialNormCode
    if drc, embeddedStereo { r.skip(8) }
    if mixMetadata, r.read(1) == 1 {  // bMixMetadataPresent
      r.skip(1 + 6)  // bExternalMixFlag, nuPostMixGainAdjCode
      if r.read(2) < 3 { r.skip(3) } else { r.skip(8) }  // nuControlMixerDRC, limits
      if r.read(1) == 1 {  // bEnblPerChMainAudioScale
        for c in mixConfigurations { r.skip(c * 6) }
      } else {
        r.skip(mixConfigurations.count * 6)
      }
      for c in mixConfigurations {
        for _ in 0..<channels { r.skip(r.read(c).nonzeroBitCount * 6) }
        if embeddedSix { for _ in 0..<6 { r.skip(r.read(c).nonzeroBitCount * 6) } }
        if embeddedStereo { for _ in 0..<2 { r.skip(r.read(c).nonzeroBitCount * 6) } }
      }
    }
    // Decoder navigation data: the coding components.
    let components: Int
    switch r.read(2) {  // nuCodingMode
    case 0: components = r.read(12)  // nuCoreExtensionMask
    case 1: components = 0x200  // lossless only
    default: return .other  // LBR, auxiliary coding
    }
    guard r.bit - start <= descriptorSize * 8, (r.bit + 7) / 8 <= b.count else { return .unknown }
    guard components & 0x200 != 0 else { return .noXLL }
    // DTS_EXSS speaker pairs (table 7-10) as single loudspeakers.
    let pairs: [(Int, Int)] = [
      (0x1, 0x1), (0x2, 0x6), (0x4, 0x18), (0x8, 0x20), (0x10, 0x40), (0x20, 0xA000),
      (0x40, 0x180), (0x80, 0x4000), (0x100, 0x80000), (0x200, 0x1800), (0x400, 0x60000),
      (0x800, 0x600), (0x1000, 0x10000), (0x2000, 0x300000), (0x4000, 0x400000),
      (0x8000, 0x1800000),
    ]
    var speakers = 0
    for (bit, spk) in pairs where activity & bit != 0 { speakers |= spk }
    let mask = dtsMask(speakers)
    guard mask != 0, mask.nonzeroBitCount == channels, rate > 0 else { return .unknown }
    return .lossless(
      AudioStreamHeader(
        sampleRate: rate, channelMask: mask, sampleFormat: bits <= 16 ? "s16p" : "s32p",
        bitsPerRawSample: bits <= 16 ? 16 : 24))
  }

  /// The loudspeakers of an extension substream speaker mask (pairs counted twice).
  static func speakerCount(_ mask: Int) -> Int {
    mask.nonzeroBitCount + (mask & 0xAE66).nonzeroBitCount
  }

  // MARK: LPCM

  /// libavcodec's `pcm_bluray` layouts by `channel_assignment`.
  static let lpcmLayouts: [Int: UInt64] = [
    1: AVChannel.fc, 3: AVChannel.fl | AVChannel.fr,
    4: AVChannel.fl | AVChannel.fr | AVChannel.fc,
    5: AVChannel.fl | AVChannel.fr | AVChannel.bc,
    6: AVChannel.fl | AVChannel.fr | AVChannel.fc | AVChannel.bc,
    7: AVChannel.fl | AVChannel.fr | AVChannel.sl | AVChannel.sr,
    8: AVChannel.fl | AVChannel.fr | AVChannel.fc | AVChannel.sl | AVChannel.sr,
    9: AVChannel.fl | AVChannel.fr | AVChannel.fc | AVChannel.lfe | AVChannel.sl | AVChannel.sr,
    10: AVChannel.fl | AVChannel.fr | AVChannel.fc | AVChannel.sl | AVChannel.sr | AVChannel.bl
      | AVChannel.br,
    11: AVChannel.fl | AVChannel.fr | AVChannel.fc | AVChannel.lfe | AVChannel.sl | AVChannel.sr
      | AVChannel.bl | AVChannel.br,
  ]

  static func lpcm(_ payload: ArraySlice<UInt8>) -> AudioStreamHeader? {
    guard let format = FLACFromLPCM.Format(header: payload),
      let mask = lpcmLayouts[Int(payload[payload.startIndex + 2] >> 4)]
    else { return nil }
    return AudioStreamHeader(
      sampleRate: format.sampleRate, channelMask: mask,
      sampleFormat: format.bitsPerSample == 16 ? "s16" : "s32",
      bitsPerRawSample: format.bitsPerSample == 16 ? 0 : format.bitsPerSample)
  }

  // MARK: AC-3, E-AC-3

  /// libavcodec's AC-3 layouts by `acmod` (1+1 as stereo).
  static let dolbyLayouts: [UInt64] = [
    AVChannel.fl | AVChannel.fr, AVChannel.fc, AVChannel.fl | AVChannel.fr,
    AVChannel.fl | AVChannel.fr | AVChannel.fc, AVChannel.fl | AVChannel.fr | AVChannel.bc,
    AVChannel.fl | AVChannel.fr | AVChannel.fc | AVChannel.bc,
    AVChannel.fl | AVChannel.fr | AVChannel.sl | AVChannel.sr,
    AVChannel.fl | AVChannel.fr | AVChannel.fc | AVChannel.sl | AVChannel.sr,
  ]

  /// The first syncframe's layout, when the first frames hold no dependent substream nor a
  /// second program.
  static func dolby(_ payloads: [ArraySlice<UInt8>]) -> AudioStreamHeader? {
    var first: DolbyAudioFrame?
    var seen = 0
    for payload in payloads {
      for (frame, _) in DolbyAudioFrame.split(payload) {
        guard frame.streamType != 1, frame.substreamID == 0, frame.bsid <= 8 || frame.isEnhanced
        else { return nil }
        if first == nil { first = frame }
        seen += 1
      }
      if seen >= 8 { break }
    }
    guard let frame = first else { return nil }
    var mask = dolbyLayouts[frame.acmod & 7]
    if frame.lfe { mask |= AVChannel.lfe }
    return AudioStreamHeader(
      sampleRate: frame.sampleRate, channelMask: mask, sampleFormat: "fltp", bitsPerRawSample: 0)
  }

  // MARK: Names

  /// libavutil's name of the layout (`av_channel_layout_describe` in native order): a standard
  /// layout's name, else the channel count and the channels' names.
  package var layoutName: String {
    if let name = Self.standardLayouts.first(where: { $0.mask == channelMask })?.name {
      return name
    }
    let names = (0..<64).compactMap { bit -> String? in
      guard channelMask >> UInt64(bit) & 1 != 0 else { return nil }
      return AVChannel.names[bit] ?? "USR\(bit)"
    }
    return "\(channels) channels (\(names.joined(separator: "+")))"
  }

  static let standardLayouts: [(name: String, mask: UInt64)] = {
    let (fl, fr, fc, lfe) = (AVChannel.fl, AVChannel.fr, AVChannel.fc, AVChannel.lfe)
    let (bl, br, bc, sl, sr) = (
      AVChannel.bl, AVChannel.br, AVChannel.bc, AVChannel.sl, AVChannel.sr
    )
    let (flc, frc) = (AVChannel.flc, AVChannel.frc)
    let stereo = fl | fr
    let surround = stereo | fc
    let five0 = surround | bl | br
    let five0Side = surround | sl | sr
    return [
      ("mono", fc), ("stereo", stereo), ("2.1", stereo | lfe), ("3.0", surround),
      ("3.0(back)", stereo | bc), ("4.0", surround | bc), ("quad", stereo | bl | br),
      ("quad(side)", stereo | sl | sr), ("3.1", surround | lfe), ("5.0", five0),
      ("5.0(side)", five0Side), ("4.1", surround | lfe | bc), ("5.1", five0 | lfe),
      ("5.1(side)", five0Side | lfe), ("6.0", five0Side | bc),
      ("6.0(front)", stereo | flc | frc | sl | sr), ("hexagonal", five0 | bc),
      ("6.1", five0Side | lfe | bc), ("6.1(back)", five0 | lfe | bc),
      ("6.1(front)", stereo | flc | frc | sl | sr | lfe), ("7.0", five0Side | bl | br),
      ("7.0(front)", five0Side | flc | frc), ("7.1", five0Side | lfe | bl | br),
      ("7.1(wide)", five0 | lfe | flc | frc), ("7.1(wide-side)", five0Side | lfe | flc | frc),
      ("octagonal", five0Side | bl | bc | br),
    ]
  }()
}

/// libavutil's channels (`AVChannel`) as mask bits.
enum AVChannel {
  static let fl: UInt64 = 1 << 0
  static let fr: UInt64 = 1 << 1
  static let fc: UInt64 = 1 << 2
  static let lfe: UInt64 = 1 << 3
  static let bl: UInt64 = 1 << 4
  static let br: UInt64 = 1 << 5
  static let flc: UInt64 = 1 << 6
  static let frc: UInt64 = 1 << 7
  static let bc: UInt64 = 1 << 8
  static let sl: UInt64 = 1 << 9
  static let sr: UInt64 = 1 << 10
  static let tc: UInt64 = 1 << 11
  static let tfl: UInt64 = 1 << 12
  static let tfc: UInt64 = 1 << 13
  static let tfr: UInt64 = 1 << 14
  static let tbl: UInt64 = 1 << 15
  static let tbc: UInt64 = 1 << 16
  static let tbr: UInt64 = 1 << 17
  static let wl: UInt64 = 1 << 31
  static let wr: UInt64 = 1 << 32
  static let sdl: UInt64 = 1 << 33
  static let sdr: UInt64 = 1 << 34
  static let lfe2: UInt64 = 1 << 35

  /// libavutil's channel names (`av_channel_name`).
  static let names: [Int: String] = [
    0: "FL", 1: "FR", 2: "FC", 3: "LFE", 4: "BL", 5: "BR", 6: "FLC", 7: "FRC", 8: "BC", 9: "SL",
    10: "SR", 11: "TC", 12: "TFL", 13: "TFC", 14: "TFR", 15: "TBL", 16: "TBC", 17: "TBR",
    29: "DL", 30: "DR", 31: "WL", 32: "WR", 33: "SDL", 34: "SDR", 35: "LFE2",
  ]
}
