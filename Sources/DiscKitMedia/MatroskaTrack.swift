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
  /// A part of a multiplexed stream carried as a track of its own.
  public enum Substream: String, Sendable, Hashable, Codable {
    /// The AC-3 core a Blu-ray TrueHD stream (coding 0x83) interleaves on its PID (PES packets
    /// with `stream_id_extension` 0x76 beside the TrueHD ones, 0x72): its own Matroska track
    /// (`A_AC3`), as mkvmerge writes it.
    case ac3Core
  }

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
  /// Which part of the stream ``streamID`` names the track carries; `nil`: the whole stream
  /// (for a TrueHD stream, its TrueHD access units).
  public var substream: Substream?

  /// A track description.
  public init(
    kind: Kind, streamID: Int, language: String, isDefault: Bool, declaredCodec: String,
    codecPrivate: [UInt8]? = nil, substream: Substream? = nil
  ) {
    self.substream = substream
    self.kind = kind
    self.streamID = streamID
    self.language = language
    self.isDefault = isDefault
    self.declaredCodec = declaredCodec
    self.codecPrivate = codecPrivate
  }
}
