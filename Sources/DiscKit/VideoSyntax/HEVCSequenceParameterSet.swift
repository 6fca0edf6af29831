/// The parts of an HEVC sequence parameter set (ITU-T H.265 7.3.2.2) a container needs: the
/// picture size, chroma format, bit depths and the VUI's video signal type (colour primaries,
/// transfer characteristics, matrix coefficients, range), with the ITU-T H.273 code points as
/// coded.
@_spi(Formats)
public struct HEVCSequenceParameterSet: Sendable, Hashable, Codable {
  /// `general_profile_idc` (1 Main, 2 Main 10, 4 range extensions).
  public var profile: Int
  /// `general_level_idc` (30 × the level number).
  public var level: Int
  /// `chroma_format_idc` (0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4).
  public var chromaFormat: Int
  /// The picture width in luma samples after the conformance window.
  public var width: Int
  /// The picture height in luma samples after the conformance window.
  public var height: Int
  /// `BitDepthY`.
  public var lumaBitDepth: Int
  /// `BitDepthC`.
  public var chromaBitDepth: Int
  /// The VUI's video signal type; `nil` when the SPS has no VUI or the VUI no signal type.
  public var videoSignal: HEVCVideoSignal?
  /// `chroma_sample_loc_type_top_field` when the VUI gives it.
  public var chromaSampleLocation: Int?

