/// One track of a Matroska file written by ``MatroskaWriter``: which elementary stream of the
/// title it carries and how it is labelled.
public struct MatroskaTrack: Sendable, Hashable, Codable {
  /// The kind of track.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// A video track.
    case video
    /// An audio track.
    case audio
    /// A subtitle track (Blu-ray PG, DVD subpicture).
    case subtitle
  }

  /// The kind of track.
  public var kind: Kind
  /// The stream's identifier in the multiplex: the PID in a Blu-ray transport stream; the stream
  /// id in a DVD program stream (`0x1E0` video, `0x80`... AC-3, `0x20`... subpictures), as
  /// libavformat numbers them.
  public var streamID: Int
  /// The ISO 639-2 language code (`und` when unknown).
  public var language: String
  /// Whether the track carries the Matroska default flag (the first video and first audio track).
  public var isDefault: Bool
  /// The codec named by the disc's navigation data (STN coding type, IFO audio format), for
  /// messages.
  public var declaredCodec: String
  /// The track's Matroska `CodecPrivate` when the navigation data, not the stream, holds it
  /// (DVD subpictures: the VobSub `.idx` header with the PGC's palette); `nil`: what
  /// libavformat reads from the stream.
  public var codecPrivate: [UInt8]?

  /// A track description.
  public init(
    kind: Kind, streamID: Int, language: String, isDefault: Bool, declaredCodec: String,
    codecPrivate: [UInt8]? = nil
  ) {
    self.kind = kind
    self.streamID = streamID
    self.language = language
    self.isDefault = isDefault
    self.declaredCodec = declaredCodec
    self.codecPrivate = codecPrivate
  }
}
