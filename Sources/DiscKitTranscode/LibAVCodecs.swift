import CDiscKitLibAV
import DiscKit
import DiscKitStreaming

/// A libavcodec decoder of one source coding, fed one codec frame (a decoder packet) at a time.
final class Decoder {
  private var context: UnsafeMutablePointer<AVCodecContext>?
  private var packet: UnsafeMutablePointer<AVPacket>?
  private var frame: UnsafeMutablePointer<AVFrame>?
  private let codec: UnsafePointer<AVCodec>
  let source: AudioTranscodeSource
  private var opened = false

  init(_ source: AudioTranscodeSource) throws(StreamingError) {
    self.source = source
    let id: AVCodecID =
      switch source {
      case .ac3: AV_CODEC_ID_AC3
      case .eac3: AV_CODEC_ID_EAC3
      case .truehd: AV_CODEC_ID_TRUEHD
      case .dts: AV_CODEC_ID_DTS
      case .lpcm: AV_CODEC_ID_PCM_BLURAY
      }
    guard let codec = avcodec_find_decoder(id), let context = avcodec_alloc_context3(codec) else {
      throw LibAVAudioTranscoder.failure("libavcodec has no \(source.rawValue) decoder")
    }
    self.context = context
    self.codec = codec
    context.pointee.thread_count = 1
    // DTS: the fixed-point (bit-exact) core synthesis, integer samples (AV_CODEC_FLAG_BITEXACT).
    if source == .dts { context.pointee.flags |= 1 << 23 }
    packet = av_packet_alloc()
    frame = av_frame_alloc()
    guard packet != nil, frame != nil else { throw LibAVAudioTranscoder.failure("out of memory") }
    // TrueHD: opened at the first major sync (libavcodec's TrueHD decoder takes its channel
    // layout from the context, which its parser fills from a major sync, as ffmpeg does).
    if source != .truehd {
      guard avcodec_open2(context, codec, nil) >= 0 else {
        throw LibAVAudioTranscoder.failure("cannot open libavcodec's \(source.rawValue) decoder")
      }
      opened = true
    }
  }

  /// TrueHD's channel groups in a major sync's `channel_arrangement` bits (as libavcodec's
  /// `ff_truehd_layout`).
  private static let trueHDGroups: [[AVChannel]] = [
    [AV_CHAN_FRONT_LEFT, AV_CHAN_FRONT_RIGHT], [AV_CHAN_FRONT_CENTER], [AV_CHAN_LOW_FREQUENCY],
    [AV_CHAN_SIDE_LEFT, AV_CHAN_SIDE_RIGHT], [AV_CHAN_TOP_FRONT_LEFT, AV_CHAN_TOP_FRONT_RIGHT],
    [AV_CHAN_FRONT_LEFT_OF_CENTER, AV_CHAN_FRONT_RIGHT_OF_CENTER],
    [AV_CHAN_BACK_LEFT, AV_CHAN_BACK_RIGHT], [AV_CHAN_BACK_CENTER], [AV_CHAN_TOP_CENTER],
    [AV_CHAN_SURROUND_DIRECT_LEFT, AV_CHAN_SURROUND_DIRECT_RIGHT],
    [AV_CHAN_WIDE_LEFT, AV_CHAN_WIDE_RIGHT], [AV_CHAN_TOP_FRONT_CENTER], [AV_CHAN_LOW_FREQUENCY_2],
  ]

  /// Opens the TrueHD decoder at an access unit with a major sync: libavcodec's TrueHD decoder
  /// decodes every channel only when the context holds the stream's channel layout (which
  /// ffmpeg's demuxer sets from its parser), so the layout is read from the major sync first
  /// (the 8-channel presentation's `channel_arrangement`, else the 6-channel one's).
  private func open(at bytes: ArraySlice<UInt8>) -> Bool {
    guard let context, bytes.count >= 12 else { return false }
    let s = bytes.startIndex
    guard bytes[s + 4] == 0xF8, bytes[s + 5] == 0x72, bytes[s + 6] == 0x6F, bytes[s + 7] == 0xBA
    else { return false }
    let six = Int(bytes[s + 9] & 0x0F) << 1 | Int(bytes[s + 10] >> 7)
    let eight = Int(bytes[s + 10] & 0x1F) << 8 | Int(bytes[s + 11])
    let arrangement = eight != 0 ? eight : six
    var mask: UInt64 = 0
    for (k, group) in Self.trueHDGroups.enumerated() where arrangement >> k & 1 != 0 {
      for channel in group { mask |= 1 << UInt64(channel.rawValue) }
    }
    guard mask != 0, av_channel_layout_from_mask(&context.pointee.ch_layout, mask) >= 0 else {
      return false
    }
    opened = avcodec_open2(context, codec, nil) >= 0
    return opened
  }