  /// Parses a sequence parameter set NAL unit: `nal` is the whole NAL unit (its two-byte header
  /// first, emulation prevention bytes still in), starting at absolute offset `offset`.
  ///
  /// - Throws: ``DiscKitError`` (structure `HEVC sequence parameter set`) when the NAL unit is
  ///   not an SPS, ends early, or a field is outside the range H.265 allows.
  public init(parsing nal: ArraySlice<UInt8>, offset: Int64 = 0) throws(DiscKitError) {
    let structure = "HEVC sequence parameter set"
    guard nal.count >= 2 else {
      throw DiscKitError(.truncated, structure, at: offset, "a NAL unit header needs 2 bytes")
    }
    let type = (nal[nal.startIndex] >> 1) & 0x3F
    guard type == HEVCNALUnit.sequenceParameterSet else {
      throw DiscKitError(
        .malformed, structure, at: offset, "NAL unit type \(type) is not an SPS (33)")
    }
    var r = RBSPBitReader(
      payload: nal.dropFirst(2), baseOffset: offset + 2, structure: structure)
    try r.skip(4, "sps_video_parameter_set_id")
    let maxSubLayersMinus1 = Int(try r.bits(3, "sps_max_sub_layers_minus1"))
    guard maxSubLayersMinus1 <= 6 else {
      throw r.error(
        .malformed, "sps_max_sub_layers_minus1 is \(maxSubLayersMinus1); the largest allowed is 6")
    }
    try r.skip(1, "sps_temporal_id_nesting_flag")
    // profile_tier_level(1, sps_max_sub_layers_minus1)
    try r.skip(3, "general_profile_space, general_tier_flag")
    profile = Int(try r.bits(5, "general_profile_idc"))
    try r.skip(32 + 4 + 43 + 1, "general profile flags")
    level = Int(try r.bits(8, "general_level_idc"))
    var subProfile: [Bool] = []
    var subLevel: [Bool] = []
    for _ in 0..<maxSubLayersMinus1 {
      subProfile.append(try r.flag("sub_layer_profile_present_flag"))
      subLevel.append(try r.flag("sub_layer_level_present_flag"))
    }
    if maxSubLayersMinus1 > 0 {
      try r.skip(2 * (8 - maxSubLayersMinus1), "reserved_zero_2bits")
    }
    for i in 0..<maxSubLayersMinus1 {
      if subProfile[i] { try r.skip(88, "sub-layer profile") }
      if subLevel[i] { try r.skip(8, "sub_layer_level_idc") }
    }
    _ = try r.ue("sps_seq_parameter_set_id", max: 15)
    chromaFormat = Int(try r.ue("chroma_format_idc", max: 3))
    if chromaFormat == 3 { try r.skip(1, "separate_colour_plane_flag") }
    let codedWidth = Int(try r.ue("pic_width_in_luma_samples", max: 65535))
    let codedHeight = Int(try r.ue("pic_height_in_luma_samples", max: 65535))
    var crop = [0, 0, 0, 0]
    if try r.flag("conformance_window_flag") {
      for k in 0..<4 { crop[k] = Int(try r.ue("conf_win_offset", max: 65535)) }
    }
    let subWidth = chromaFormat == 1 || chromaFormat == 2 ? 2 : 1
    let subHeight = chromaFormat == 1 ? 2 : 1
    width = codedWidth - subWidth * (crop[0] + crop[1])
    height = codedHeight - subHeight * (crop[2] + crop[3])
    guard width > 0, height > 0 else {
      throw r.error(
        .malformed,
        "the conformance window (\(crop)) leaves no picture of \(codedWidth)x\(codedHeight)")
    }
    lumaBitDepth = 8 + Int(try r.ue("bit_depth_luma_minus8", max: 8))
    chromaBitDepth = 8 + Int(try r.ue("bit_depth_chroma_minus8", max: 8))
    let pocLSBBits = 4 + Int(try r.ue("log2_max_pic_order_cnt_lsb_minus4", max: 12))
    let orderingAll = try r.flag("sps_sub_layer_ordering_info_present_flag")
    for _ in (orderingAll ? 0 : maxSubLayersMinus1)...maxSubLayersMinus1 {
      _ = try r.ue("sps_max_dec_pic_buffering_minus1", max: 15)
      _ = try r.ue("sps_max_num_reorder_pics", max: 15)
      _ = try r.ue("sps_max_latency_increase_plus1")
    }
    for field in [
      "log2_min_luma_coding_block_size_minus3", "log2_diff_max_min_luma_coding_block_size",
      "log2_min_luma_transform_block_size_minus2", "log2_diff_max_min_luma_transform_block_size",
      "max_transform_hierarchy_depth_inter", "max_transform_hierarchy_depth_intra",
    ] {
      _ = try r.ue(field, max: 32)
    }
    if try r.flag("scaling_list_enabled_flag") {
      if try r.flag("sps_scaling_list_data_present_flag") { try Self.skipScalingListData(&r) }
    }
    try r.skip(2, "amp_enabled_flag, sample_adaptive_offset_enabled_flag")
    if try r.flag("pcm_enabled_flag") {
      try r.skip(8, "pcm_sample_bit_depth_minus1")
      _ = try r.ue("log2_min_pcm_luma_coding_block_size_minus3", max: 32)
      _ = try r.ue("log2_diff_max_min_pcm_luma_coding_block_size", max: 32)
      try r.skip(1, "pcm_loop_filter_disabled_flag")
    }
    let rpsCount = Int(try r.ue("num_short_term_ref_pic_sets", max: 64))
    var sets: [ShortTermReferenceSet] = []
    for i in 0..<rpsCount {
      sets.append(try ShortTermReferenceSet(parsing: &r, index: i, previous: sets.last))
    }
    if try r.flag("long_term_ref_pics_present_flag") {
      let count = Int(try r.ue("num_long_term_ref_pics_sps", max: 32))
      try r.skip(count * (pocLSBBits + 1), "lt_ref_pic_poc_lsb_sps, used_by_curr_pic_lt_sps_flag")
    }
    try r.skip(2, "sps_temporal_mvp_enabled_flag, strong_intra_smoothing_enabled_flag")
    videoSignal = nil
    chromaSampleLocation = nil
    guard try r.flag("vui_parameters_present_flag") else { return }
    // vui_parameters(), up to the chroma sample location.
    if try r.flag("aspect_ratio_info_present_flag") {
      if try r.bits(8, "aspect_ratio_idc") == 255 { try r.skip(32, "sar_width, sar_height") }
    }
    if try r.flag("overscan_info_present_flag") { try r.skip(1, "overscan_appropriate_flag") }
    if try r.flag("video_signal_type_present_flag") {
      let format = Int(try r.bits(3, "video_format"))
      let fullRange = try r.flag("video_full_range_flag")
      var signal = HEVCVideoSignal(videoFormat: format, fullRange: fullRange)
      if try r.flag("colour_description_present_flag") {
        signal.colourPrimaries = Int(try r.bits(8, "colour_primaries"))
        signal.transferCharacteristics = Int(try r.bits(8, "transfer_characteristics"))
        signal.matrixCoefficients = Int(try r.bits(8, "matrix_coeffs"))
      }
      videoSignal = signal
    }
    if try r.flag("chroma_loc_info_present_flag") {
      chromaSampleLocation = Int(try r.ue("chroma_sample_loc_type_top_field", max: 5))
      _ = try r.ue("chroma_sample_loc_type_bottom_field", max: 5)
    }
  }

  /// Skips `scaling_list_data()` (H.265 7.3.4).
  private static func skipScalingListData(_ r: inout RBSPBitReader) throws(DiscKitError) {
    for sizeID in 0..<4 {
      var matrixID = 0
      while matrixID < 6 {
        if try r.flag("scaling_list_pred_mode_flag") {
          let coefficients = min(64, 1 << (4 + (sizeID << 1)))
          if sizeID > 1 { _ = try r.se("scaling_list_dc_coef_minus8") }
          for _ in 0..<coefficients { _ = try r.se("scaling_list_delta_coef") }
        } else {
          _ = try r.ue(
            "scaling_list_pred_matrix_id_delta", max: UInt32(sizeID == 3 ? matrixID / 3 : matrixID))
        }
        matrixID += sizeID == 3 ? 3 : 1
      }
    }
  }

