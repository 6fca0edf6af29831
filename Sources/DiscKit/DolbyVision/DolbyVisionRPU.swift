/// Dolby Vision reference processing unit (RPU) NAL units (HEVC `nal_unit_type` 62, `UNSPEC62`)
/// rewritten from a dual-layer profile 7 stream (a UHD Blu-ray's enhancement layer on PID 0x1015)
/// to single-layer profile 8.1, so that they ride in the base layer's access units.
///
/// The rule is dovi_tool's conversion mode 2 (`dolby_vision` crate, `convert_with_mode(2)`), read
/// for its facts:
/// - header: `el_spatial_resampling_filter_flag` 0, `disable_residual_flag` 1 (which drops the
///   NLQ method and pivots from the mapping); every other header field kept;
/// - mapping: one partition (`num_x_partitions_minus1` and `num_y_partitions_minus1` 0) and no
///   NLQ parameters; the luma and chroma curves kept, except for a full enhancement layer (FEL:
///   NLQ parameters other than the minimal enhancement layer's zero offsets and slopes), whose
///   curves become the identity (one piece per component, pivots 0 and 1023, a first-order
///   polynomial 0 + 1·x), since without the layer's residual the base layer is the picture;
/// - display management: the YCbCr-to-RGB and RGB-to-LMS matrices and offsets set to profile
///   8.1's (BT.2020 limited range) and `signal_color_space` 0; the extension blocks (CM v2.9 and
///   v4.0: L1, L2, L5, L6, …) and any bits after them kept as they are (only their alignment
///   padding moves);
/// - the CRC-32 (MPEG-2) over the payload after the 0x19 prefix recomputed, the 0x80 terminator,
///   emulation prevention bytes inserted again.
///
/// The syntax is the one libavcodec's `dovi_rpu.c` reads. An RPU this cannot read or convert
/// (another RPU type or format, coefficients in floating point, a CRC that does not match, a
/// polynomial with linear interpolation) throws a typed error with the byte offset reached; the
/// caller plays that frame without an RPU (HDR10).
package enum DolbyVisionRPU {
  /// What the source RPU's enhancement layer is, by its NLQ parameters.
  package enum EnhancementLayer: String, Sendable, Hashable {
    /// No NLQ parameters (`disable_residual_flag` 1): nothing to drop.
    case none
    /// Minimal enhancement layer: zero offsets and slopes (the mapping is kept).
    case minimal
    /// Full enhancement layer: its residual is lost, the mapping becomes the identity.
    case full
  }

  /// A converted RPU NAL unit (header included, emulation prevention in) and what its source
  /// carried.
  package struct Converted: Sendable, Hashable {
    package var nal: [UInt8]
    package var source: EnhancementLayer
  }

  /// Profile 8.1's YCbCr-to-RGB matrix (9 coefficients, /8192), offsets (/2^28) and RGB-to-LMS
  /// matrix (/16384).
  static let yccToRGB: [Int16] = [9574, 0, 13802, 9574, -1540, -5348, 9574, 17610, 0]
  static let yccToRGBOffsets: [UInt32] = [16_777_216, 134_217_728, 134_217_728]
  static let rgbToLMS: [Int16] = [7222, 8771, 390, 2654, 12430, 1300, 0, 422, 15962]

  /// Whether `nal` (a NAL unit without start code) is an HEVC `UNSPEC62` NAL unit.
  package static func isRPU(_ nal: ArraySlice<UInt8>) -> Bool {
    nal.count > 2 && (nal[nal.startIndex] >> 1) & 0x3F == 62
  }

  /// The profile 8.1 RPU of `nal`, a profile 7 (or 8) RPU NAL unit (header included, emulation
  /// prevention in) whose first byte is at absolute offset `offset`.
  ///
  /// - Throws: ``DiscKitError/Code/checksumMismatch`` for a CRC that does not match,
  ///   ``DiscKitError/Code/unsupported`` for an RPU outside what the conversion handles,
  ///   ``DiscKitError/Code/malformed`` or ``DiscKitError/Code/truncated`` for bad syntax.
  package static func profile81(_ nal: ArraySlice<UInt8>, offset: Int64 = 0)
    throws(DiscKitError) -> Converted
  {
    let structure = "Dolby Vision RPU"
    guard isRPU(nal) else {
      throw DiscKitError(.malformed, structure, at: offset, "not a NAL unit of type 62")
    }
    var r = RBSPBitReader(
      payload: nal.dropFirst(2), baseOffset: offset + 2, structure: structure)
    // The payload: 0x19, the RPU data, CRC-32, 0x80, then maybe zero bytes.
    var end = r.rbsp.count
    while end > 0, r.rbsp[end - 1] == 0 { end -= 1 }
    guard end >= 7 else {
      throw r.error(.truncated, "\(end) bytes before trailing zeros; an RPU has at least 7")
    }
    guard r.rbsp[end - 1] == 0x80 else {
      throw DiscKitError(
        .malformed, structure, at: r.absoluteOffset(ofRBSPByte: end - 1),
        "the last byte is 0x\(String(r.rbsp[end - 1], radix: 16)), not 0x80")
    }
    let crcAt = end - 5
    let stored = r.rbsp[crcAt..<(end - 1)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let computed = MPEGCRC32.checksum(r.rbsp[1..<crcAt])
    guard stored == computed else {
      throw DiscKitError(
        .checksumMismatch, structure, at: r.absoluteOffset(ofRBSPByte: crcAt),
        "CRC-32 0x\(String(stored, radix: 16)) stored, 0x\(String(computed, radix: 16)) computed")
    }
    let dataEnd = crcAt * 8
    var w = RPUBitWriter()
    func within(_ field: String) throws(DiscKitError) {
      guard r.bit <= dataEnd else {
        throw r.error(.truncated, "\(field) runs into the CRC-32")
      }
    }

    // Header.
    guard try r.bits(8, "rpu_nal_prefix") == 25 else {
      throw r.error(.malformed, "rpu_nal_prefix is not 25")
    }
    w.put(25, 8)
    let rpuType = try r.bits(6, "rpu_type")
    guard rpuType == 2 else { throw r.error(.unsupported, "rpu_type \(rpuType) (2 expected)") }
    let format = try r.bits(11, "rpu_format")
    let rpuProfile = try r.bits(4, "vdr_rpu_profile")
    let rpuLevel = try r.bits(4, "vdr_rpu_level")
    guard rpuProfile == 1, rpuLevel == 0 else {
      throw r.error(
        .unsupported,
        "vdr_rpu_profile \(rpuProfile), vdr_rpu_level \(rpuLevel): profile 7 has 1 and 0")
    }
    guard try r.flag("vdr_seq_info_present_flag") else {
      throw r.error(.unsupported, "no sequence information (vdr_seq_info_present_flag 0)")
    }
    guard format & 0x700 == 0 else {
      throw r.error(.unsupported, "rpu_format 0x\(String(format, radix: 16)) has no bit depths")
    }
    w.put(UInt64(rpuType), 6)
    w.put(UInt64(format), 11)
    w.put(UInt64(rpuProfile), 4)
    w.put(UInt64(rpuLevel), 4)
    w.put(1, 1)
    w.put(UInt64(try r.bits(1, "chroma_resampling_explicit_filter_flag")), 1)
    let coefficientType = try r.bits(2, "coefficient_data_type")
    guard coefficientType == 0 else {
      throw r.error(.unsupported, "coefficient_data_type \(coefficientType) (floating point)")
    }
    w.put(0, 2)
    let denominator = Int(try r.ue("coefficient_log2_denom", max: 23))
    w.ue(UInt32(denominator))
    w.put(UInt64(try r.bits(2, "vdr_rpu_normalized_idc")), 2)
    w.put(UInt64(try r.bits(1, "bl_video_full_range_flag")), 1)
    let blDepth = try r.ue("bl_bit_depth_minus8")
    let elDepthField = try r.ue("el_bit_depth_minus8")
    let vdrDepth = try r.ue("vdr_bit_depth_minus8", max: 6)
    guard blDepth == 2, elDepthField & 0xFF == 2 else {
      throw r.error(
        .unsupported,
        "base layer \(blDepth + 8) bits, enhancement layer \((elDepthField & 0xFF) + 8) bits (10 expected)"
      )
    }
    w.ue(blDepth)
    w.ue(elDepthField)
    w.ue(vdrDepth)
    w.put(UInt64(try r.bits(1, "spatial_resampling_filter_flag")), 1)
    let reserved = try r.bits(3, "reserved_zero_3bits")
    w.put(UInt64(reserved), 3)
    let elResampling = try r.flag("el_spatial_resampling_filter_flag")
    let noResidual = try r.flag("disable_residual_flag")
    if elResampling, !noResidual, vdrDepth != 4 {
      throw r.error(.unsupported, "profile 4 (a \(vdrDepth + 8)-bit VDR with residual)")
    }
    w.put(0, 1)  // el_spatial_resampling_filter_flag
    w.put(1, 1)  // disable_residual_flag
    let dmPresent = try r.flag("vdr_dm_metadata_present_flag")
    w.put(dmPresent ? 1 : 0, 1)
    let usePrevious = try r.flag("use_prev_vdr_rpu_flag")
    w.put(usePrevious ? 1 : 0, 1)
    var source = EnhancementLayer.none
    if usePrevious {
      w.ue(try r.ue("prev_vdr_rpu_id", max: 15))
    } else {
      // Mapping: the curves' pivots, NLQ method and pivots (left out), partitions (one).
      w.ue(try r.ue("vdr_rpu_id", max: 15))
      let colourSpace = try r.ue("mapping_color_space")
      let chromaFormat = try r.ue("mapping_chroma_format_idc")
      guard colourSpace == 0, chromaFormat == 0 else {
        throw r.error(
          .unsupported,
          "mapping_color_space \(colourSpace), mapping_chroma_format_idc \(chromaFormat)")
      }
      w.ue(0)
      w.ue(0)
      let pivotsStart = r.bit
      var pieces: [Int] = []
      for c in 0..<3 {
        let pivots = Int(try r.ue("num_pivots_minus2[\(c)]", max: 7)) + 2
        try r.skip(pivots * 10, "pred_pivot_value[\(c)]")
        pieces.append(pivots - 1)
      }
      let pivotsEnd = r.bit
      if !noResidual {
        let method = try r.bits(3, "nlq_method_idc")
        guard method == 0 else { throw r.error(.unsupported, "nlq_method_idc \(method)") }
        try r.skip(20, "nlq_pred_pivot_value")
      }
      _ = try r.ue("num_x_partitions_minus1")
      _ = try r.ue("num_y_partitions_minus1")
      let curvesStart = r.bit
      for c in 0..<3 {
        for p in 0..<pieces[c] {
          let mapping = try r.ue("mapping_idc[\(c)][\(p)]")
          switch mapping {
          case 0:
            let order = try r.ue("poly_order_minus1[\(c)][\(p)]", max: 1)
            if order == 0, try r.flag("linear_interp_flag[\(c)][\(p)]") {
              throw r.error(.unsupported, "a polynomial with linear interpolation")
            }
            for _ in 0..<(Int(order) + 2) {
              _ = try r.se("poly_coef_int")
              try r.skip(denominator, "poly_coef")
            }
          case 1:
            let order = try r.bits(2, "mmr_order_minus1[\(c)][\(p)]")
            guard order <= 2 else { throw r.error(.malformed, "mmr_order_minus1 \(order)") }
            _ = try r.se("mmr_constant_int")
            try r.skip(denominator, "mmr_constant")
            for _ in 0..<((Int(order) + 1) * 7) {
              _ = try r.se("mmr_coef_int")
              try r.skip(denominator, "mmr_coef")
            }
          default:
            throw r.error(.malformed, "mapping_idc \(mapping)")
          }
        }
      }
      let curvesEnd = r.bit
      if !noResidual {
        var minimal = true
        for c in 0..<3 {
          if try r.bits(10, "nlq_offset[\(c)]") != 0 { minimal = false }
          if try r.ue("vdr_in_max_int[\(c)]") != 1 { minimal = false }
          if try r.bits(denominator, "vdr_in_max[\(c)]") != 0 { minimal = false }
          if try r.ue("linear_deadzone_slope_int[\(c)]") != 0 { minimal = false }
          if try r.bits(denominator, "linear_deadzone_slope[\(c)]") != 0 { minimal = false }
          if try r.ue("linear_deadzone_threshold_int[\(c)]") != 0 { minimal = false }
          if try r.bits(denominator, "linear_deadzone_threshold[\(c)]") != 0 { minimal = false }
        }
        source = minimal ? .minimal : .full
      }
      try within("the mapping")
      if source == .full {
        // The identity: one piece, pivots 0 and 1023, 0 + 1·x.
        for _ in 0..<3 {
          w.ue(0)
          w.put(0, 10)
          w.put(1023, 10)
        }
        w.ue(0)
        w.ue(0)
        for _ in 0..<3 {
          w.ue(0)  // mapping_idc: polynomial
          w.ue(0)  // poly_order_minus1
          w.put(0, 1)  // linear_interp_flag
          w.se(0)
          w.put(0, denominator)
          w.se(1)
          w.put(0, denominator)
        }
      } else {
        w.copy(r.rbsp, from: pivotsStart, to: pivotsEnd)
        w.ue(0)
        w.ue(0)
        w.copy(r.rbsp, from: curvesStart, to: curvesEnd)
      }
    }
    if dmPresent {
      w.ue(try r.ue("affected_dm_metadata_id", max: 15))
      w.ue(try r.ue("current_dm_metadata_id"))
      w.ue(try r.ue("scene_refresh_flag"))
      if reserved != 1 {
        // Uncompressed: the matrices (profile 8.1's), the signal and source fields kept.
        try r.skip(9 * 16 + 3 * 32 + 9 * 16, "ycc_to_rgb and rgb_to_lms")
        for v in yccToRGB { w.put(UInt64(UInt16(bitPattern: v)), 16) }
        for v in yccToRGBOffsets { w.put(UInt64(v), 32) }
        for v in rgbToLMS { w.put(UInt64(UInt16(bitPattern: v)), 16) }
        let signalStart = r.bit
        try r.skip(16 + 16 + 16 + 32 + 5, "signal_eotf … signal_bit_depth")
        w.copy(r.rbsp, from: signalStart, to: r.bit)
        _ = try r.bits(2, "signal_color_space")
        w.put(0, 2)
        let sourceStart = r.bit
        try r.skip(2 + 2 + 12 + 12 + 10, "signal_chroma_format … source_diagonal")
        w.copy(r.rbsp, from: sourceStart, to: r.bit)
      }
      try within("the display management data")
      // The extension blocks: CM v2.9, then CM v4.0 when at least 16 bits are left.
      for version in ["v2.9", "v4.0"] {
        if version == "v4.0", dataEnd - r.bit < 16 { break }
        let count = try r.ue("num_ext_blocks (CM \(version))")
        w.ue(count)
        try zeroAlignment(&r, "dm_alignment_zero_bit")
        w.align()
        for k in 0..<Int(count) {
          let length = try r.ue("ext_block_length[\(k)]")
          let level = try r.bits(8, "ext_block_level[\(k)]")
          let start = r.bit
          guard Int(length) * 8 <= dataEnd - start else {
            throw r.error(
              .truncated,
              "extension block \(k) (level \(level)) of \(length) bytes runs into the CRC-32")
          }
          try r.skip(Int(length) * 8, "ext_block_payload[\(k)]")
          w.ue(length)
          w.put(UInt64(level), 8)
          w.copy(r.rbsp, from: start, to: r.bit)
        }
        try within("the extension blocks")
      }
    }
    try zeroAlignment(&r, "rpu_alignment_zero_bit")
    try within("the RPU data")
    w.align()
    w.copy(r.rbsp, from: r.bit, to: dataEnd)
    let crc = MPEGCRC32.checksum(w.bytes[1...])
    for shift in [24, 16, 8, 0] { w.bytes.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
    w.bytes.append(0x80)
    var out = [nal[nal.startIndex], nal[nal.startIndex + 1]]
    out.reserveCapacity(w.bytes.count * 17 / 16 + 2)
    var zeros = 0
    for b in w.bytes {
      if zeros >= 2, b <= 3 {
        out.append(3)
        zeros = 0
      }
      out.append(b)
      zeros = b == 0 ? zeros + 1 : 0
    }
    return Converted(nal: out, source: source)
  }

  private static func zeroAlignment(_ r: inout RBSPBitReader, _ field: String)
    throws(DiscKitError)
  {
    while !r.isByteAligned {
      guard try r.bits(1, field) == 0 else { throw r.error(.malformed, "\(field) is not 0") }
    }
  }
}

/// Bits written most significant first, with Exp-Golomb codes and copies of another buffer's bits.
struct RPUBitWriter {
  var bytes: [UInt8] = []
  var count = 0

  mutating func put(_ value: UInt64, _ n: Int) {
    var k = n
    while k > 0 {
      k -= 1
      if count & 7 == 0 { bytes.append(0) }
      if (value >> UInt64(k)) & 1 != 0 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count & 7) }
      count += 1
    }
  }

  mutating func ue(_ value: UInt32) {
    let v = UInt64(value) + 1
    let n = 64 - v.leadingZeroBitCount
    put(0, n - 1)
    put(v, n)
  }

  mutating func se(_ value: Int64) {
    ue(UInt32(value > 0 ? 2 * value - 1 : -2 * value))
  }

  mutating func align() {
    while count & 7 != 0 { put(0, 1) }
  }

  /// Bits `from..<to` of `source`.
  mutating func copy(_ source: [UInt8], from: Int, to: Int) {
    var bit = from
    while bit < to {
      if count & 7 == 0, bit & 7 == 0, to - bit >= 8 {
        let n = (to - bit) / 8
        bytes.append(contentsOf: source[(bit / 8)..<(bit / 8 + n)])
        bit += n * 8
        count += n * 8
        continue
      }
      put(UInt64(source[bit >> 3] >> (7 - UInt8(bit & 7)) & 1), 1)
      bit += 1
    }
  }
}
