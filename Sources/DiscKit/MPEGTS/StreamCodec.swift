/// The coding of an elementary stream, from its PMT `stream_type` and descriptors, following
/// libavformat's mapping (ISO types, HDMV/Blu-ray types, and registration/DVB descriptors for
/// `stream_type` 0x06).
public enum StreamCodec: String, Sendable, Hashable, Codable, CaseIterable {
  case mpeg1Video = "mpeg1video"
  case mpeg2Video = "mpeg2video"
  case mpeg4Video = "mpeg4"
  case h264
  /// H.264 MVC dependent view (Blu-ray 3D, stream type 0x20).
  case h264MVC = "h264mvc"
  case hevc
  case vc1
  case mpegAudio = "mpegaudio"
  case aac
  case aacLATM = "aaclatm"
  /// Blu-ray LPCM (HDMV stream type 0x80).
  case lpcm
  case ac3
  case eac3
  case dts
  /// DTS-HD High Resolution (0x85).
  case dtsHDHighResolution = "dtshdhr"
  /// DTS-HD Master Audio (0x86).
  case dtsHDMasterAudio = "dtshdma"
  /// Secondary (picture-in-picture commentary) E-AC-3, 0xA1.
  case eac3Secondary = "eac3secondary"
  /// Secondary DTS-HD (DTS Express), 0xA2.
  case dtsExpressSecondary = "dtsexpress"
  case truehd
  /// Presentation graphics (Blu-ray subtitles, 0x90).
  case pgs
  /// Interactive graphics (Blu-ray menus, 0x91).
  case interactiveGraphics = "ig"
  /// Blu-ray text subtitles (0x92).
  case textSubtitle = "textsubtitle"
  case dvbSubtitle = "dvbsub"
  case teletext
  /// DVD-Video LPCM (private stream 1 substreams 0xA0-0xA7, big-endian with a DVD header).
  case dvdLPCM = "pcmdvd"
  /// DVD-Video subpictures (private stream 1 substreams 0x20-0x3F, "VobSub").
  case dvdSubtitle = "dvdsub"
  case unknown

  /// The broad kind of stream.
  public enum Kind: String, Sendable, Hashable, Codable {
    case video, audio, subtitle, other
  }

  /// The stream's kind.
  public var kind: Kind {
    switch self {
    case .mpeg1Video, .mpeg2Video, .mpeg4Video, .h264, .h264MVC, .hevc, .vc1: .video
    case .mpegAudio, .aac, .aacLATM, .lpcm, .ac3, .eac3, .dts, .dtsHDHighResolution,
      .dtsHDMasterAudio,
      .eac3Secondary, .dtsExpressSecondary, .truehd, .dvdLPCM:
      .audio
    case .pgs, .textSubtitle, .dvbSubtitle, .teletext, .dvdSubtitle: .subtitle
    case .interactiveGraphics, .unknown: .other
    }
  }

  /// Guesses an audio codec from the first four bytes of a PES payload (for `stream_type` 0x06
  /// without a telling descriptor, which libavformat resolves by probing the payload): AC-3 sync
  /// `0B 77`, DTS `7F FE 80 01`, ADTS AAC `FFF` with layer 0, LATM `56 E`, MPEG audio `FFE`.
  public static func sniff(payloadPrefix p: UInt32, count: Int) -> StreamCodec? {
    guard count >= 2 else { return nil }
    if p >> 16 == 0x0B77 { return .ac3 }
    if count >= 4, p == 0x7FFE_8001 { return .dts }
    if p >> 20 == 0xFFF, p >> 17 & 0x3 == 0 { return .aac }
    if p >> 21 == 0x2B7 { return .aacLATM }
    if p >> 21 == 0x7FF, p >> 17 & 0x3 != 0 { return .mpegAudio }
    return nil
  }

  /// The codec for a `stream_type`, refined by the elementary stream's descriptors.
  ///
  /// - Parameters:
  ///   - streamType: the PMT `stream_type`.
  ///   - registration: the format identifier of a registration descriptor (tag 0x05) on the
  ///     stream, e.g. `"AC-3"`, `"HEVC"`.
  ///   - descriptorTags: the tags of the stream's descriptors (0x6A AC-3, 0x7A E-AC-3, 0x7B DTS,
  ///     0x7C AAC, 0x59 DVB subtitles, 0x56 teletext).
  public static func from(
    streamType: UInt8, registration: String? = nil, descriptorTags: [UInt8] = []
  ) -> StreamCodec {
    switch streamType {
    case 0x01: return .mpeg2Video  // libavformat decodes MPEG-1 video with its MPEG-2 decoder
    case 0x02: return .mpeg2Video
    case 0x03, 0x04: return .mpegAudio
    case 0x0F: return .aac
    case 0x10: return .mpeg4Video
    case 0x11: return .aacLATM
    case 0x1B: return .h264
    case 0x20: return .h264MVC
    case 0x24: return .hevc
    case 0xEA: return .vc1
    case 0x80: return .lpcm
    case 0x81: return .ac3
    case 0x82: return .dts
    case 0x83: return .truehd
    case 0x84, 0x87: return .eac3
    case 0x85: return .dtsHDHighResolution
    case 0x86: return .dtsHDMasterAudio
    case 0xA1: return .eac3Secondary
    case 0xA2: return .dtsExpressSecondary
    case 0x90: return .pgs
    case 0x91: return .interactiveGraphics
    case 0x92: return .textSubtitle
    case 0x06:
      switch registration {
      case "AC-3": return .ac3
      case "EAC3": return .eac3
      case "DTS1", "DTS2", "DTS3": return .dts
      case "HEVC": return .hevc
      case "VC-1": return .vc1
      default: break
      }
      if descriptorTags.contains(0x6A) { return .ac3 }
      if descriptorTags.contains(0x7A) { return .eac3 }
      if descriptorTags.contains(0x7B) { return .dts }
      if descriptorTags.contains(0x7C) { return .aac }
      if descriptorTags.contains(0x59) { return .dvbSubtitle }
      if descriptorTags.contains(0x56) { return .teletext }
      return .unknown
    default:
      switch registration {
      case "AC-3": return .ac3
      case "EAC3": return .eac3
      case "HEVC": return .hevc
      case "VC-1": return .vc1
      default: return .unknown
      }
    }
  }
}