  deinit {
    av_frame_free(&frame)
    av_packet_free(&packet)
    avcodec_free_context(&context)
  }

  /// The frames `bytes` decodes to (none for a frame the decoder cannot use yet, such as
  /// TrueHD before its first major sync, or a damaged one).
  func decode(_ bytes: ArraySlice<UInt8>) -> [DecodedFrame] {
    if !opened, !open(at: bytes) { return [] }
    guard let context, let packet, let frame, !bytes.isEmpty,
      av_new_packet(packet, Int32(bytes.count)) >= 0
    else { return [] }
    defer { av_packet_unref(packet) }
    bytes.withUnsafeBufferPointer { source in
      if let base = source.baseAddress {
        packet.pointee.data.update(from: base, count: bytes.count)
      }
    }
    guard avcodec_send_packet(context, packet) >= 0 else { return [] }
    var frames: [DecodedFrame] = []
    while avcodec_receive_frame(context, frame) >= 0 {
      if let copy = av_frame_clone(frame) {
        frames.append(DecodedFrame(copy, rawBits: Int(context.pointee.bits_per_raw_sample)))
      }
      av_frame_unref(frame)
    }
    return frames
  }
}

/// One decoded frame (a reference to libavcodec's buffers).
final class DecodedFrame {
  var frame: UnsafeMutablePointer<AVFrame>?
  let rawBits: Int

  init(_ frame: UnsafeMutablePointer<AVFrame>, rawBits: Int) {
    self.frame = frame
    self.rawBits = rawBits
  }

  deinit { av_frame_free(&frame) }

  var sampleFormat: Int32 { frame?.pointee.format ?? -1 }
  var count: Int { Int(frame?.pointee.nb_samples ?? 0) }
  var channels: Int { Int(frame?.pointee.ch_layout.nb_channels ?? 0) }

  /// The format (bits per sample 16 or 24 for integer samples FLAC can hold, 0 otherwise).
  var format: AudioTranscodeFormat {
    let bits: Int
    switch sampleFormat {
    case AV_SAMPLE_FMT_S16.rawValue, AV_SAMPLE_FMT_S16P.rawValue: bits = 16
    case AV_SAMPLE_FMT_S32.rawValue, AV_SAMPLE_FMT_S32P.rawValue:
      bits = rawBits > 16 && rawBits <= 24 ? 24 : rawBits > 0 && rawBits <= 16 ? 16 : 0
    default: bits = 0
    }
    return AudioTranscodeFormat(
      sampleRate: Int(frame?.pointee.sample_rate ?? 0), channels: channels, bitsPerSample: bits)
  }

  /// The samples interleaved as `channels` channels (extra ones dropped, missing ones silent):
  /// 16-bit samples as they are, 32-bit ones left-justified as libavcodec gives them; nil for
  /// floating-point samples.
  func integers(channels wanted: Int) -> [Int32]? {
    guard let frame, let data = frame.pointee.extended_data else { return nil }
    let n = count
    let have = channels
    var out = [Int32](repeating: 0, count: n * wanted)
    let used = min(have, wanted)
    switch sampleFormat {
    case AV_SAMPLE_FMT_S16.rawValue:
      guard let p = data[0] else { return nil }
      p.withMemoryRebound(to: Int16.self, capacity: n * have) { s in
        for i in 0..<n { for c in 0..<used { out[i * wanted + c] = Int32(s[i * have + c]) } }
      }
    case AV_SAMPLE_FMT_S32.rawValue:
      guard let p = data[0] else { return nil }
      p.withMemoryRebound(to: Int32.self, capacity: n * have) { s in
        for i in 0..<n { for c in 0..<used { out[i * wanted + c] = s[i * have + c] } }
      }
    case AV_SAMPLE_FMT_S16P.rawValue:
      for c in 0..<used {
        guard let p = data[c] else { return nil }
        p.withMemoryRebound(to: Int16.self, capacity: n) { s in
          for i in 0..<n { out[i * wanted + c] = Int32(s[i]) }
        }
      }
    case AV_SAMPLE_FMT_S32P.rawValue:
      for c in 0..<used {
        guard let p = data[c] else { return nil }
        p.withMemoryRebound(to: Int32.self, capacity: n) { s in
          for i in 0..<n { out[i * wanted + c] = s[i] }
        }
      }
    default:
      return nil
    }
    return out
  }
}

