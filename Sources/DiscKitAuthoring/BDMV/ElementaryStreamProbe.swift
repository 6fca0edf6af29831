@_spi(Formats) import DiscKit

/// Reads the few properties of an elementary stream a clip information file records (video size
/// and scan type, audio channel layout and sample rate) from the first bytes of its first PES
/// payload, and maps them to the Blu-ray attribute codes.
enum ElementaryStreamProbe {
  /// Video picture size and scan type.
  struct Picture: Equatable {
    var width: Int
    var height: Int
    var interlaced: Bool
  }

  /// Audio channel layout and sample rate.
  struct Sound: Equatable {
    var channels: Int
    var sampleRate: Int
  }

  // MARK: Blu-ray codes

  /// The Blu-ray coding type for a codec, or nil when Blu-ray cannot carry it.
  static func codingType(_ codec: StreamCodec) -> UInt8? {
    switch codec {
    case .mpeg2Video: 0x02
    case .h264: 0x1B
    case .h264MVC: 0x20
    case .hevc: 0x24
    case .vc1: 0xEA
    case .mpegAudio: 0x03
    case .lpcm: 0x80
    case .ac3: 0x81
    case .dts: 0x82
    case .truehd: 0x83
    case .eac3: 0x84
    case .dtsHDHighResolution: 0x85
    case .dtsHDMasterAudio: 0x86
    case .eac3Secondary: 0xA1
    case .dtsExpressSecondary: 0xA2
    case .pgs: 0x90
    case .interactiveGraphics: 0x91
    case .textSubtitle: 0x92
    default: nil
    }
  }

  /// The `video_format` code: 1 480i, 2 576i, 3 480p, 4 1080i, 5 720p, 6 1080p, 7 576p, 8 2160p
  /// (the nearest by height for sizes Blu-ray does not define).
  static func videoFormat(_ picture: Picture?) -> UInt8 {
    guard let p = picture else { return 6 }
    switch p.height {
    case ...480: return p.interlaced ? 1 : 3
    case ...576: return p.interlaced ? 2 : 7
    case ...720: return 5
    case ...1088: return p.interlaced ? 4 : 6
    default: return 8
    }
  }

  /// The `frame_rate` code nearest to `fps`: 1 23.976, 2 24, 3 25, 4 29.97, 6 50, 7 59.94.
  static func frameRate(_ fps: Double) -> UInt8 {
    let codes: [(UInt8, Double)] = [
      (1, 24000 / 1001), (2, 24), (3, 25), (4, 30000 / 1001), (6, 50), (7, 60000 / 1001),
    ]
    var best: (UInt8, Double) = (1, .infinity)
    for (code, rate) in codes where abs(rate - fps) < best.1 { best = (code, abs(rate - fps)) }
    return best.0
  }

  /// The `audio_presentation_type` code: 1 mono, 3 stereo, 6 multichannel.
  static func audioFormat(_ sound: Sound?) -> UInt8 {
    guard let s = sound else { return 3 }
    return s.channels <= 1 ? 1 : s.channels == 2 ? 3 : 6
  }

  /// The `sampling_frequency` code: 1 48 kHz, 4 96 kHz, 5 192 kHz.
  static func sampleRate(_ sound: Sound?) -> UInt8 {
    switch sound?.sampleRate ?? 48000 {
    case 96000: 4
    case 192000: 5
    default: 1
    }
  }

  // MARK: Parsing

  /// The elementary-stream bytes of a captured PES start (after the PES header), or nil.
  static func pesPayload(_ pes: [UInt8]) -> ArraySlice<UInt8>? {
    guard pes.count >= 9, pes[0] == 0, pes[1] == 0, pes[2] == 1 else { return nil }
    let start = 9 + Int(pes[8])
    guard start <= pes.count else { return nil }
    return pes[start...]
  }

