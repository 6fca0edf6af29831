/// The colour description of an HEVC stream as its first access unit carries it: the sequence
/// parameter set (picture size, bit depth, the VUI's colour code points) and the HDR10 static
/// metadata SEI messages (mastering display colour volume, content light level). What Matroska's
/// `Colour` element and a UHD Blu-ray's stream attributes record.
@_spi(Formats)
public struct HEVCColourMetadata: Sendable, Hashable, Codable {
  /// The first base-layer sequence parameter set.
  public var sequenceParameterSet: HEVCSequenceParameterSet?
  /// The first mastering display colour volume SEI message.
  public var masteringDisplay: HEVCSEI.MasteringDisplayColourVolume?
  /// The first content light level SEI message.
  public var contentLightLevel: HEVCSEI.ContentLightLevel?

  /// Reads an Annex B byte stream (e.g. the payload of a video PES packet, or several): the first
  /// base-layer SPS and the first HDR SEI messages of prefix SEI NAL units. `offset` is the
  /// absolute offset of `bytes.first`, for errors. At most `limit` NAL units are looked at.
  ///
  /// - Throws: ``DiscKitError`` when the first SPS, or an SEI NAL unit before it is complete, is
  ///   malformed.
  public init(parsingAnnexB bytes: ArraySlice<UInt8>, offset: Int64 = 0, limit: Int = 256)
    throws(DiscKitError)
  {
    sequenceParameterSet = nil
    masteringDisplay = nil
    contentLightLevel = nil
    for range in HEVCNALUnit.split(bytes).prefix(limit) where range.count >= 2 {
      let type = HEVCNALUnit.type(bytes, at: range.lowerBound)
      guard HEVCNALUnit.layer(bytes, at: range.lowerBound) == 0 else { continue }
      let at = offset + Int64(range.lowerBound - bytes.startIndex)
      switch type {
      case HEVCNALUnit.sequenceParameterSet where sequenceParameterSet == nil:
        sequenceParameterSet = try HEVCSequenceParameterSet(parsing: bytes[range], offset: at)
      case HEVCNALUnit.prefixSEI:
        let messages = try HEVCSEI.parse(bytes[range], offset: at)
        if masteringDisplay == nil { masteringDisplay = messages.masteringDisplay }
        if contentLightLevel == nil { contentLightLevel = messages.contentLightLevel }
      default:
        break
      }
    }
  }

  /// Colour metadata from its parts.
  public init(
    sequenceParameterSet: HEVCSequenceParameterSet? = nil,
    masteringDisplay: HEVCSEI.MasteringDisplayColourVolume? = nil,
    contentLightLevel: HEVCSEI.ContentLightLevel? = nil
  ) {
    self.sequenceParameterSet = sequenceParameterSet
    self.masteringDisplay = masteringDisplay
    self.contentLightLevel = contentLightLevel
  }

  /// The UHD Blu-ray `dynamic_range_type` this stream gets: 1 (HDR10) for the SMPTE ST 2084 (PQ)
  /// transfer, 0 (SDR) otherwise. (Dolby Vision, 2, is a property of the enhancement layer, and
  /// HDR10+ a flag beside it.)
  public var blurayDynamicRangeType: UInt8 {
    sequenceParameterSet?.videoSignal?.transferCharacteristics == 16 ? 1 : 0
  }

  /// The UHD Blu-ray `color_space`: 1 BT.709, 2 BT.2020 (from the colour primaries), 0 when the
  /// VUI gives neither.
  public var blurayColorSpace: UInt8 {
    switch sequenceParameterSet?.videoSignal?.colourPrimaries {
    case 1: 1
    case 9: 2
    default: 0
    }
  }
}
