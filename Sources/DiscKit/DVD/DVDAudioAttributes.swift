/// Attributes of one audio stream of a title set (`audio_attr_t`, 8 bytes).
@_spi(Formats)
public struct DVDAudioAttributes: Sendable, Hashable {
  /// Coding: 0 AC-3, 2 MPEG-1, 3 MPEG-2 extended, 4 LPCM, 6 DTS.
  public var codingMode: Int
  /// Multichannel extension present.
  public var multichannelExtension: Bool
  /// 1 when ``languageCode`` holds a language.
  public var languageType: Int
  /// Application mode: 0 unspecified, 1 karaoke, 2 surround.
  public var applicationMode: Int
  /// Quantization / DRC: 0 16-bit, 1 20-bit, 2 24-bit, 3 DRC.
  public var quantization: Int
  /// Sample frequency code (0 = 48 kHz, 1 = 96 kHz).
  public var sampleFrequency: Int
  /// Channels minus one.
  public var channelsMinusOne: Int
  /// Two ASCII bytes of an ISO 639 code, big-endian.
  public var languageCode: UInt16
  /// Language extension.
  public var languageExtension: UInt8
  /// Code extension: 1 normal, 2 visually impaired, 3 director's comments, 4 alternate comments.
  public var codeExtension: UInt8

  /// Reads the eight attribute bytes.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let b0 = try reader.readUInt8()
    let b1 = try reader.readUInt8()
    codingMode = Int(b0 >> 5)
    multichannelExtension = b0 & 0x10 != 0
    languageType = Int((b0 >> 2) & 3)
    applicationMode = Int(b0 & 3)
    quantization = Int(b1 >> 6)
    sampleFrequency = Int((b1 >> 4) & 3)
    channelsMinusOne = Int(b1 & 7)
    languageCode = try reader.readUInt16BE()
    languageExtension = try reader.readUInt8()
    codeExtension = try reader.readUInt8()
    try reader.skip(2)
  }

  /// The codec name: `ac3`, `mpeg1`, `mpeg2ext`, `lpcm`, `dts`, `sdds` or `unknown`.
  public var codec: String {
    switch codingMode {
    case 0: "ac3"
    case 2: "mpeg1"
    case 3: "mpeg2ext"
    case 4: "lpcm"
    case 5: "sdds"
    case 6: "dts"
    default: "unknown"
    }
  }

  /// The sample rate in hertz (code 0: 48 kHz, 1: 96 kHz), `nil` for reserved codes.
  public var sampleRate: Int? {
    switch sampleFrequency {
    case 0: 48_000
    case 1: 96_000
    default: nil
    }
  }

  /// LPCM bits per sample (quantization 0: 16, 1: 20, 2: 24); `nil` for other codings, where
  /// the field signals dynamic-range control, and for the reserved code.
  public var bitDepth: Int? {
    guard codingMode == 4, quantization < 3 else { return nil }
    return [16, 20, 24][quantization]
  }

  /// The number of channels.
  public var channels: Int { channelsMinusOne + 1 }

  /// The ISO 639-1 language (`"en"`), or `nil` when the code is not two letters.
  public var language: String? { DVDLanguage.code(languageCode) }

  /// The first stream id of this coding in the program stream (`0x80` AC-3, `0xC0` MPEG, `0xA0` LPCM,
  /// `0x88` DTS), as lsdvd computes it.
  public var baseStreamID: Int {
    switch codingMode {
    case 0: 0x80
    case 2, 3: 0xC0
    case 4: 0xA0
    case 6: 0x88
    default: 0
    }
  }
}
