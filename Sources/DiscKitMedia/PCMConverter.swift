import CFFmpeg
import DiscKit

/// Converts Blu-ray LPCM (`pcm_bluray`: big-endian, 4-byte header per packet, channels padded to
/// an even count) and DVD LPCM (`pcm_dvd`) losslessly into little-endian interleaved PCM, which
/// Matroska stores as `A_PCM/INT/LIT` (16-bit stays 16-bit; 20- and 24-bit become 24-bit, as
/// mkvmerge does). libavcodec's decoder reads the headers and drops the padding channel.
final class PCMConverter {
  /// The output codec (`pcm_s16le` or `pcm_s24le`).
  let outputCodec: AVCodecID
  /// Bytes per output sample (2 or 3).
  let outputBytes: Int
  private var decoder: UnsafeMutablePointer<AVCodecContext>?
  private var frame: UnsafeMutablePointer<AVFrame>?
  private let name: String

  /// Whether `codec` is a PCM variant Matroska cannot take as is but this converter can.
  static func converts(_ codec: AVCodecID) -> Bool {
    codec == AV_CODEC_ID_PCM_BLURAY || codec == AV_CODEC_ID_PCM_DVD
  }

  init(parameters: UnsafePointer<AVCodecParameters>, name: String) throws(DiscKitError) {
    self.name = name
    let p = parameters.pointee
    let wide = p.format == AV_SAMPLE_FMT_S32.rawValue || p.bits_per_raw_sample > 16
    outputCodec = wide ? AV_CODEC_ID_PCM_S24LE : AV_CODEC_ID_PCM_S16LE
    outputBytes = wide ? 3 : 2
    guard let codec = avcodec_find_decoder(p.codec_id),
      let context = avcodec_alloc_context3(codec)
    else {
      throw DiscKitError(.unsupported, name, at: nil, "no LPCM decoder in libavcodec")
    }
    decoder = context
    guard avcodec_parameters_to_context(context, parameters) >= 0,
      avcodec_open2(context, codec, nil) >= 0, let frame = av_frame_alloc()
    else {
      throw DiscKitError(.unsupported, name, at: nil, "cannot open the LPCM decoder")
    }
    self.frame = frame
  }

  deinit {
    av_frame_free(&frame)
    avcodec_free_context(&decoder)
  }

  /// Fills `parameters` for the output track.
  func fill(
    _ parameters: UnsafeMutablePointer<AVCodecParameters>,
    from input: UnsafePointer<AVCodecParameters>
  )
    -> Int32
  {
    parameters.pointee.codec_type = AVMEDIA_TYPE_AUDIO
    parameters.pointee.codec_id = outputCodec
    parameters.pointee.codec_tag = 0
    parameters.pointee.sample_rate = input.pointee.sample_rate
    parameters.pointee.bits_per_coded_sample = Int32(outputBytes * 8)
    parameters.pointee.bits_per_raw_sample = Int32(outputBytes * 8)
    let result = withUnsafePointer(to: input.pointee.ch_layout) { layout in
      av_channel_layout_copy(&parameters.pointee.ch_layout, layout)
    }
    parameters.pointee.block_align = parameters.pointee.ch_layout.nb_channels * Int32(outputBytes)
    return result
  }

  /// Decodes `packet` and writes its samples, little-endian, into `output` (a fresh packet).
  /// Returns false when the packet held no samples.
  func convert(
    _ packet: UnsafeMutablePointer<AVPacket>, into output: UnsafeMutablePointer<AVPacket>
  )
    throws(DiscKitError) -> Bool
  {
    guard let decoder, let frame else { return false }
    var r = avcodec_send_packet(decoder, packet)
    guard r >= 0 else {
      throw DiscKitError(.malformed, name, at: packet.pointee.pos, "LPCM packet: \(averror(r))")
    }
    r = avcodec_receive_frame(decoder, frame)
    if r == disckit_av_error_eagain() || r == disckit_av_error_eof() { return false }
    guard r >= 0 else {
      throw DiscKitError(.malformed, name, at: packet.pointee.pos, "LPCM packet: \(averror(r))")
    }
    defer { av_frame_unref(frame) }
    let f = frame.pointee
    let channels = Int(f.ch_layout.nb_channels)
    let samples = Int(f.nb_samples) * channels
    let inputBytes: Int
    switch f.format {
    case AV_SAMPLE_FMT_S16.rawValue: inputBytes = 2
    case AV_SAMPLE_FMT_S32.rawValue: inputBytes = 4
    default:
      throw DiscKitError(
        .unsupported, name, at: packet.pointee.pos, "LPCM decoded to an unexpected sample format")
    }
    guard (inputBytes == 2) == (outputBytes == 2), let source = f.data.0 else {
      throw DiscKitError(
        .unsupported, name, at: packet.pointee.pos,
        "the LPCM sample size changes within the stream (\(inputBytes * 8) bits after \(outputBytes * 8))"
      )
    }
    guard av_new_packet(output, Int32(samples * outputBytes)) >= 0, let target = output.pointee.data
    else {
      throw DiscKitError(.io, name, at: nil, "cannot allocate a packet")
    }
    if outputBytes == 2 {
      // S16 in host order (little-endian on every platform DiscKit builds for).
      target.update(from: source, count: samples * 2)
    } else {
      var s = source
      var t = target
      for _ in 0..<samples {
        // The decoder puts 24 (or 20) significant bits in the top of a 32-bit sample.
        let value = UInt32(s[0]) | UInt32(s[1]) << 8 | UInt32(s[2]) << 16 | UInt32(s[3]) << 24
        t[0] = UInt8(truncatingIfNeeded: value >> 8)
        t[1] = UInt8(truncatingIfNeeded: value >> 16)
        t[2] = UInt8(truncatingIfNeeded: value >> 24)
        s += 4
        t += 3
      }
    }
    output.pointee.duration = Int64(f.nb_samples)
    return true
  }
}

/// A libav error code as text.
func averror(_ code: Int32) -> String {
  var buffer = [CChar](repeating: 0, count: 128)
  _ = av_strerror(code, &buffer, buffer.count)
  return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
