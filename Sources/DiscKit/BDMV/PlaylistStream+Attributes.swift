extension PlaylistStream {
  /// The audio channel count the stream number table implies, when it implies one: the
  /// `audio_presentation_type` says mono (1), dual mono (2) or stereo (3); multi-channel (6) and
  /// stereo+multi-channel (12) give no count, so `nil`.
  public var channelCount: Int? {
    guard kind == .audio else { return nil }
    switch format {
    case 1: return 1
    case 2, 3: return 2
    default: return nil
    }
  }

  /// The audio sample rate in hertz from the `sampling_frequency` code (1 = 48 kHz, 4 = 96 kHz,
  /// 5 = 192 kHz; 12 and 14 are a 192 or 96 kHz stream with a 48 kHz core, given as the higher
  /// rate), `nil` for other codes and non-audio streams.
  public var sampleRate: Int? {
    guard kind == .audio else { return nil }
    switch rate {
    case 1: return 48_000
    case 4, 14: return 96_000
    case 5, 12: return 192_000
    default: return nil
    }
  }

  /// The HEVC video's dynamic range as the UHD stream attributes give it: `"SDR"` (0),
  /// `"HDR10"` (1, or `"HDR10+"` when the `HDR_plus_flag` is set), `"Dolby Vision"` (2);
  /// `nil` for other video codings (their attributes have no such field) and other codes.
  public var dynamicRangeName: String? {
    guard codingType == 0x24 else { return nil }
    switch dynamicRangeType {
    case 0: return "SDR"
    case 1: return hdrPlusFlag ? "HDR10+" : "HDR10"
    case 2: return "Dolby Vision"
    default: return nil
    }
  }

  /// The HEVC video's colour space (`"BT.709"` for 1, `"BT.2020"` for 2), `nil` otherwise.
  public var colorSpaceName: String? {
    guard codingType == 0x24 else { return nil }
    switch colorSpace {
    case 1: return "BT.709"
    case 2: return "BT.2020"
    default: return nil
    }
  }
}
