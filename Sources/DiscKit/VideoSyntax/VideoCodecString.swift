/// RFC 6381 `codecs` values (the strings an HLS `CODECS` attribute lists) for H.264 and HEVC
/// video, built from the stream's own sequence parameter set:
/// - H.264 `avc1.PPCCLL` (ISO/IEC 14496-15 A.3.3.1): `profile_idc`, the constraint-flags byte
///   and `level_idc` as two hexadecimal digits each;
/// - HEVC `hvc1.[A-C]P.C.TL.B…` (ISO/IEC 14496-15 E.3): the profile space letter (none for 0)
///   and `general_profile_idc`; the 32 `general_profile_compatibility_flag`s in reverse bit
///   order, in hexadecimal; `L` or `H` for the tier and `general_level_idc`; then the six bytes
///   of constraint flags (from `general_progressive_source_flag` on) in hexadecimal, trailing
///   zero bytes left out.
package enum VideoCodecString {
  /// The general profile, tier and level of an HEVC sequence parameter set (H.265 7.3.3, the
  /// first 96 bits of `profile_tier_level`).
  package struct HEVCGeneralProfile: Sendable, Hashable {
    /// `general_profile_space` (0-3).
    package var profileSpace: Int
    /// `general_tier_flag` (false Main tier, true High tier).
    package var highTier: Bool
    /// `general_profile_idc`.
    package var profile: Int
    /// `general_profile_compatibility_flag[j]` for j = 0…31, flag j in bit 31 - j.
    package var compatibilityFlags: UInt32
    /// The 48 bits from `general_progressive_source_flag` to before `general_level_idc`, as
    /// six bytes.
    package var constraintBytes: [UInt8]
    /// `general_level_idc`.
    package var level: Int

    /// Reads the general profile, tier and level of an SPS NAL unit (`nal`: its two-byte header
    /// first, emulation prevention bytes still in; `offset`: its absolute offset, for errors).
    ///
    /// - Throws: ``DiscKitError`` (structure `HEVC profile_tier_level`) when the NAL unit is not
    ///   an SPS or ends inside the general profile.
    package init(sequenceParameterSet nal: ArraySlice<UInt8>, offset: Int64 = 0)
      throws(DiscKitError)
    {
      let structure = "HEVC profile_tier_level"
      guard nal.count >= 2, (nal[nal.startIndex] >> 1) & 0x3F == HEVCNALUnit.sequenceParameterSet
      else {
        throw DiscKitError(.malformed, structure, at: offset, "not an HEVC SPS NAL unit (type 33)")
      }
      var r = RBSPBitReader(payload: nal.dropFirst(2), baseOffset: offset + 2, structure: structure)
      try r.skip(8, "sps_video_parameter_set_id, sps_max_sub_layers_minus1, nesting flag")
      profileSpace = Int(try r.bits(2, "general_profile_space"))
      highTier = try r.flag("general_tier_flag")
      profile = Int(try r.bits(5, "general_profile_idc"))
      compatibilityFlags = try r.bits(32, "general_profile_compatibility_flags")
      var bytes: [UInt8] = []
      for _ in 0..<6 { bytes.append(UInt8(try r.bits(8, "general constraint flags"))) }
      constraintBytes = bytes
      level = Int(try r.bits(8, "general_level_idc"))
    }

    /// The `hvc1` codecs value.
    package var codecString: String {
      let space = ["", "A", "B", "C"][profileSpace & 3]
      // Flag j is bit 31 - j as read; the string wants flag j in bit j ("reverse bit order").
      var reversed: UInt32 = 0
      for j in 0..<32 where compatibilityFlags & (1 << (31 - UInt32(j))) != 0 {
        reversed |= 1 << UInt32(j)
      }
      var text = "hvc1.\(space)\(profile).\(hex(reversed)).\(highTier ? "H" : "L")\(level)"
      var constraints = constraintBytes
      while constraints.last == 0 { constraints.removeLast() }
      for byte in constraints { text += "." + hex(UInt32(byte)) }
      return text
    }
  }

  /// The `avc1.PPCCLL` value of an H.264 SPS NAL unit (`nal`: its header byte first).
  ///
  /// - Throws: ``DiscKitError`` (structure `H.264 sequence parameter set`) when the NAL unit is
  ///   not an SPS (type 7) or has fewer than three payload bytes.
  package static func avc1(sequenceParameterSet nal: ArraySlice<UInt8>, offset: Int64 = 0)
    throws(DiscKitError) -> String
  {
    let structure = "H.264 sequence parameter set"
    guard let header = nal.first, header & 0x1F == 7 else {
      throw DiscKitError(.malformed, structure, at: offset, "not an H.264 SPS NAL unit (type 7)")
    }
    var r = RBSPBitReader(payload: nal.dropFirst(1), baseOffset: offset + 1, structure: structure)
    let profile = try r.bits(8, "profile_idc")
    let constraints = try r.bits(8, "constraint_set flags")
    let level = try r.bits(8, "level_idc")
    // Lower case, as ffmpeg's HLS muxer and Apple's examples write it.
    return "avc1." + [profile, constraints, level].map { hex($0, digits: 2).lowercased() }.joined()
  }

  /// The picture size of an H.264 SPS NAL unit (`nal`: its header byte first) after the frame
  /// cropping (H.264 7.3.2.1.1 and 7.4.2.1.1: `PicWidthInMbs`, `FrameHeightInMbs`, `CropUnitX/Y`).
  ///
  /// - Throws: ``DiscKitError`` (structure `H.264 sequence parameter set`) when the NAL unit is
  ///   not an SPS, ends early, or a field is outside the range H.264 allows.
  package static func avcPictureSize(sequenceParameterSet nal: ArraySlice<UInt8>, offset: Int64 = 0)
    throws(DiscKitError) -> (width: Int, height: Int)
  {
    let structure = "H.264 sequence parameter set"
    guard let header = nal.first, header & 0x1F == 7 else {
      throw DiscKitError(.malformed, structure, at: offset, "not an H.264 SPS NAL unit (type 7)")
    }
    var r = RBSPBitReader(payload: nal.dropFirst(1), baseOffset: offset + 1, structure: structure)
    let profile = try r.bits(8, "profile_idc")
    try r.skip(16, "constraint flags, level_idc")
    _ = try r.ue("seq_parameter_set_id", max: 31)
    var chromaFormat: UInt32 = 1
    var separateColourPlane = false
    if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
      chromaFormat = try r.ue("chroma_format_idc", max: 3)
      if chromaFormat == 3 { separateColourPlane = try r.flag("separate_colour_plane_flag") }
      _ = try r.ue("bit_depth_luma_minus8", max: 6)
      _ = try r.ue("bit_depth_chroma_minus8", max: 6)
      try r.skip(1, "qpprime_y_zero_transform_bypass_flag")
      if try r.flag("seq_scaling_matrix_present_flag") {
        for i in 0..<(chromaFormat == 3 ? 12 : 8) {
          guard try r.flag("seq_scaling_list_present_flag") else { continue }
          var last: Int64 = 8
          var next: Int64 = 8
          for _ in 0..<(i < 6 ? 16 : 64) where next != 0 {
            next = (last + (try r.se("delta_scale")) + 256) % 256
            if next != 0 { last = next }
          }
        }
      }
    }
    _ = try r.ue("log2_max_frame_num_minus4", max: 12)
    switch try r.ue("pic_order_cnt_type", max: 2) {
    case 0: _ = try r.ue("log2_max_pic_order_cnt_lsb_minus4", max: 12)
    case 1:
      try r.skip(1, "delta_pic_order_always_zero_flag")
      _ = try r.se("offset_for_non_ref_pic")
      _ = try r.se("offset_for_top_to_bottom_field")
      let cycle = try r.ue("num_ref_frames_in_pic_order_cnt_cycle", max: 255)
      for _ in 0..<cycle { _ = try r.se("offset_for_ref_frame") }
    default: break
    }
    _ = try r.ue("max_num_ref_frames", max: 16)
    try r.skip(1, "gaps_in_frame_num_value_allowed_flag")
    let widthMbs = Int(try r.ue("pic_width_in_mbs_minus1", max: 4095)) + 1
    let heightUnits = Int(try r.ue("pic_height_in_map_units_minus1", max: 4095)) + 1
    let frameMbsOnly = try r.flag("frame_mbs_only_flag")
    if !frameMbsOnly { try r.skip(1, "mb_adaptive_frame_field_flag") }
    try r.skip(1, "direct_8x8_inference_flag")
    var crop = [0, 0, 0, 0]
    if try r.flag("frame_cropping_flag") {
      for k in 0..<4 { crop[k] = Int(try r.ue("frame_crop_offset", max: 65535)) }
    }
    let arrayType = separateColourPlane ? 0 : chromaFormat
    let cropX = arrayType == 0 ? 1 : (arrayType == 3 ? 1 : 2)
    let cropY = (arrayType == 1 ? 2 : 1) * (frameMbsOnly ? 1 : 2)
    let width = widthMbs * 16 - cropX * (crop[0] + crop[1])
    let height = heightUnits * 16 * (frameMbsOnly ? 1 : 2) - cropY * (crop[2] + crop[3])
    guard width > 0, height > 0 else {
      throw r.error(.malformed, "the frame cropping leaves no picture")
    }
    return (width, height)
  }

  /// The codecs value of the first sequence parameter set in Annex B bytes (`hevc`: an HEVC
  /// stream, base layer only; otherwise H.264), or nil when none of the first `limit` NAL units
  /// is a readable SPS.
  package static func firstSequenceParameterSet(
    inAnnexB bytes: ArraySlice<UInt8>, hevc: Bool, limit: Int = 256
  ) -> String? {
    for range in HEVCNALUnit.split(bytes).prefix(limit) where range.count >= 2 {
      if hevc {
        guard HEVCNALUnit.type(bytes, at: range.lowerBound) == HEVCNALUnit.sequenceParameterSet,
          HEVCNALUnit.layer(bytes, at: range.lowerBound) == 0
        else { continue }
        if let profile = try? HEVCGeneralProfile(sequenceParameterSet: bytes[range]) {
          return profile.codecString
        }
      } else if bytes[range.lowerBound] & 0x1F == 7 {
        if let value = try? avc1(sequenceParameterSet: bytes[range]) { return value }
      }
    }
    return nil
  }

  private static func hex(_ value: UInt32, digits: Int = 1) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
