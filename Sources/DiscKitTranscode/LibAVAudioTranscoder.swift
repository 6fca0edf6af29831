import CFFmpeg
import DiscKit
import DiscKitStreaming

/// The ``DiscKitStreaming/AudioTranscoder`` over libavcodec and libswresample: decodes the
/// disc's TrueHD, DTS (core, DTS-HD MA/HRA extensions), AC-3, E-AC-3 and LPCM with libavcodec's
/// decoders (the samples `ffmpeg` decodes) and encodes
/// - AAC-LC 48 kHz stereo at 192 kb/s with libavcodec's `aac` encoder, the disc's channels
///   downmixed by libswresample's default matrix (centre and surrounds at −3 dB, LFE left out);
/// - FLAC with libavcodec's `flac` encoder (4096-sample frames, compression level 5; each frame
///   renumbered by its first sample on the media timeline, variable-block-size strategy, so any
///   segment is numbered as in one continuous stream). libavcodec's encoder rather than the
///   Swift LPCM writer's verbatim frames: its LPC coding takes about half the bytes, which is the
///   rendition's bandwidth, and a lossless encoder cannot change the samples.
///
/// DTS is decoded in libavcodec's bit-exact (fixed-point) mode: a DTS core's samples are then
/// integers (24-bit), the FLAC holds them exactly, and they equal `ffmpeg -flags +bitexact`'s.
public struct LibAVAudioTranscoder: AudioTranscoder {
  /// The AAC bit rate.
  public static let aacBitRate = 192_000
  /// AAC frames encoded before a segment's first frame (thrown away) and after its last.
  static let preRollFrames: Int64 = 3
  static let lookAheadFrames: Int64 = 2
  static let flacBlockSize = 4096

  public init() {
    av_log_set_level(AV_LOG_QUIET)
  }

  public var version: String {
    let v = avcodec_version()
    return "lavc\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)"
  }

  public func format(of source: AudioTranscodeSource, packets: [AudioTranscodeJob.Packet])
    throws(StreamingError) -> AudioTranscodeFormat
  {
    let decoder = try Decoder(source)
    for packet in packets.prefix(256) {
      for frame in AudioFrames.split(packet.payload, source) {
        if let decoded = decoder.decode(frame).first { return decoded.format }
      }
    }
    throw Self.failure("\(source.rawValue): no frame of the first segment decodes")
  }

  public func transcode(_ job: AudioTranscodeJob) throws(StreamingError) -> AudioTranscodeOutput {
    switch job.target {
    case .aac: return try aac(job)
    case .flac: return try flac(job)
    }
  }

  static func failure(_ message: String) -> StreamingError {
    .disc(DiscKitError(.unsupported, "audio transcoding", at: nil, message))
  }

  // MARK: AAC

  private func aac(_ job: AudioTranscodeJob) throws(StreamingError) -> AudioTranscodeOutput {
    let format = AudioTranscodeFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 16)
    let first = job.frames.lowerBound
    let start = (first - Self.preRollFrames) * 1024
    // Decode every packet, downmixed and resampled to 48 kHz stereo, placed by its PTS.
    let decoder = try Decoder(job.source)
    var mixer: Mixer?
    var runs: [(at: Int64, left: [Float], right: [Float])] = []
    var firstKeptDecoded: Bool?
    var earliest: Int64?
    for packet in job.packets {
      var at = (packet.time * 48_000 + 45_000).floorDivided(by: 90_000)
      var decodedAny = false
      for bytes in AudioFrames.split(packet.payload, job.source) {
        for frame in decoder.decode(bytes) {
          if mixer == nil || mixer?.matches(frame) == false { mixer = Mixer(frame) }
          guard let mixed = mixer?.convert(frame) else { continue }
          decodedAny = true
          if let last = runs.last, last.at + Int64(last.left.count) == at {
            runs[runs.count - 1].left += mixed.left
            runs[runs.count - 1].right += mixed.right
          } else {
            runs.append((at, mixed.left, mixed.right))
          }
          earliest = min(earliest ?? at, at)
          at += Int64(mixed.left.count)
        }
      }
      if packet.kept, firstKeptDecoded == nil { firstKeptDecoded = decodedAny }
    }
    let decodedEnd = runs.map { $0.at + Int64($0.left.count) }.max() ?? start
    let end =
      job.frames.upperBound == Int64.max
      ? max(first, (decodedEnd + 1023) / 1024) : job.frames.upperBound
    let needsEarlier =
      firstKeptDecoded == false || (firstKeptDecoded == true && (earliest ?? start) > start)
    // The samples the encoder reads: pre-roll, the segment's frames, the look-ahead.
    let total = Int((end + Self.lookAheadFrames) * 1024 - start)
    var left = [Float](repeating: 0, count: max(0, total))
    var right = left
    for run in runs {
      for k in 0..<run.left.count {
        let i = Int(run.at - start) + k
        guard i >= 0, i < total else { continue }
        left[i] = run.left[k]
        right[i] = run.right[k]
      }
    }
    let encoded = try AACEncoder.encode(
      left: left, right: right, firstFrame: first - Self.preRollFrames)
    var frames: [[UInt8]] = []
    for (frame, bytes) in encoded where frame >= first && frame < end {
      frames.append(bytes)
    }
    return AudioTranscodeOutput(
      frames: frames, frameSamples: frames.map { _ in 1024 }, firstSample: first * 1024,
      format: format, needsEarlierPackets: needsEarlier)
  }

  // MARK: FLAC

  private func flac(_ job: AudioTranscodeJob) throws(StreamingError) -> AudioTranscodeOutput {
    let decoder = try Decoder(job.source)
    var format: AudioTranscodeFormat?
    var samples: [Int32] = []
    var firstKeptDecoded: Bool?
    var firstTime: Int64?
    for packet in job.packets {
      var decodedAny = false
      for bytes in AudioFrames.split(packet.payload, job.source) {
        for frame in decoder.decode(bytes) {
          decodedAny = true
          guard packet.kept else { continue }
          if format == nil { format = frame.format }
          guard let format, let values = frame.integers(channels: format.channels) else {
            continue
          }
          samples += values
        }
      }
      if packet.kept, firstKeptDecoded == nil {
        firstKeptDecoded = decodedAny
        firstTime = packet.time
      }
    }
    guard let format else {
      return AudioTranscodeOutput(
        frames: [], frameSamples: [], firstSample: 0,
        format: AudioTranscodeFormat(sampleRate: 48_000, channels: 2, bitsPerSample: 16),
        needsEarlierPackets: firstKeptDecoded == false)
    }
    let rate = Int64(format.sampleRate)
    let firstSample = max(0, ((firstTime ?? 0) * rate + 45_000).floorDivided(by: 90_000))
    let encoded = try FLACEncoder.encode(
      samples, format: format, blockSize: Self.flacBlockSize, firstSample: firstSample)
    return AudioTranscodeOutput(
      frames: encoded.map(\.bytes), frameSamples: encoded.map(\.samples),
      firstSample: firstSample, format: format, needsEarlierPackets: firstKeptDecoded == false)
  }
}

extension Int64 {
  /// Division rounding towards minus infinity.
  func floorDivided(by d: Int64) -> Int64 {
    let q = self / d
    return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
  }
}
