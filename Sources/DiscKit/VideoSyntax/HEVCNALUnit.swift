/// HEVC NAL unit types and the Annex B byte-stream split (H.265 Annex B: NAL units after
/// `00 00 01` start codes).
@_spi(Formats)
public enum HEVCNALUnit {
  /// `VPS_NUT`.
  public static let videoParameterSet: UInt8 = 32
  /// `SPS_NUT`.
  public static let sequenceParameterSet: UInt8 = 33
  /// `PPS_NUT`.
  public static let pictureParameterSet: UInt8 = 34
  /// `PREFIX_SEI_NUT`.
  public static let prefixSEI: UInt8 = 39
  /// `SUFFIX_SEI_NUT`.
  public static let suffixSEI: UInt8 = 40

  /// The NAL units of an Annex B byte stream: each range starts at the NAL unit header (after
  /// its start code) and ends before the next start code (trailing zero bytes belong to the
  /// next start code and are left out). Bytes before the first start code are skipped.
  public static func split(_ bytes: ArraySlice<UInt8>) -> [Range<Int>] {
    var starts: [Int] = []
    var i = bytes.startIndex
    while i + 2 < bytes.endIndex {
      if bytes[i + 2] > 1 {
        i += 3
      } else if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
        starts.append(i + 3)
        i += 3
      } else {
        i += 1
      }
    }
    var units: [Range<Int>] = []
    for (k, start) in starts.enumerated() {
      var end = k + 1 < starts.count ? starts[k + 1] - 3 : bytes.endIndex
      while end > start, bytes[end - 1] == 0 { end -= 1 }
      if end > start { units.append(start..<end) }
    }
    return units
  }

  /// The `nal_unit_type` of the NAL unit starting at `bytes[start]`.
  static func type(_ bytes: ArraySlice<UInt8>, at start: Int) -> UInt8 {
    (bytes[start] >> 1) & 0x3F
  }

  /// The `nuh_layer_id` of the NAL unit starting at `bytes[start]` (needs two bytes).
  static func layer(_ bytes: ArraySlice<UInt8>, at start: Int) -> Int {
    Int(bytes[start] & 1) << 5 | Int(bytes[start + 1] >> 3)
  }
}
