import CFFmpeg
import DiscKit

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
    guard
      let demuxer = try? PieceDemuxer(
        source: source, container: container, range: range, findStreamInfo: false,
        structure: "HEVC colour probe", onRead: { _ in }),
      let format = demuxer.format, let packet = av_packet_alloc()
    else { return nil }
    var pointer: UnsafeMutablePointer<AVPacket>? = packet
    defer { av_packet_free(&pointer) }
    var found = HEVCColourMetadata()
    var videoPackets = 0
    var read = 0
    while read < 4096, videoPackets < 8, av_read_frame(format, packet) >= 0 {
      defer { av_packet_unref(packet) }
      read += 1
      guard let stream = demuxer.stream(at: Int(packet.pointee.stream_index)),
        Int(stream.pointee.id) == streamID, let data = packet.pointee.data,
        packet.pointee.size > 0
      else { continue }
      videoPackets += 1
      let bytes = Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
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