  /// One `st_ref_pic_set()` (H.265 7.3.7, with the derivation of 7.4.8): its delta POCs, which
  /// the next set may predict from.
  private struct ShortTermReferenceSet {
    var negative: [Int] = []
    var positive: [Int] = []
    var count: Int { negative.count + positive.count }

    init(parsing r: inout RBSPBitReader, index: Int, previous: ShortTermReferenceSet?)
      throws(DiscKitError)
    {
      if index != 0, let ref = previous, try r.flag("inter_ref_pic_set_prediction_flag") {
        // In an SPS the reference set is the previous one (delta_idx_minus1 is not coded).
        let sign = try r.bits(1, "delta_rps_sign")
        let magnitude = Int(try r.ue("abs_delta_rps_minus1", max: 32767)) + 1
        let deltaRPS = sign == 1 ? -magnitude : magnitude
        var useDelta: [Bool] = []
        for _ in 0...ref.count {
          let used = try r.flag("used_by_curr_pic_flag")
          useDelta.append(used ? true : try r.flag("use_delta_flag"))
        }
        let n0 = ref.negative.count
        for j in stride(from: ref.positive.count - 1, through: 0, by: -1) {
          let d = ref.positive[j] + deltaRPS
          if d < 0 && useDelta[n0 + j] { negative.append(d) }
        }
        if deltaRPS < 0 && useDelta[ref.count] { negative.append(deltaRPS) }
        for j in 0..<n0 {
          let d = ref.negative[j] + deltaRPS
          if d < 0 && useDelta[j] { negative.append(d) }
        }
        for j in stride(from: n0 - 1, through: 0, by: -1) {
          let d = ref.negative[j] + deltaRPS
          if d > 0 && useDelta[j] { positive.append(d) }
        }
        if deltaRPS > 0 && useDelta[ref.count] { positive.append(deltaRPS) }
        for j in 0..<ref.positive.count {
          let d = ref.positive[j] + deltaRPS
          if d > 0 && useDelta[n0 + j] { positive.append(d) }
        }
        guard count <= 16 else {
          throw r.error(
            .malformed, "a predicted reference picture set of \(count) pictures (at most 16)")
        }
      } else {
        let negatives = Int(try r.ue("num_negative_pics", max: 16))
        let positives = Int(try r.ue("num_positive_pics", max: UInt32(16 - negatives)))
        var poc = 0
        for _ in 0..<negatives {
          poc -= Int(try r.ue("delta_poc_s0_minus1", max: 32767)) + 1
          negative.append(poc)
          try r.skip(1, "used_by_curr_pic_s0_flag")
        }
        poc = 0
        for _ in 0..<positives {
          poc += Int(try r.ue("delta_poc_s1_minus1", max: 32767)) + 1
          positive.append(poc)
          try r.skip(1, "used_by_curr_pic_s1_flag")
        }
      }
    }
  }
}

/// The video signal type of an H.264/HEVC VUI: ITU-T H.273 code points as coded (e.g. colour
/// primaries 1 BT.709, 9 BT.2020; transfer 1 BT.709, 16 SMPTE ST 2084 (PQ), 18 ARIB STD-B67
/// (HLG); matrix 1 BT.709, 9 BT.2020 non-constant luminance).
@_spi(Formats)
public struct HEVCVideoSignal: Sendable, Hashable, Codable {
  /// `video_format` (0 component, 1 PAL, 2 NTSC, 5 unspecified).
  public var videoFormat: Int
  /// `video_full_range_flag`: full-range (0...2^n−1) rather than limited (broadcast) range.
  public var fullRange: Bool
  /// `colour_primaries`, when the colour description is present.
  public var colourPrimaries: Int?
  /// `transfer_characteristics`, when the colour description is present.
  public var transferCharacteristics: Int?
  /// `matrix_coeffs`, when the colour description is present.
  public var matrixCoefficients: Int?

  /// A signal type.
  public init(
    videoFormat: Int = 5, fullRange: Bool = false, colourPrimaries: Int? = nil,
    transferCharacteristics: Int? = nil, matrixCoefficients: Int? = nil
  ) {
    self.videoFormat = videoFormat
    self.fullRange = fullRange
    self.colourPrimaries = colourPrimaries
    self.transferCharacteristics = transferCharacteristics
    self.matrixCoefficients = matrixCoefficients
  }
}