/// libswresample: a decoded frame's channels downmixed to stereo at 48 kHz, planar float.
final class Mixer {
  private var swr: OpaquePointer?
  private let key: (Int32, Int32, Int32, UInt64)

  private static func key(_ frame: DecodedFrame) -> (Int32, Int32, Int32, UInt64) {
    guard let f = frame.frame else { return (0, 0, 0, 0) }
    let layout = f.pointee.ch_layout
    let mask = layout.order == AV_CHANNEL_ORDER_NATIVE ? layout.u.mask : 0
    return (f.pointee.format, f.pointee.sample_rate, layout.nb_channels, mask)
  }

  init?(_ frame: DecodedFrame) {
    key = Self.key(frame)
    guard let f = frame.frame else { return nil }
    var input = AVChannelLayout()
    if key.3 != 0 {
      guard av_channel_layout_from_mask(&input, key.3) >= 0 else { return nil }
    } else {
      av_channel_layout_default(&input, key.2)
    }
    var output = AVChannelLayout()
    av_channel_layout_default(&output, 2)
    guard
      swr_alloc_set_opts2(
        &swr, &output, AV_SAMPLE_FMT_FLTP, 48_000, &input,
        AVSampleFormat(rawValue: f.pointee.format),
        f.pointee.sample_rate, 0, nil) >= 0, swr_init(swr) >= 0
    else {
      swr_free(&swr)
      return nil
    }
  }

  deinit { swr_free(&swr) }

  func matches(_ frame: DecodedFrame) -> Bool { Self.key(frame) == key }

  func convert(_ frame: DecodedFrame) -> (left: [Float], right: [Float])? {
    guard let swr, let f = frame.frame, let data = f.pointee.extended_data else { return nil }
    let capacity = Int(swr_get_out_samples(swr, f.pointee.nb_samples)) + 16
    guard capacity > 0 else { return nil }
    var left = [Float](repeating: 0, count: capacity)
    var right = [Float](repeating: 0, count: capacity)
    let made = left.withUnsafeMutableBufferPointer { l in
      right.withUnsafeMutableBufferPointer { r in
        var outputs: [UnsafeMutablePointer<UInt8>?] = [
          UnsafeMutableRawPointer(l.baseAddress).map { $0.assumingMemoryBound(to: UInt8.self) },
          UnsafeMutableRawPointer(r.baseAddress).map { $0.assumingMemoryBound(to: UInt8.self) },
        ]
        let inputs = UnsafeMutableRawPointer(data).assumingMemoryBound(
          to: Optional<UnsafePointer<UInt8>>.self)
        return swr_convert(swr, &outputs, Int32(capacity), inputs, f.pointee.nb_samples)
      }
    }
    guard made >= 0 else { return nil }
    return (Array(left.prefix(Int(made))), Array(right.prefix(Int(made))))
  }
}

/// A libavcodec encoder's codec, context, frame and packet, freed with it.
final class Encoder {
  let codec: UnsafePointer<AVCodec>
  let context: UnsafeMutablePointer<AVCodecContext>
  let frame: UnsafeMutablePointer<AVFrame>
  let packet: UnsafeMutablePointer<AVPacket>
  let count: EncoderCount

  init(_ id: AVCodecID, named name: String, count: EncoderCount) throws(StreamingError) {
    guard let codec = avcodec_find_encoder(id) else {
      throw LibAVAudioTranscoder.failure("libavcodec has no \(name) encoder")
    }
    var context = avcodec_alloc_context3(codec)
    var frame = av_frame_alloc()
    var packet = av_packet_alloc()
    guard let c = context, let f = frame, let p = packet else {
      av_packet_free(&packet)
      av_frame_free(&frame)
      avcodec_free_context(&context)
      throw LibAVAudioTranscoder.failure("out of memory")
    }
    (self.codec, self.context, self.frame, self.packet) = (codec, c, f, p)
    self.count = count
    count.opened()
  }

