import CDiscKitLibAV
import DiscKit
import DiscKitStreaming
import Synchronization

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

  /// The encoder contexts this transcoder's sessions hold now and the most at once (a server
  /// bounds them by admitting a few transcoding requests at a time: `TranscodeAdmission`).
  public let encoders = EncoderCount()

  /// Loads nothing: libavcodec is loaded (and its logging silenced) at the first call into it.
  public init() {}

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

  public func session(_ job: AudioTranscodeJob) throws(StreamingError)
    -> any AudioTranscodeSession
  {
    switch job.target {
    case .aac: return try AACSession(job, encoders: encoders)
    case .flac: return try FLACSession(job, encoders: encoders)
    }
  }

  static func failure(_ message: String) -> StreamingError {
    .disc(DiscKitError(.unsupported, "audio transcoding", at: nil, message))
  }
}

/// A segment as AAC: every packet decoded, downmixed and resampled to 48 kHz stereo, placed by
/// its PTS on the 1024-sample grid (a gap silent, an overlap the later packet's), and encoded a
/// frame at a time from the pre-roll's first frame to the look-ahead's last, once the samples
/// a frame holds can no longer change (``margin`` samples decoded past it); the frames of the
/// segment are handed on as the encoder gives them back. Memory: the decoder's and encoder's
/// state and about ``margin`` samples.
final class AACSession: AudioTranscodeSession, @unchecked Sendable {  // one thread at a time
  /// Samples decoded past a frame before it is encoded (a later packet placed earlier, as at a
  /// clip join, may still overwrite them).
  static let margin: Int64 = 8192
  private let decoder: Decoder
  private var mixer: Mixer?
  private let encoder: AACEncoder
  private let first: Int64
  /// The segment's end frame; nil for the title's last segment until ``finish(emit:)``.
  private var end: Int64?
  /// The grid's samples not yet encoded: `left[head...]` from sample `bufferStart`.
  private var left: [Float] = []
  private var right: [Float] = []
  private var head = 0
  private var bufferStart: Int64
  /// The next frame to encode.
  private var nextFrame: Int64
  private var decodedEnd: Int64
  private var firstKeptDecoded: Bool?
  private var startsLate: Bool?
  private(set) var satisfied = false

  init(_ job: AudioTranscodeJob, encoders: EncoderCount) throws(StreamingError) {
    decoder = try Decoder(job.source)
    encoder = try AACEncoder(encoders)
    first = job.frames.lowerBound
    end = job.frames.upperBound == Int64.max ? nil : job.frames.upperBound
    nextFrame = first - LibAVAudioTranscoder.preRollFrames
    bufferStart = nextFrame * 1024
    decodedEnd = bufferStart
  }

  var needsEarlierPackets: Bool {
    firstKeptDecoded == false || (firstKeptDecoded == true && startsLate == true)
  }

  /// The samples the encoder reads end here (the look-ahead's last frame); nil: not known yet.
  private var limit: Int64? { end.map { ($0 + LibAVAudioTranscoder.lookAheadFrames) * 1024 } }

  func feed(_ packet: AudioTranscodeJob.Packet, emit: ([UInt8], Int) -> Void)
    throws(StreamingError)
  {
    var at = (packet.time * 48_000 + 45_000).floorDivided(by: 90_000)
    var decodedAny = false
    for bytes in AudioFrames.split(packet.payload, decoder.source) {
      for frame in decoder.decode(bytes) {
        if mixer == nil || mixer?.matches(frame) == false { mixer = Mixer(frame) }
        guard let mixed = mixer?.convert(frame) else { continue }
        decodedAny = true
        if startsLate == nil { startsLate = at > bufferStartAtOpen }
        place(mixed.left, mixed.right, at: at)
        at += Int64(mixed.left.count)
      }
    }
    if packet.kept, firstKeptDecoded == nil { firstKeptDecoded = decodedAny }
    if let limit, decodedEnd >= limit { satisfied = true }
    try encodeReady(upTo: bufferStart + Int64(left.count - head) - Self.margin, emit: emit)
  }

  private var bufferStartAtOpen: Int64 { (first - LibAVAudioTranscoder.preRollFrames) * 1024 }

  /// Writes decoded samples at grid position `at` (those before what is still open, or after
  /// the last the encoder reads, left out).
  private func place(_ l: [Float], _ r: [Float], at: Int64) {
    var from = 0
    var position = at
    let open = bufferStart
    if position < open {
      from = Int(min(Int64(l.count), open - position))
      position = open
    }
    var count = l.count - from
    if let limit { count = Int(max(0, min(Int64(count), limit - position))) }
    guard count > 0 else { return }
    decodedEnd = max(decodedEnd, position + Int64(count))
    let writeEnd = bufferStart + Int64(left.count - head)
    if position > writeEnd {
      let gap = Int(position - writeEnd)
      left.append(contentsOf: repeatElement(0, count: gap))
      right.append(contentsOf: repeatElement(0, count: gap))
    }
    var i = head + Int(position - bufferStart)
    for k in from..<(from + count) {
      if i < left.count {
        left[i] = l[k]
        right[i] = r[k]
      } else {
        left.append(l[k])
        right.append(r[k])
      }
      i += 1
    }
  }