  /// Whether a captured PES start is the AC-3 core of a Blu-ray TrueHD PID: `stream_id` 0xFD
  /// with a PES extension 2 whose `stream_id_extension` is 0x76 (TrueHD access units: 0x72).
  static func isAC3CorePES(_ pes: [UInt8]) -> Bool {
    guard pes.count >= 9, pes[0] == 0, pes[1] == 0, pes[2] == 1, pes[3] == 0xFD,
      pes[7] & 0x01 != 0
    else { return false }
    let flags = pes[7]
    var at = 9 + [0, 0, 5, 10][Int(flags >> 6)]
    at += (flags & 0x20 != 0 ? 6 : 0) + (flags & 0x10 != 0 ? 3 : 0) + (flags & 0x08 != 0 ? 1 : 0)
    at += (flags & 0x04 != 0 ? 1 : 0) + (flags & 0x02 != 0 ? 2 : 0)
    // PES_extension flags: private data (16 bytes), pack header field, sequence counter (2),
    // P-STD buffer (2), then PES_extension_flag_2 (bit 0).
    guard at < pes.count, at < 9 + Int(pes[8]) else { return false }
    let ext = pes[at]
    at += 1 + (ext & 0x80 != 0 ? 16 : 0)
    if ext & 0x40 != 0 {
      guard at < pes.count else { return false }
      at += 1 + Int(pes[at])
    }
    at += (ext & 0x20 != 0 ? 2 : 0) + (ext & 0x10 != 0 ? 2 : 0)
    guard ext & 0x01 != 0, at + 1 < pes.count, pes[at] & 0x7F > 0, pes[at + 1] & 0x80 == 0 else {
      return false
    }
    return pes[at + 1] == 0x76
  }

  /// The picture size of H.264 (sequence parameter set) or MPEG-2 (sequence header) video.
  static func picture(codec: StreamCodec, payload: ArraySlice<UInt8>) -> Picture? {
    switch codec {
    case .h264, .h264MVC:
      for start in startCodes(payload) where start < payload.endIndex {
        if payload[start] & 0x1F == 7 {
          return h264SPS(Array(payload[(start + 1)...]))
        }
      }
      return nil
    case .hevc:
      guard let sps = hevcColour(codec: codec, payload: payload)?.sequenceParameterSet else {
        return nil
      }
      return Picture(width: sps.width, height: sps.height, interlaced: false)
    case .mpeg2Video:
      var picture: Picture?
      for start in startCodes(payload) where start + 3 < payload.endIndex {
        if payload[start] == 0xB3, start + 3 < payload.endIndex {
          let w = Int(payload[start + 1]) << 4 | Int(payload[start + 2]) >> 4
          let h = Int(payload[start + 2] & 0x0F) << 8 | Int(payload[start + 3])
          picture = Picture(width: w, height: h, interlaced: false)
        } else if payload[start] == 0xB5, payload[start + 1] >> 4 == 1, picture != nil {
          picture?.interlaced = payload[start + 2] & 0x08 == 0
          return picture
        }
      }
      return picture
    default:
      return nil
    }
  }

  /// The channel count and sample rate of AC-3 (sync frame) or HDMV LPCM (its 4-byte header).
  static func sound(codec: StreamCodec, payload: ArraySlice<UInt8>) -> Sound? {
    let p = Array(payload.prefix(8))
    switch codec {
    case .ac3:
      guard p.count >= 7, p[0] == 0x0B, p[1] == 0x77 else { return nil }
      let rates = [48000, 44100, 32000, 0]
      let acmod = Int(p[6] >> 5)
      let channels = [2, 1, 2, 3, 3, 4, 4, 5][acmod]
      return Sound(channels: channels, sampleRate: rates[Int(p[4] >> 6)])
    case .lpcm:
      guard p.count >= 4 else { return nil }
      let assignment = Int(p[2] >> 4)
      let channels = [0, 1, 0, 2, 3, 3, 4, 4, 5, 6, 7, 8, 0, 0, 0, 0][assignment]
      let rate = [0, 48000, 0, 0, 96000, 192000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0][Int(p[2] & 0x0F)]
      return Sound(channels: channels, sampleRate: rate)
    default:
      return extendedSound(codec: codec, payload: payload)
    }
  }

  /// The colour description of HEVC video (its first access unit's SPS and HDR SEI messages);
  /// `nil` for other codecs or when the bytes do not parse.
  static func hevcColour(codec: StreamCodec, payload: ArraySlice<UInt8>?) -> HEVCColourMetadata? {
    guard codec == .hevc, let payload else { return nil }
    return try? HEVCColourMetadata(parsingAnnexB: payload)
  }