  deinit {
    count.closed()
    var context: UnsafeMutablePointer<AVCodecContext>? = context
    var frame: UnsafeMutablePointer<AVFrame>? = frame
    var packet: UnsafeMutablePointer<AVPacket>? = packet
    av_packet_free(&packet)
    av_frame_free(&frame)
    avcodec_free_context(&context)
  }
}

/// libavcodec's AAC-LC encoder, 48 kHz stereo, fed one 1024-sample frame at a time.
final class AACEncoder {
  private let encoder: Encoder

  init(_ count: EncoderCount) throws(StreamingError) {
    encoder = try Encoder(AV_CODEC_ID_AAC, named: "AAC", count: count)
    let (codec, context, frame) = (encoder.codec, encoder.context, encoder.frame)
    context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
    context.pointee.sample_rate = 48_000
    av_channel_layout_default(&context.pointee.ch_layout, 2)
    context.pointee.bit_rate = Int64(LibAVAudioTranscoder.aacBitRate)
    context.pointee.time_base = AVRational(num: 1, den: 48_000)
    context.pointee.thread_count = 1
    context.pointee.flags |= 1 << 23  // AV_CODEC_FLAG_BITEXACT
    guard avcodec_open2(context, codec, nil) >= 0 else {
      throw LibAVAudioTranscoder.failure("cannot open libavcodec's AAC encoder")
    }
    frame.pointee.nb_samples = 1024
    frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
    frame.pointee.sample_rate = 48_000
    av_channel_layout_default(&frame.pointee.ch_layout, 2)
    guard av_frame_get_buffer(frame, 0) >= 0 else {
      throw LibAVAudioTranscoder.failure("out of memory")
    }
  }

  /// Encodes frame `number` (1024 samples of `left` and `right` from `at`); `packet` gets each
  /// packet the encoder gives back, by the frame number its PTS gives (the encoder's first
  /// packet, its priming, is numbered one before the first frame fed).
  func encode(
    number: Int64, left: [Float], right: [Float], at: Int, packet: (Int64, [UInt8]) -> Void
  ) throws(StreamingError) {
    let frame = encoder.frame
    guard av_frame_make_writable(frame) >= 0, let l = frame.pointee.extended_data[0],
      let r = frame.pointee.extended_data[1]
    else { throw LibAVAudioTranscoder.failure("out of memory") }
    l.withMemoryRebound(to: Float.self, capacity: 1024) { p in
      left.withUnsafeBufferPointer {
        if let b = $0.baseAddress { p.update(from: b + at, count: 1024) }
      }
    }
    r.withMemoryRebound(to: Float.self, capacity: 1024) { p in
      right.withUnsafeBufferPointer {
        if let b = $0.baseAddress { p.update(from: b + at, count: 1024) }
      }
    }
    frame.pointee.pts = number * 1024
    guard avcodec_send_frame(encoder.context, frame) >= 0 else {
      throw LibAVAudioTranscoder.failure("the AAC encoder refused a frame")
    }
    drain(packet)
  }

  /// Ends the stream: the packets the encoder still holds.
  func flush(_ packet: (Int64, [UInt8]) -> Void) {
    _ = avcodec_send_frame(encoder.context, nil)
    drain(packet)
  }

  private func drain(_ handle: (Int64, [UInt8]) -> Void) {
    let (context, packet) = (encoder.context, encoder.packet)
    while avcodec_receive_packet(context, packet) >= 0 {
      if let data = packet.pointee.data {
        handle(
          packet.pointee.pts.floorDivided(by: 1024),
          Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size))))
      }
      av_packet_unref(packet)
    }
  }
}

/// libavcodec's FLAC encoder, fed one block at a time; each frame renumbered by its first
/// sample (variable-block-size strategy) from `firstSample`.
final class FLACEncoder {
  private let encoder: Encoder
  let format: AudioTranscodeFormat
  /// The first sample of the next block sent.
  private(set) var next: Int64
  /// The blocks sent whose frames have not come back yet: their sizes and first samples.
  private var waiting: [(count: Int, first: Int64)] = []

