/// What an ISO BMFF video sample entry (`hvc1` with `hvcC`, `colr`) needs from an HEVC sequence
/// parameter set, for the package's fragmented MP4 writer (DiscKitStreaming), which builds
/// without the `Formats` SPI: the picture size after the conformance window, the chroma format,
/// the bit depths, the VUI's colour code points and the SEI payloads of the HDR10 static
/// metadata (their bytes are those of the `mdcv` and `clli` boxes).
package struct HEVCSampleEntryFacts: Sendable, Hashable {
  /// Picture width after the conformance window.
  package var width: Int
  /// Picture height after the conformance window.
  package var height: Int
  /// `chroma_format_idc`.
  package var chromaFormat: Int
  /// Luma bit depth.
  package var lumaBitDepth: Int
  /// Chroma bit depth.
  package var chromaBitDepth: Int
  /// `colour_primaries`, `transfer_characteristics`, `matrix_coeffs` and `video_full_range_flag`
  /// when the VUI codes a colour description.
  package var colour: (primaries: Int, transfer: Int, matrix: Int, fullRange: Bool)? {
    guard let signal, let p = signal.colourPrimaries, let t = signal.transferCharacteristics,
      let m = signal.matrixCoefficients
    else { return nil }
    return (p, t, m, signal.fullRange)
  }
  private var signal: HEVCVideoSignal?

  /// Reads an SPS NAL unit (its two-byte header first, emulation prevention bytes in).
  ///
  /// - Throws: ``DiscKitError`` (structure `HEVC sequence parameter set`) as
  ///   ``HEVCSequenceParameterSet/init(parsing:offset:)``.
  package init(sequenceParameterSet nal: ArraySlice<UInt8>, offset: Int64 = 0)
    throws(DiscKitError)
  {
    let sps = try HEVCSequenceParameterSet(parsing: nal, offset: offset)
    width = sps.width
    height = sps.height
    chromaFormat = sps.chromaFormat
    lumaBitDepth = sps.lumaBitDepth
    chromaBitDepth = sps.chromaBitDepth
    signal = sps.videoSignal
  }

  /// The NAL units of an Annex B byte stream (``HEVCNALUnit/split(_:)``, which serves H.264 as
  /// well: start codes and trailing zeros left out), for writers outside the `Formats` SPI.
  package static func nalUnits(_ bytes: ArraySlice<UInt8>) -> [Range<Int>] {
    HEVCNALUnit.split(bytes)
  }

  /// The payloads of the `mastering_display_colour_volume` (137, 24 bytes) and
  /// `content_light_level_info` (144, 4 bytes) messages of a prefix SEI NAL unit (header first),
  /// as coded (emulation prevention removed): the bodies of ISO/IEC 14496-12's `mdcv` and `clli`.
  package static func hdr10Payloads(prefixSEI nal: ArraySlice<UInt8>)
    -> (masteringDisplay: [UInt8]?, contentLightLevel: [UInt8]?)
  {
    guard nal.count > 2, (nal[nal.startIndex] >> 1) & 0x3F == HEVCNALUnit.prefixSEI else {
      return (nil, nil)
    }
    var rbsp: [UInt8] = []
    var zeros = 0
    for byte in nal.dropFirst(2) {
      if zeros >= 2, byte == 3 {
        zeros = 0
        continue
      }
      rbsp.append(byte)
      zeros = byte == 0 ? zeros + 1 : 0
    }
    var mdcv: [UInt8]?
    var clli: [UInt8]?
    var i = 0
    while i < rbsp.count, rbsp[i] != 0x80 {
      var type = 0
      while i < rbsp.count, rbsp[i] == 0xFF {
        type += 255
        i += 1
      }
      guard i < rbsp.count else { break }
      type += Int(rbsp[i])
      i += 1
      var size = 0
      while i < rbsp.count, rbsp[i] == 0xFF {
        size += 255
        i += 1
      }
      guard i < rbsp.count else { break }
      size += Int(rbsp[i])
      i += 1
      guard i + size <= rbsp.count else { break }
      if type == 137, size == 24 { mdcv = Array(rbsp[i..<(i + 24)]) }
      if type == 144, size == 4 { clli = Array(rbsp[i..<(i + 4)]) }
      i += size
    }
    return (mdcv, clli)
  }
}
