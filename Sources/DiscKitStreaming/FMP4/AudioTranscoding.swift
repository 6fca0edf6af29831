/// The hook through which the fMP4 HLS gets audio renditions a codec library makes: a stereo AAC
/// rendition of every audio stream and a lossless FLAC rendition of TrueHD and DTS streams. The
/// streaming core links no codec library; a server supplies an ``AudioTranscoder``
/// (``DiscServerConfiguration/audioTranscoder``; `disckit serve` supplies `DiscKitTranscode`'s,
/// over libavcodec) and ``FMP4Title`` then lists the extra renditions.
///
/// Each segment is one ``AudioTranscodeSession``, fed the disc's PES packets of the segment
/// (`kept`) with a few before them (decoder and encoder pre-roll) and, for AAC, after them (the
/// encoder's look-ahead) one at a time, handing back each encoded frame as soon as it is made:
/// so any segment is made alone, in any order, the same request gives the same bytes, and
/// memory stays at a decoder's and an encoder's state and a few frames, whatever the segment's
/// length.
public protocol AudioTranscoder: Sendable {
  /// Names the codec library and its version (`lavc59.37.100`): an encoder's bytes may change
  /// from one version to the next, so this is part of every transcoded file's `ETag`.
  var version: String { get }

  /// The decoded format of a stream, from its first packets (for the FLAC sample entry).
  func format(of source: AudioTranscodeSource, packets: [AudioTranscodeJob.Packet])
    throws(StreamingError) -> AudioTranscodeFormat

  /// A session that decodes and encodes one segment.
  func session(_ job: AudioTranscodeJob) throws(StreamingError) -> any AudioTranscodeSession
}

/// One segment being transcoded: ``feed(_:emit:)`` its packets in stream order, then
/// ``finish(emit:)``. Used by one thread at a time.
public protocol AudioTranscodeSession: AnyObject, Sendable {
  /// Decodes `packet` and encodes the samples it completes: `emit` gets each encoded frame
  /// (AAC: a raw data block; FLAC: a frame numbered by its first sample on the media timeline)
  /// and the samples it holds, in order.
  func feed(_ packet: AudioTranscodeJob.Packet, emit: (_ frame: [UInt8], _ samples: Int) -> Void)
    throws(StreamingError)

  /// Encodes what is left (the AAC look-ahead, FLAC's last short block).
  func finish(emit: (_ frame: [UInt8], _ samples: Int) -> Void) throws(StreamingError)

  /// True once the first kept packet decoded to nothing (a TrueHD decoder that saw no major
  /// sync yet) or, for AAC, the decoded samples start after the encoder's pre-roll: the caller
  /// starts again with more packets before (``FMP4Title`` quadruples its look-back); the
  /// session's output stays usable when there are none.
  var needsEarlierPackets: Bool { get }

  /// True once the packets still to come cannot change the output (AAC: the look-ahead after
  /// the segment's last frame is decoded): the caller may stop feeding.
  var satisfied: Bool { get }
}

extension AudioTranscoder {
  /// Decodes and encodes one segment whole, its encoded frames in memory (tools and tests; the
  /// server streams a ``session(_:)``).
  public func transcode(_ job: AudioTranscodeJob, packets: [AudioTranscodeJob.Packet])
    throws(StreamingError) -> (frames: [[UInt8]], frameSamples: [Int], needsEarlierPackets: Bool)
  {
    let session = try session(job)
    var frames: [[UInt8]] = []
    var samples: [Int] = []
    for packet in packets where !session.satisfied {
      try session.feed(packet) { frames.append($0); samples.append($1) }
    }
    try session.finish { frames.append($0); samples.append($1) }
    return (frames, samples, session.needsEarlierPackets)
  }
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
  /// AAC: the AAC frames of the segment, numbered on the media timeline (frame n holds the
  /// samples from n × 1024 at 48 kHz, 1920 ticks each); the upper bound `Int64.max` for the
  /// title's last segment (up to the end of the decoded samples). Unused for FLAC, which holds
  /// the decoded samples of the kept packets, numbered from the first kept packet's time.
  public var frames: Range<Int64>
  /// FLAC: the format of the rendition's sample entry (the decoded samples are checked
  /// against it). Unused for AAC (48 kHz stereo).
  public var format: AudioTranscodeFormat?

  public init(
    source: AudioTranscodeSource, target: AudioTranscodeTarget, frames: Range<Int64> = 0..<0,
    format: AudioTranscodeFormat? = nil
  ) {
    self.source = source
    self.target = target
    self.frames = frames
    self.format = format
  }
}