  init(format: AudioTranscodeFormat, blockSize: Int, firstSample: Int64, encoders: EncoderCount)
    throws(StreamingError)
  {
    let channels = format.channels
    guard channels > 0, channels <= 8, format.bitsPerSample == 16 || format.bitsPerSample == 24
    else {
      throw LibAVAudioTranscoder.failure(
        "FLAC holds 1 to 8 channels of 16 or 24 bits, not \(channels) of \(format.bitsPerSample)")
    }
    self.format = format
    next = firstSample
    encoder = try Encoder(AV_CODEC_ID_FLAC, named: "FLAC", count: encoders)
    let (codec, context) = (encoder.codec, encoder.context)
    context.pointee.sample_fmt = format.bitsPerSample > 16 ? AV_SAMPLE_FMT_S32 : AV_SAMPLE_FMT_S16
    context.pointee.bits_per_raw_sample = Int32(format.bitsPerSample)
    context.pointee.sample_rate = Int32(format.sampleRate)
    av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
    context.pointee.time_base = AVRational(num: 1, den: Int32(format.sampleRate))
    context.pointee.frame_size = Int32(blockSize)
    context.pointee.compression_level = 5
    context.pointee.thread_count = 1
    context.pointee.flags |= 1 << 23  // AV_CODEC_FLAG_BITEXACT
    guard avcodec_open2(context, codec, nil) >= 0 else {
      throw LibAVAudioTranscoder.failure("cannot open libavcodec's FLAC encoder")
    }
  }

  /// Encodes `samples` (interleaved, a whole number of sample frames: a block, or the last
  /// one's rest).
  func encode(_ samples: ArraySlice<Int32>, emit: ([UInt8], Int) -> Void) throws(StreamingError) {
    let channels = format.channels
    let n = samples.count / channels
    guard n > 0 else { return }
    let (context, frame) = (encoder.context, encoder.frame)
    av_frame_unref(frame)
    frame.pointee.nb_samples = Int32(n)
    frame.pointee.format = context.pointee.sample_fmt.rawValue
    frame.pointee.sample_rate = Int32(format.sampleRate)
    av_channel_layout_default(&frame.pointee.ch_layout, Int32(channels))
    guard av_frame_get_buffer(frame, 0) >= 0, let data = frame.pointee.data.0 else {
      throw LibAVAudioTranscoder.failure("out of memory")
    }
    let wide = format.bitsPerSample > 16
    samples.withUnsafeBufferPointer { s in
      if wide {
        data.withMemoryRebound(to: Int32.self, capacity: n * channels) { p in
          for i in 0..<(n * channels) { p[i] = s[i] }
        }
      } else {
        data.withMemoryRebound(to: Int16.self, capacity: n * channels) { p in
          for i in 0..<(n * channels) { p[i] = Int16(truncatingIfNeeded: s[i]) }
        }
      }
    }
    frame.pointee.pts = next
    guard avcodec_send_frame(context, frame) >= 0 else {
      throw LibAVAudioTranscoder.failure("the FLAC encoder refused a frame")
    }
    waiting.append((n, next))
    next += Int64(n)
    try drain(emit)
  }

  /// Numbers the next block from `sample` (a clip join: the samples after it start where their
  /// packet's time says, not where the ones before end).
  func jump(to sample: Int64) { next = sample }

  /// Ends the stream: the frames the encoder still holds.
  func flush(_ emit: ([UInt8], Int) -> Void) throws(StreamingError) {
    _ = avcodec_send_frame(encoder.context, nil)
    try drain(emit)
    guard waiting.isEmpty else {
      throw LibAVAudioTranscoder.failure(
        "the FLAC encoder gave no frame for \(waiting.count) blocks")
    }
  }

  private func drain(_ emit: ([UInt8], Int) -> Void) throws(StreamingError) {
    let (context, packet) = (encoder.context, encoder.packet)
    while avcodec_receive_packet(context, packet) >= 0 {
      defer { av_packet_unref(packet) }
      guard let data = packet.pointee.data else { continue }
      guard !waiting.isEmpty else {
        throw LibAVAudioTranscoder.failure("the FLAC encoder gave more frames than blocks")
      }
      let (n, first) = waiting.removeFirst()
      let bytes = Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
      guard let renumbered = FLACFrameNumber.renumber(bytes, firstSample: UInt64(max(0, first)))
      else {
        throw LibAVAudioTranscoder.failure(
          "the FLAC encoder wrote a frame header DiscKit cannot read")
      }
      emit(renumbered, n)
    }
  }
}