  /// Encodes every frame whose samples end at or before `available` (and before the look-ahead's
  /// end).
  private func encodeReady(upTo available: Int64, emit: ([UInt8], Int) -> Void)
    throws(StreamingError)
  {
    let stop = end.map { $0 + LibAVAudioTranscoder.lookAheadFrames } ?? Int64.max
    while nextFrame < stop, (nextFrame + 1) * 1024 <= available {
      try encodeNext(emit)
    }
    // Keep the open samples at the front of the buffers.
    if head >= 1 << 14 {
      left.removeFirst(head)
      right.removeFirst(head)
      head = 0
    }
  }

  private func encodeNext(_ emit: ([UInt8], Int) -> Void) throws(StreamingError) {
    let missing = head + 1024 - left.count
    if missing > 0 {
      left.append(contentsOf: repeatElement(0, count: missing))
      right.append(contentsOf: repeatElement(0, count: missing))
    }
    let (first, end) = (first, end)
    try encoder.encode(number: nextFrame, left: left, right: right, at: head) { number, bytes in
      if number >= first, end.map({ number < $0 }) ?? true { emit(bytes, 1024) }
    }
    head += 1024
    bufferStart += 1024
    nextFrame += 1
  }

  func finish(emit: ([UInt8], Int) -> Void) throws(StreamingError) {
    if end == nil { end = max(first, (decodedEnd + 1023).floorDivided(by: 1024)) }
    try encodeReady(upTo: Int64.max, emit: emit)
    let (first, end) = (first, end ?? first)
    encoder.flush { number, bytes in
      if number >= first, number < end { emit(bytes, 1024) }
    }
  }
}

/// A segment as FLAC: every packet decoded (the ones before the segment only to set the decoder
/// up), the kept packets' samples encoded a 4096-sample block at a time as they are decoded.
/// Memory: the decoder's and encoder's state and one block.
final class FLACSession: AudioTranscodeSession, @unchecked Sendable {  // one thread at a time
  private let decoder: Decoder
  private let wanted: AudioTranscodeFormat?
  private var encoder: FLACEncoder?
  private var pending: [Int32] = []
  private var firstKeptDecoded: Bool?
  let satisfied = false

  private let encoders: EncoderCount

  init(_ job: AudioTranscodeJob, encoders: EncoderCount) throws(StreamingError) {
    decoder = try Decoder(job.source)
    wanted = job.format
    self.encoders = encoders
  }

  var needsEarlierPackets: Bool { firstKeptDecoded == false }

  func feed(_ packet: AudioTranscodeJob.Packet, emit: ([UInt8], Int) -> Void)
    throws(StreamingError)
  {
    var decodedAny = false
    var firstOfPacket = true
    for bytes in AudioFrames.split(packet.payload, decoder.source) {
      for frame in decoder.decode(bytes) {
        decodedAny = true
        guard packet.kept else { continue }
        let format = encoder?.format ?? wanted ?? frame.format
        // The rendition's sample entry was written from the stream's headers: decoded samples
        // of another layout, depth or rate would be dropped, padded or scaled silently.
        let decoded = frame.format
        guard decoded == format else {
          throw LibAVAudioTranscoder.failure(
            "\(decoder.source.rawValue) decoded to \(decoded.channels) channels of \(decoded.bitsPerSample) bits at \(decoded.sampleRate) Hz, its headers said \(format.channels) of \(format.bitsPerSample) at \(format.sampleRate) Hz"
          )
        }
        let rate = Int64(max(1, format.sampleRate))
        let packetSample = max(0, (packet.time * rate + 45_000).floorDivided(by: 90_000))
        if encoder == nil {
          encoder = try FLACEncoder(
            format: format, blockSize: LibAVAudioTranscoder.flacBlockSize,
            firstSample: packetSample, encoders: encoders)
        }
        guard let encoder, let values = frame.integers(channels: encoder.format.channels) else {
          continue
        }
        // A packet whose time is not where the samples before it end (a clip join's gap or
        // overlap, more than a third of a millisecond): the block so far ends there (a shorter
        // frame) and the next one is numbered from the packet's time, so each sample keeps its
        // place on the title's timeline.
        let channels = encoder.format.channels
        if firstOfPacket,
          abs(packetSample - (encoder.next + Int64(pending.count / channels))) > rate / 3000
        {
          try encoder.encode(pending[...], emit: emit)
          pending = []
          encoder.jump(to: packetSample)
        }
        firstOfPacket = false
        pending += values
        let block = LibAVAudioTranscoder.flacBlockSize * encoder.format.channels
        var used = 0
        while pending.count - used >= block {
          try encoder.encode(pending[used..<(used + block)], emit: emit)
          used += block
        }
        if used > 0 { pending.removeFirst(used) }
      }
    }
    if packet.kept, firstKeptDecoded == nil { firstKeptDecoded = decodedAny }
  }

  func finish(emit: ([UInt8], Int) -> Void) throws(StreamingError) {
    guard let encoder else { return }
    try encoder.encode(pending[...], emit: emit)
    pending = []
    try encoder.flush(emit)
  }
}

/// Counts live libavcodec encoder contexts.
public final class EncoderCount: Sendable {
  private let counts = Mutex((live: 0, peak: 0))

  public init() {}

  func opened() {
    counts.withLock {
      $0.live += 1
      $0.peak = max($0.peak, $0.live)
    }
  }

  func closed() { counts.withLock { $0.live -= 1 } }

  /// Encoder contexts open now.
  public var live: Int { counts.withLock { $0.live } }
  /// The most open at once since the transcoder was made.
  public var peak: Int { counts.withLock { $0.peak } }
}

extension Int64 {
  /// Division rounding towards minus infinity.
  func floorDivided(by d: Int64) -> Int64 {
    let q = self / d
    return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
  }
}
