/// The hook through which the fMP4 HLS gets audio renditions a codec library makes: a stereo AAC
/// rendition of every audio stream and a lossless FLAC rendition of TrueHD and DTS streams. The
/// streaming core links no codec library; a server supplies an ``AudioTranscoder``
/// (``DiscServerConfiguration/audioTranscoder``; `disckit serve` supplies `DiscKitTranscode`'s,
/// over libavcodec) and ``FMP4Title`` then lists the extra renditions.
///
/// Each segment is one ``AudioTranscodeJob``: the disc's PES packets of the segment (`kept`) with
/// a few before them (decoder and encoder pre-roll) and, for AAC, after them (the encoder's
/// look-ahead), so any segment is made alone, in any order, and the same request gives the same
/// bytes.
public protocol AudioTranscoder: Sendable {
  /// Names the codec library and its version (`lavc59.37.100`): an encoder's bytes may change
  /// from one version to the next, so this is part of every transcoded file's `ETag`.
  var version: String { get }

  /// The decoded format of a stream, from its first packets (for the FLAC sample entry).
  func format(of source: AudioTranscodeSource, packets: [AudioTranscodeJob.Packet])
    throws(StreamingError) -> AudioTranscodeFormat

  /// Decodes and encodes one segment.
  func transcode(_ job: AudioTranscodeJob) throws(StreamingError) -> AudioTranscodeOutput
}

/// The disc audio codings a transcoder decodes.
public enum AudioTranscodeSource: String, Sendable, Hashable {
  /// AC-3, E-AC-3 (with its dependent substreams), TrueHD (the MLP access units; its AC-3 core
  /// packets left out), DTS (core, with a DTS-HD extension substream when present), Blu-ray
  /// LPCM (the PES payload with its 4-byte header).
  case ac3, eac3, truehd, dts, lpcm
}

/// What a transcoded rendition is.
public enum AudioTranscodeTarget: String, Sendable, Hashable {
  /// AAC-LC, 48 kHz stereo (the disc's channels downmixed), 192 kb/s: `mp4a.40.2`.
  case aac
  /// FLAC of the decoded samples, every channel, the decoder's sample rate and bits: `fLaC`.
  case flac
}

/// The samples a decoder gives.
public struct AudioTranscodeFormat: Sendable, Hashable {
  public var sampleRate: Int
  public var channels: Int
  /// 16 or 24.
  public var bitsPerSample: Int
  public init(sampleRate: Int, channels: Int, bitsPerSample: Int) {
    self.sampleRate = sampleRate
    self.channels = channels
    self.bitsPerSample = bitsPerSample
  }
}

/// One segment to transcode.
public struct AudioTranscodeJob: Sendable {
  /// One PES packet of the disc stream.
  public struct Packet: Sendable {
    /// Its PTS on the rendition's media timeline (90 kHz ticks from the title's media time 0;
    /// negative before it).
    public var time: Int64
    /// The PES payload (one or more whole frames of the source coding).
    public var payload: [UInt8]
    /// Whether the packet belongs to the segment (false: pre-roll or look-ahead only).
    public var kept: Bool
    public init(time: Int64, payload: [UInt8], kept: Bool) {
      self.time = time
      self.payload = payload
      self.kept = kept
    }
  }

  public var source: AudioTranscodeSource
  public var target: AudioTranscodeTarget
  /// In stream order.
  public var packets: [Packet]
  /// AAC: the AAC frames of the segment, numbered on the media timeline (frame n holds the
  /// samples from n × 1024 at 48 kHz, 1920 ticks each); the upper bound `Int64.max` for the
  /// title's last segment (up to the end of the decoded samples). Unused for FLAC, which holds
  /// the decoded samples of the kept packets.
  public var frames: Range<Int64>

  public init(
    source: AudioTranscodeSource, target: AudioTranscodeTarget, packets: [Packet],
    frames: Range<Int64> = 0..<0
  ) {
    self.source = source
    self.target = target
    self.packets = packets
    self.frames = frames
  }
}

/// A transcoded segment.
public struct AudioTranscodeOutput: Sendable {
  /// The encoded frames (AAC raw data blocks; FLAC frames numbered by their first sample on the
  /// media timeline), and the samples each holds.
  public var frames: [[UInt8]]
  public var frameSamples: [Int]
  /// The first frame's first sample on the media timeline (AAC: its frame number × 1024).
  public var firstSample: Int64
  /// The output's format (AAC: 48 kHz, 2 channels).
  public var format: AudioTranscodeFormat
  /// True when the first kept packet decoded to nothing (a TrueHD decoder that saw no major
  /// sync yet) or, for AAC, the decoded samples start after the encoder's pre-roll: the
  /// caller asks again with more packets before (``FMP4Title`` doubles its look-back).
  public var needsEarlierPackets: Bool

  public init(
    frames: [[UInt8]], frameSamples: [Int], firstSample: Int64, format: AudioTranscodeFormat,
    needsEarlierPackets: Bool
  ) {
    self.frames = frames
    self.frameSamples = frameSamples
    self.firstSample = firstSample
    self.format = format
    self.needsEarlierPackets = needsEarlierPackets
  }
}