/// Rewrites a FLAC frame header (RFC 9639 §9.1) to the variable-block-size strategy, numbered by
/// its first sample: the header's CRC-8 and the frame's CRC-16 recomputed.
enum FLACFrameNumber {
  static func renumber(_ frame: [UInt8], firstSample: UInt64) -> [UInt8]? {
    guard frame.count > 8, frame[0] == 0xFF, frame[1] & 0xFE == 0xF8 else { return nil }
    // The coded number: 1 to 7 bytes, its length in the first byte's leading ones.
    let lead = frame[4]
    var length = 1
    if lead & 0x80 != 0 {
      length = 0
      var bit: UInt8 = 0x80
      while lead & bit != 0, length < 8 {
        length += 1
        bit >>= 1
      }
      guard (2...7).contains(length) else { return nil }
    }
    var p = 4 + length
    switch frame[2] >> 4 {
    case 6: p += 1
    case 7: p += 2
    default: break
    }
    switch frame[2] & 0x0F {
    case 12: p += 1
    case 13, 14: p += 2
    default: break
    }
    guard p + 3 <= frame.count else { return nil }
    var out: [UInt8] = [0xFF, 0xF9, frame[2], frame[3]]
    out += FLACFromLPCM.utf8Number(firstSample)
    out += frame[(4 + length)..<p]
    out.append(FLACFromLPCM.crc8(out[...]))
    out += frame[(p + 1)..<(frame.count - 2)]
    let crc = FLACFromLPCM.crc16(out[...])
    out.append(UInt8(crc >> 8))
    out.append(UInt8(truncatingIfNeeded: crc))
    return out
  }
}

/// A PES payload's codec frames, as a decoder takes them.
enum AudioFrames {
  static func split(_ payload: [UInt8], _ source: AudioTranscodeSource) -> [ArraySlice<UInt8>] {
    switch source {
    case .lpcm:
      return [payload[...]]
    case .ac3, .eac3:
      // An independent frame with the dependent substreams after it.
      var out: [ArraySlice<UInt8>] = []
      for (frame, range) in DolbyAudioFrame.split(payload[...]) {
        if frame.streamType == 1, let last = out.last {
          out[out.count - 1] = payload[last.startIndex..<range.upperBound]
        } else {
          out.append(payload[range])
        }
      }
      return out
    case .truehd:
      // MLP access units: check nibble, 12-bit length in 16-bit words.
      var out: [ArraySlice<UInt8>] = []
      var i = 0
      while i + 4 <= payload.count {
        let size = (Int(payload[i] & 0x0F) << 8 | Int(payload[i + 1])) * 2
        guard size >= 4, i + size <= payload.count else { break }
        out.append(payload[i..<(i + size)])
        i += size
      }
      return out
    case .dts:
      // A core frame (sync 7FFE8001, FSIZE) with the DTS-HD extension substream after it
      // (sync 64582025, nuExtSSFsize), or an extension substream alone.
      var out: [ArraySlice<UInt8>] = []
      var i = 0
      var coreOpen = false
      while i + 12 <= payload.count {
        let sync =
          UInt32(payload[i]) << 24 | UInt32(payload[i + 1]) << 16
          | UInt32(payload[i + 2]) << 8 | UInt32(payload[i + 3])
        if sync == 0x7FFE_8001 {
          let size =
            (Int(payload[i + 5] & 0x03) << 12 | Int(payload[i + 6]) << 4
              | Int(payload[i + 7] >> 4)) + 1
          guard size >= 96, i + size <= payload.count else { break }
          out.append(payload[i..<(i + size)])
          coreOpen = true
          i += size
        } else if sync == 0x6458_2025 {
          var bits = BitCursor(payload[(i + 4)...])
          bits.skip(8 + 2)
          let long = bits.read(1) == 1
          bits.skip(long ? 12 : 8)
          let size = bits.read(long ? 20 : 16) + 1
          guard size >= 16, i + size <= payload.count else { break }
          if coreOpen, let last = out.last {
            out[out.count - 1] = payload[last.startIndex..<(i + size)]
          } else {
            out.append(payload[i..<(i + size)])
          }
          coreOpen = false
          i += size
        } else {
          break
        }
      }
      return out
    }
  }
}
