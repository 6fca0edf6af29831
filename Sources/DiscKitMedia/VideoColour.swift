import CFFmpeg
@_spi(Formats) import DiscKit

/// The HDR signalling of an HEVC track in Matroska: the `Colour` element (matrix, transfer,
/// primaries, range), `MaxCLL`/`MaxFALL` and `MasteringMetadata`, from the SPS VUI and the HDR10
/// SEI messages of the track's first access unit (DiscKit's ``HEVCColourMetadata``), handed to
/// libavformat's Matroska muxer as codec parameters and stream side data.
enum VideoColour {
  /// The colour description of the HEVC stream `streamID` in the first bytes of a piece: its
  /// first video packets (up to 8, read among at most 4096 packets) parsed as Annex B until one
  /// holds a sequence parameter set. `nil` when none does or the bytes do not parse.
  static func hevc(
    source: any ByteSource, container: MatroskaTitle.Container, range: Range<Int64>,
    streamID: Int
  ) -> HEVCColourMetadata? {
    var found = HEVCColourMetadata()
    for bytes in PieceDemuxer.firstPackets(
      source: source, container: container, range: range, streamID: streamID, count: 8)
    {
      guard let colour = try? HEVCColourMetadata(parsingAnnexB: bytes[...]) else { continue }
      if found.sequenceParameterSet == nil {
        found.sequenceParameterSet = colour.sequenceParameterSet
      }
      if found.masteringDisplay == nil { found.masteringDisplay = colour.masteringDisplay }
      if found.contentLightLevel == nil { found.contentLightLevel = colour.contentLightLevel }
      if found.sequenceParameterSet != nil { break }
    }
    return found.sequenceParameterSet == nil ? nil : found
  }

  /// Puts `colour` on an output stream before the Matroska header is written: the VUI's code
  /// points as the codec parameters' colour fields (ITU-T H.273 values, as libavformat's enums
  /// number them) and the SEI messages as mastering display and content light level side data.
  /// Returns 0 or an AVERROR.
  static func apply(_ colour: HEVCColourMetadata, to stream: UnsafeMutablePointer<AVStream>)
    -> Int32
  {
    if let parameters = stream.pointee.codecpar,
      let signal = colour.sequenceParameterSet?.videoSignal
    {
      parameters.pointee.color_range = signal.fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
      if let p = signal.colourPrimaries {
        parameters.pointee.color_primaries = AVColorPrimaries(rawValue: UInt32(p))
      }
      if let t = signal.transferCharacteristics {
        parameters.pointee.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(t))
      }
      if let m = signal.matrixCoefficients {
        parameters.pointee.color_space = AVColorSpace(rawValue: UInt32(m))
      }
    }
    if let m = colour.masteringDisplay {
      let rgb = [m.red.x, m.red.y, m.green.x, m.green.y, m.blue.x, m.blue.y]
      let r = rgb.withUnsafeBufferPointer { b in
        disckit_set_mastering_display(
          stream, b.baseAddress, m.whitePoint.x, m.whitePoint.y, m.maxLuminance, m.minLuminance)
      }
      guard r >= 0 else { return r }
    }
    if let c = colour.contentLightLevel {
      let r = disckit_set_content_light_level(
        stream, UInt32(c.maxContentLightLevel), UInt32(c.maxPictureAverageLightLevel))
      guard r >= 0 else { return r }
    }
    return 0
  }
}

extension PieceDemuxer {
  /// The payloads of the first `count` packets of the stream `streamID` (its first stream with
  /// that id) in `range` of `source`, read among at most 4096 packets.
  static func firstPackets(
    source: any ByteSource, container: MatroskaTitle.Container, range: Range<Int64>,
    streamID: Int, count: Int
  ) -> [[UInt8]] {
    guard
      let demuxer = try? PieceDemuxer(
        source: source, container: container, range: range, findStreamInfo: false,
        structure: "stream probe", onRead: { _ in }),
      let format = demuxer.format, let packet = av_packet_alloc()
    else { return [] }
    var pointer: UnsafeMutablePointer<AVPacket>? = packet
    defer { av_packet_free(&pointer) }
    var result: [[UInt8]] = []
    var read = 0
    while read < 4096, result.count < count, av_read_frame(format, packet) >= 0 {
      defer { av_packet_unref(packet) }
      read += 1
      let index = Int(packet.pointee.stream_index)
      guard let stream = demuxer.stream(at: index), Int(stream.pointee.id) == streamID,
        !demuxer.isSubstream(index), let data = packet.pointee.data, packet.pointee.size > 0
      else { continue }
      result.append(Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size))))
    }
    return result
  }

  /// The source resolution a DTS core frame header declares (`PCMR`: 16, 20 or 24 bits), found
  /// in the first packets of stream `streamID`: what mkvmerge writes as the track's BitDepth.
  static func dtsSourceBitDepth(
    source: any ByteSource, container: MatroskaTitle.Container, range: Range<Int64>,
    streamID: Int
  ) -> Int? {
    for bytes in firstPackets(
      source: source, container: container, range: range, streamID: streamID, count: 4)
    {
      // Core sync 7FFE8001; FTYPE(1) SHORT(5) CPF(1) NBLKS(7) FSIZE(14) AMODE(6) SFREQ(4)
      // RATE(5) and 12 flag bits end at bit 88; then HCRC(16) when CPF, FILTS(1) VERNUM(4)
      // CHIST(2) and PCMR(3).
      var i = 0
      while i + 16 <= bytes.count {
        if bytes[i] == 0x7F, bytes[i + 1] == 0xFE, bytes[i + 2] == 0x80, bytes[i + 3] == 0x01 {
          func bits(_ start: Int, _ n: Int) -> Int {
            var v = 0
            for b in start..<(start + n) { v = v << 1 | Int(bytes[i + b / 8] >> (7 - b % 8)) & 1 }
            return v
          }
          let pcmr = bits(bits(38, 1) == 1 ? 111 : 95, 3)
          let depth = [16, 16, 20, 20, 0, 24, 24, 0][pcmr]
          return depth == 0 ? nil : depth
        }
        i += 1
      }
    }
    return nil
  }
}
