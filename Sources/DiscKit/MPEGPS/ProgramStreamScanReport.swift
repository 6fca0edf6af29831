/// What ``ProgramStreamScanner`` found at the start of an MPEG program stream (a DVD title).
///
/// PTS values are the raw 33-bit, 90 kHz values in the stream; `nil` (JSON `null`) where a value
/// was not found in the scan window. The shape follows the transport-stream scan report, with
/// stream ids in place of PIDs.
public struct ProgramStreamScanReport: Sendable, Encodable, Hashable {
  /// A video elementary stream (PES stream id 0xE0-0xEF).
  public struct Video: Sendable, Encodable, Hashable {
    /// The PES stream id (224 = 0xE0).
    public var streamId: Int
    /// `mpeg2video` or `mpeg1video`.
    public var codec: String
    /// The PTS of the first PES of this stream that carries one.
    public var firstPTS: UInt64?
    /// The PTS of the first random access point: an I-picture that follows a sequence header.
    public var firstIDRPTS: UInt64?
    /// (`firstIDRPTS` - `firstPTS`) mod 2^33 in seconds: what a player drops after a seek.
    public var preIDRGapSeconds: Double?
    /// The byte offset in the source of the pack holding that random access point (as in the
    /// transport-stream report: an absolute offset, not one from the scan start).
    public var firstIDROffset: Int64?
  }

  /// An audio elementary stream (MPEG audio 0xC0-0xDF, or a private stream 1 substream).
  public struct Audio: Sendable, Encodable, Hashable {
    /// The PES stream id (189 = 0xBD for private stream 1).
    public var streamId: Int
    /// The private stream 1 substream id (0x80-0x87 AC-3, 0x88-0x8F DTS, 0xA0-0xA7 LPCM).
    public var substreamId: Int?
    /// `ac3`, `dts`, `lpcm`, `mp2` (MPEG audio).
    public var codec: String
    /// The PTS of the first PES of this stream that carries one.
    public var firstPTS: UInt64?
    /// `(firstPTS - first video firstPTS)` modulo 2^33 as the nearest signed value, in seconds
    /// (the first video stream of the report), as in the transport-stream report.
    public var offsetFromVideoSeconds: Double?
    /// `(firstPTS - first video firstIDRPTS)`, likewise: where audio starts relative to the first
    /// picture a player can show after a seek.
    public var offsetFromIDRSeconds: Double?
  }

  /// Always `mpeg-ps`.
  public var container = "mpeg-ps"
  /// Where the scan started in the source.
  public var scanStart: Int64
  /// How many bytes were scanned.
  public var bytesScanned: Int64
  /// Pack headers seen.
  public var packs: Int
  /// Video streams in order of first appearance.
  public var video: [Video]
  /// Audio streams in order of first appearance.
  public var audio: [Audio]
  /// `(first audio firstPTS - first video firstPTS)` modulo 2^33 as the nearest signed value, in
  /// seconds, as in the transport-stream report (the offset from the random access point is each
  /// audio stream's ``Audio/offsetFromIDRSeconds``); `nil` when either is missing.
  public var avOffsetSeconds: Double?
  /// Things that went wrong but did not stop the scan (resyncs, lying lengths, no video).
  public var warnings: [ProgramStreamWarning]
}
