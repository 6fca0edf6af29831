/// An audio or subpicture stream a title enables (from its first PGC's stream controls and the
/// title set's attributes).
@_spi(Formats)
public struct DVDStream: Sendable, Hashable {
  /// Which kind of stream.
  public enum Kind: String, Sendable, Hashable { case audio, subpicture }
  /// The kind.
  public var kind: Kind
  /// 0-based attribute slot in the title set.
  public var slot: Int
  /// MPEG program stream id as lsdvd computes it (0x80.. AC-3, 0x20.. subpictures).
  public var streamID: Int
  /// Codec (`ac3`, `mpeg1`, `mpeg2ext`, `lpcm`, `dts`; `vobsub` for subpictures).
  public var codec: String
  /// Channels (audio only).
  public var channels: Int?
  /// ISO 639-1 language, or `nil` when unspecified.
  public var language: String?
  /// The raw 16-bit language field (lsdvd prints `xx` for non-letters).
  public var rawLanguage: UInt16
  /// Code extension (audio: 1 normal, 3 director's comments; subpictures: 1 normal, 5 captions ...).
  public var codeExtension: Int
  /// Audio sample rate in hertz from the attributes' sample frequency code (48 or 96 kHz).
  public var sampleRate: Int? = nil
  /// LPCM audio bits per sample from the quantization code (16, 20 or 24); `nil` for coded audio,
  /// where the field is dynamic-range control.
  public var bitDepth: Int? = nil

  /// Creates a stream; ``language`` is decoded from `rawLanguage`.
  public init(
    kind: Kind, slot: Int, streamID: Int, codec: String, channels: Int?, rawLanguage: UInt16,
    codeExtension: Int
  ) {
    self.kind = kind
    self.slot = slot
    self.streamID = streamID
    self.codec = codec
    self.channels = channels
    self.rawLanguage = rawLanguage
    self.language = DVDLanguage.code(rawLanguage)
    self.codeExtension = codeExtension
  }
}