  /// Positions just after each `00 00 01` start code.
  static func startCodes(_ bytes: ArraySlice<UInt8>) -> [Int] {
    var result: [Int] = []
    var i = bytes.startIndex
    while i + 2 < bytes.endIndex {
      if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
        result.append(i + 3)
        i += 3
      } else {
        i += 1
      }
    }
    return result
  }

  /// Parses an H.264 sequence parameter set (the bytes after the NAL header) for the cropped
  /// picture size and `frame_mbs_only_flag`.
  static func h264SPS(_ nal: [UInt8]) -> Picture? {
    // Remove emulation prevention bytes.
    var rbsp: [UInt8] = []
    rbsp.reserveCapacity(min(nal.count, 256))
    var zeros = 0
    for b in nal.prefix(512) {
      if zeros >= 2 && b == 3 {
        zeros = 0
        continue
      }
      zeros = b == 0 ? zeros + 1 : 0
      rbsp.append(b)
    }
    var r = BitReader(rbsp)
    guard let profile = r.bits(8), r.bits(16) != nil, r.ue() != nil else { return nil }
    var chroma: UInt32 = 1
    if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
      guard let c = r.ue() else { return nil }
      chroma = c
      if chroma == 3 { guard r.bits(1) != nil else { return nil } }
      guard r.ue() != nil, r.ue() != nil, r.bits(1) != nil, let scaling = r.bits(1) else {
        return nil
      }
      if scaling == 1 {
        for list in 0..<(chroma == 3 ? 12 : 8) {
          guard let present = r.bits(1) else { return nil }
          if present == 1 {
            let size = list < 6 ? 16 : 64
            var last: Int64 = 8
            var next: Int64 = 8
            for _ in 0..<size where next != 0 {
              guard let delta = r.se() else { return nil }
              next = (last + delta + 256) % 256
              last = next == 0 ? last : next
            }
          }
        }
      }
    }
    guard r.ue() != nil, let pocType = r.ue() else { return nil }
    if pocType == 0 {
      guard r.ue() != nil else { return nil }
    } else if pocType == 1 {
      guard r.bits(1) != nil, r.se() != nil, r.se() != nil, let n = r.ue(), n < 256 else {
        return nil
      }
      for _ in 0..<n { guard r.se() != nil else { return nil } }
    }
    guard r.ue() != nil, r.bits(1) != nil, let wMbs = r.ue(), let hMaps = r.ue(),
      let frameMbsOnly = r.bits(1)
    else { return nil }
    if frameMbsOnly == 0 { guard r.bits(1) != nil else { return nil } }
    guard r.bits(1) != nil, let cropping = r.bits(1) else { return nil }
    var crop: [UInt32] = [0, 0, 0, 0]
    if cropping == 1 {
      for k in 0..<4 {
        guard let v = r.ue() else { return nil }
        crop[k] = v
      }
    }
    guard wMbs < 1024, hMaps < 1024, crop.allSatisfy({ $0 < 4096 }) else { return nil }
    let cropX = chroma == 0 || chroma == 3 ? 1 : 2
    let cropY = (chroma == 1 ? 2 : 1) * (2 - Int(frameMbsOnly))
    let width = Int(wMbs + 1) * 16 - cropX * Int(crop[0] + crop[1])
    let height = Int(hMaps + 1) * 16 * (2 - Int(frameMbsOnly)) - cropY * Int(crop[2] + crop[3])
    guard width > 0, height > 0 else { return nil }
    return Picture(width: width, height: height, interlaced: frameMbsOnly == 0)
  }

  /// A most-significant-bit-first reader with Exp-Golomb codes; nil past the end.
  struct BitReader {
    let bytes: [UInt8]
    var bit = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func bits(_ n: Int) -> UInt32? {
      guard n <= 32, bit + n <= bytes.count * 8 else { return nil }
      var v: UInt32 = 0
      for _ in 0..<n {
        v = v << 1 | UInt32(bytes[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
        bit += 1
      }
      return v
    }

    mutating func ue() -> UInt32? {
      var zeros = 0
      while true {
        guard let b = bits(1) else { return nil }
        if b == 1 { break }
        zeros += 1
        if zeros > 31 { return nil }
      }
      guard let rest = bits(zeros) else { return nil }
      return UInt32((UInt64(1) << zeros) - 1 + UInt64(rest))
    }

    mutating func se() -> Int64? {
      guard let k = ue() else { return nil }
      return k & 1 == 1 ? Int64(k + 1) / 2 : -Int64(k / 2)
    }
  }
}
