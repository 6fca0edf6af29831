import DiscKit

/// One track of a fragmented MP4 (CMAF) rendition: its sample entry (`avc1` + `avcC`,
/// `hvc1` + `hvcC` + `colr`/`mdcv`/`clli`, `ac-3` + `dac3`, `ec-3` + `dec3`), built from the
/// stream's own bytes, and the RFC 6381 `CODECS` value that describes exactly that entry.
package struct FMP4Track: Sendable, Hashable {
  /// The codings the writer carries.
  package enum Coding: String, Sendable, Hashable {
    case avc, hevc, ac3, eac3, flac, aac
    package var isVideo: Bool { self == .avc || self == .hevc }
  }
  package var coding: Coding
  /// The media timescale: 90 kHz, the transport stream's clock, for every track (so that the
  /// disc's PTS and DTS are the samples' times, exactly).
  package var timescale: UInt32 { 90_000 }
  /// The sample entry box (the child of `stsd`).
  package var sampleEntry: [UInt8]
  /// The RFC 6381 value (`avc1.640028`, `hvc1.2.4.L153.B0`, `ac-3`, `ec-3`).
  package var codecs: String
  /// Video: picture size after cropping.
  package var width = 0
  package var height = 0
  /// Video: `PQ`, `HLG` or `SDR` from the VUI's transfer characteristics.
  package var videoRange = "SDR"
  /// Audio: channels (full-bandwidth and LFE) and sample rate.
  package var channels = 0
  package var sampleRate = 0
  /// ISO 639-2/T language (`und` when unknown).
  package var language = "und"
  /// E-AC-3 with Atmos (JOC): the complexity index (`dec3`, `CHANNELS="N/JOC"`).
  package var jocComplexity: Int?
  /// HLS `CHANNELS`: the channel count, or `N/JOC` for Atmos.
  package var channelsText: String { jocComplexity.map { "\($0)/JOC" } ?? "\(channels)" }

  // MARK: Video

  /// The video track whose parameter sets are those of `nals` (the NAL units of the first
  /// access unit, headers first, emulation prevention in), or nil when they lack an SPS or PPS
  /// (HEVC: VPS, SPS and PPS) or the SPS cannot be read.
  package static func video(coding: Coding, nals: [ArraySlice<UInt8>]) -> FMP4Track? {
    coding == .hevc ? hevc(nals) : avc(nals)
  }

  private static func avc(_ nals: [ArraySlice<UInt8>]) -> FMP4Track? {
    let sps = nals.filter { $0.count > 3 && $0[$0.startIndex] & 0x1F == 7 }
    let pps = nals.filter { $0.count > 1 && $0[$0.startIndex] & 0x1F == 8 }
    guard let first = sps.first, !pps.isEmpty,
      let codecs = try? VideoCodecString.avc1(sequenceParameterSet: first),
      let size = try? VideoCodecString.avcPictureSize(sequenceParameterSet: first)
    else { return nil }
    let profile = first[first.startIndex + 1]
    var config = MP4BoxWriter()
    config.box("avcC") { w in
      w.u8(1)
      w.u8(profile)
      w.u8(first[first.startIndex + 2])
      w.u8(first[first.startIndex + 3])
      w.u8(0xFF)  // lengthSizeMinusOne = 3
      w.u8(0xE0 | UInt8(min(sps.count, 31)))
      for nal in sps.prefix(31) {
        w.u16(UInt16(nal.count))
        w.append(nal)
      }
      w.u8(UInt8(min(pps.count, 255)))
      for nal in pps.prefix(255) {
        w.u16(UInt16(nal.count))
        w.append(nal)
      }
      if [100, 110, 122, 144].contains(profile) {
        // 4:2:0, 8 bits: the only H.264 format a Blu-ray carries (BD-ROM part 3 §5.4.3).
        w.u8(0xFC | 1)
        w.u8(0xF8)
        w.u8(0xF8)
        w.u8(0)
      }
    }
    let entry = visualSampleEntry(
      "avc1", width: size.width, height: size.height, children: [config.bytes])
    var track = FMP4Track(coding: .avc, sampleEntry: entry, codecs: codecs)
    track.width = size.width
    track.height = size.height
    return track
  }

  private static func hevc(_ nals: [ArraySlice<UInt8>]) -> FMP4Track? {
    func type(_ nal: ArraySlice<UInt8>) -> UInt8 { (nal[nal.startIndex] >> 1) & 0x3F }
    func layer(_ nal: ArraySlice<UInt8>) -> Int {
      Int(nal[nal.startIndex] & 1) << 5 | Int(nal[nal.startIndex + 1] >> 3)
    }
    let base = nals.filter { $0.count > 2 && layer($0) == 0 }
    let vps = base.filter { type($0) == 32 }
    let sps = base.filter { type($0) == 33 }
    let pps = base.filter { type($0) == 34 }
    guard let first = sps.first, !vps.isEmpty, !pps.isEmpty, first.count > 15,
      let profile = try? VideoCodecString.HEVCGeneralProfile(sequenceParameterSet: first),
      let facts = try? HEVCSampleEntryFacts(sequenceParameterSet: first)
    else { return nil }
    // The HDR10 static metadata: the prefix SEI messages of the first access unit.
    var mdcv: [UInt8]?
    var clli: [UInt8]?
    var hdrSEI: [ArraySlice<UInt8>] = []
    for nal in base where type(nal) == 39 {
      let payloads = HEVCSampleEntryFacts.hdr10Payloads(prefixSEI: nal)
      if payloads.masteringDisplay != nil || payloads.contentLightLevel != nil {
        hdrSEI.append(nal)
        mdcv = mdcv ?? payloads.masteringDisplay
        clli = clli ?? payloads.contentLightLevel
      }
    }
    let subLayers = Int((first[first.startIndex + 2] >> 1) & 7) + 1
    let nested = first[first.startIndex + 2] & 1
    var config = MP4BoxWriter()
    config.box("hvcC") { w in
      w.u8(1)
      w.u8(
        UInt8(profile.profileSpace << 6) | (profile.highTier ? 0x20 : 0)
          | UInt8(profile.profile & 0x1F))
      w.u32(profile.compatibilityFlags)
      w.append(profile.constraintBytes)
      w.u8(UInt8(truncatingIfNeeded: profile.level))
      w.u16(0xF000)  // min_spatial_segmentation_idc 0
      w.u8(0xFC)  // parallelismType 0
      w.u8(0xFC | UInt8(facts.chromaFormat & 3))
      w.u8(0xF8 | UInt8((facts.lumaBitDepth - 8) & 7))
      w.u8(0xF8 | UInt8((facts.chromaBitDepth - 8) & 7))
      w.u16(0)  // avgFrameRate unspecified
      w.u8(UInt8(subLayers << 3) | (nested << 2) | 3)
      let arrays: [(UInt8, [ArraySlice<UInt8>])] = [(32, vps), (33, sps), (34, pps), (39, hdrSEI)]
        .filter { !$0.1.isEmpty }
      w.u8(UInt8(arrays.count))
      for (kind, units) in arrays {
        // array_completeness 1 for the parameter sets (hvc1: all of them are here); SEI 0.
        w.u8((kind == 39 ? 0 : 0x80) | kind)
        w.u16(UInt16(units.count))
        for nal in units {
          w.u16(UInt16(nal.count))
          w.append(nal)
        }
      }
    }
    var children = [config.bytes]
    var range = "SDR"
    if let colour = facts.colour {
      var colr = MP4BoxWriter()
      colr.box("colr") { w in
        w.fourCC("nclx")
        w.u16(UInt16(colour.primaries))
        w.u16(UInt16(colour.transfer))
        w.u16(UInt16(colour.matrix))
        w.u8(colour.fullRange ? 0x80 : 0)
      }
      children.append(colr.bytes)
      range = colour.transfer == 16 ? "PQ" : colour.transfer == 18 ? "HLG" : "SDR"
    }
    if let mdcv {
      var box = MP4BoxWriter()
      box.box("mdcv") { $0.append(mdcv) }
      children.append(box.bytes)
    }
    if let clli {
      var box = MP4BoxWriter()
      box.box("clli") { $0.append(clli) }
      children.append(box.bytes)
    }
    let entry = visualSampleEntry(
      "hvc1", width: facts.width, height: facts.height, children: children)
    var track = FMP4Track(coding: .hevc, sampleEntry: entry, codecs: profile.codecString)
    track.width = facts.width
    track.height = facts.height
    track.videoRange = range
    return track
  }

  private static func visualSampleEntry(
    _ type: String, width: Int, height: Int, children: [[UInt8]]
  ) -> [UInt8] {
    var w = MP4BoxWriter()
    w.box(type) { w in
      w.zeros(6)
      w.u16(1)  // data_reference_index
      w.zeros(16)
      w.u16(UInt16(clamping: width))
      w.u16(UInt16(clamping: height))
      w.u32(0x0048_0000)
      w.u32(0x0048_0000)
      w.u32(0)
      w.u16(1)  // frame_count
      w.zeros(32)  // compressorname
      w.u16(0x0018)
      w.u16(0xFFFF)
      for child in children { w.append(child) }
    }
    return w.bytes
  }

  // MARK: Audio

  /// The audio track of `frames` (the syncframes of the stream's first access unit: for E-AC-3
  /// the independent substream and its dependent substreams), or nil for no frame.
  package static func dolby(_ frames: [DolbyAudioFrame], language: String?) -> FMP4Track? {
    guard let first = frames.first else { return nil }
    var config = MP4BoxWriter()
    let enhanced = frames.contains { $0.isEnhanced || $0.streamType == 1 }
    var channels = first.channels
    if enhanced {
      // dec3 (ETSI TS 102 366 F.6): one independent substream (0) with its dependent ones.
      let dependents = frames.dropFirst().filter { $0.streamType == 1 }
      var location = 0
      for dependent in dependents {
        // chanmap bits (F.6.2.3): Lc/Rc, Lrs/Rrs, Cs, Ts, Lsd/Rsd, Lw/Rw, Lvh/Rvh, Cvh, LFE2.
        if let map = dependent.channelMap { location |= (map >> 5) & 0x1FF }
        channels += dependent.channels - (dependent.lfe ? 1 : 0)
      }
      let bytesPerFrame = frames.reduce(0) { $0 + $1.size }
      let dataRate = bytesPerFrame * 8 * first.sampleRate / max(first.samples, 1) / 1000
      config.box("dec3") { w in
        w.u16(UInt16(min(dataRate, 8191) << 3))  // data_rate, num_ind_sub - 1 = 0
        var bits = BitPacker()
        bits.put(first.fscod, 2)
        bits.put(first.bsid, 5)
        bits.put(0, 1)  // reserved
        bits.put(0, 1)  // asvc
        bits.put(first.bsmod, 3)
        bits.put(first.acmod, 3)
        bits.put(first.lfe ? 1 : 0, 1)
        bits.put(0, 3)
        bits.put(dependents.count, 4)
        if dependents.isEmpty { bits.put(0, 1) } else { bits.put(location, 9) }
        // Atmos (ETSI TS 102 366 F.6, TS 103 420): reserved, flag_ec3_extension_type_a,
        // complexity_index_type_a.
        if let index = first.complexityIndex {
          bits.put(0, 7)
          bits.put(1, 1)
          bits.put(index, 8)
        }
        w.append(bits.bytes)
      }
    } else {
      config.box("dac3") { w in
        var bits = BitPacker()
        bits.put(first.fscod, 2)
        bits.put(first.bsid, 5)
        bits.put(first.bsmod, 3)
        bits.put(first.acmod, 3)
        bits.put(first.lfe ? 1 : 0, 1)
        bits.put(first.frameSizeCode >> 1, 5)
        bits.put(0, 5)
        w.append(bits.bytes)
      }
    }
    var entry = MP4BoxWriter()
    entry.box(enhanced ? "ec-3" : "ac-3") { w in
      w.zeros(6)
      w.u16(1)
      w.zeros(8)
      w.u16(UInt16(channels))
      w.u16(16)
      w.u32(0)
      w.u32(UInt32(first.sampleRate) << 16)
      w.append(config.bytes)
    }
    var track = FMP4Track(
      coding: enhanced ? .eac3 : .ac3, sampleEntry: entry.bytes, codecs: enhanced ? "ec-3" : "ac-3")
    track.channels = channels
    track.sampleRate = first.sampleRate
    if enhanced { track.jocComplexity = first.complexityIndex }
    if let language, language.count == 3, language.allSatisfy({ $0 >= "a" && $0 <= "z" }) {
      track.language = language
    }
    return track
  }
}

/// Packs fields of a few bits, most significant first, into whole bytes.
struct BitPacker {
  var bytes: [UInt8] = []
  var used = 0
  mutating func put(_ value: Int, _ count: Int) {
    for k in stride(from: count - 1, through: 0, by: -1) {
      if used % 8 == 0 { bytes.append(0) }
      if (value >> k) & 1 != 0 { bytes[bytes.count - 1] |= 0x80 >> UInt8(used % 8) }
      used += 1
    }
  }
}
