extension PlaylistStream {
  /// A readable name of the stream's coding (`"H.264"`, `"AC-3"`, `"PGS"`, ...), or the
  /// `stream_coding_type` in hex when it is not a Blu-ray coding.
  public var codecName: String {
    switch codingType {
    case 0x01: "MPEG-1 video"
    case 0x02: "MPEG-2 video"
    case 0x1B: "H.264"
    case 0x20: "H.264 MVC"
    case 0x24: "HEVC"
    case 0xEA: "VC-1"
    case 0x03: "MPEG-1 audio"
    case 0x04: "MPEG-2 audio"
    case 0x80: "LPCM"
    case 0x81: "AC-3"
    case 0x82: "DTS"
    case 0x83: "TrueHD"
    case 0x84: "E-AC-3"
    case 0x85: "DTS-HD HRA"
    case 0x86: "DTS-HD MA"
    case 0xA1: "E-AC-3 (secondary)"
    case 0xA2: "DTS-HD (secondary)"
    case 0x90: "PGS"
    case 0x91: "IG"
    case 0x92: "Text subtitles"
    default: "0x" + (codingType < 0x10 ? "0" : "") + String(codingType, radix: 16, uppercase: true)
    }
  }

  /// The codec as the transport-stream layer names it (``StreamCodec``).
  public var codec: StreamCodec { StreamCodec.from(streamType: codingType) }

  /// The video format (`"1080p"`, ...) or audio presentation (`"stereo"`, ...), when known.
  public var formatName: String? {
    switch kind {
    case .video:
      let formats = ["", "480i", "576i", "480p", "1080i", "720p", "1080p", "576p", "2160p"]
      return formats.indices.contains(Int(format)) && format != 0 ? formats[Int(format)] : nil
    case .audio:
      switch format {
      case 1: return "mono"
      case 3: return "stereo"
      case 6: return "multichannel"
      case 12: return "stereo+multichannel"
      default: return nil
      }
    default: return nil
    }
  }

  /// The frame rate (`"23.976"`, ...) or sample rate (`"48000"`, ...), when known.
  public var rateName: String? {
    switch kind {
    case .video:
      let rates = ["", "23.976", "24", "25", "29.97", "", "50", "59.94"]
      return rates.indices.contains(Int(rate)) && !rates[Int(rate)].isEmpty ? rates[Int(rate)] : nil
    case .audio:
      switch rate {
      case 1: return "48000"
      case 4: return "96000"
      case 5: return "192000"
      case 12: return "48000/192000"
      case 14: return "48000/96000"
      default: return nil
      }
    default: return nil
    }
  }
}
