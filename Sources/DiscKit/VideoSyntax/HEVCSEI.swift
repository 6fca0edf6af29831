/// The HDR static metadata SEI messages of HEVC (H.265 D.2.28 and D.2.35), as coded.
@_spi(Formats)
public enum HEVCSEI {
  /// `mastering_display_colour_volume` (payload type 137; SMPTE ST 2086): the mastering
  /// display's primaries and white point in units of 0.00002 and its luminance range in units of
  /// 0.0001 cd/m².
  public struct MasteringDisplayColourVolume: Sendable, Hashable, Codable {
    /// `display_primaries_x/y[c]` in coded order (HEVC codes green, blue, red).
    public var primaries: [Chromaticity]
    /// `white_point_x/y`.
    public var whitePoint: Chromaticity
    /// `max_display_mastering_luminance` (0.0001 cd/m²).
    public var maxLuminance: UInt32
    /// `min_display_mastering_luminance` (0.0001 cd/m²).
    public var minLuminance: UInt32

    /// The red primary (coded third).
    public var red: Chromaticity { primaries[2] }
    /// The green primary (coded first).
    public var green: Chromaticity { primaries[0] }
    /// The blue primary (coded second).
    public var blue: Chromaticity { primaries[1] }

    /// A CIE 1931 chromaticity in units of 0.00002.
    public struct Chromaticity: Sendable, Hashable, Codable {
      /// x (0...50000).
      public var x: UInt16
      /// y (0...50000).
      public var y: UInt16
      /// A chromaticity.
      public init(x: UInt16, y: UInt16) {
        self.x = x
        self.y = y
      }
    }

    /// Values as an HEVC SEI codes them.
    public init(
      primaries: [Chromaticity], whitePoint: Chromaticity, maxLuminance: UInt32,
      minLuminance: UInt32
    ) {
      self.primaries = primaries
      self.whitePoint = whitePoint
      self.maxLuminance = maxLuminance
      self.minLuminance = minLuminance
    }
  }

  /// `content_light_level_info` (payload type 144; CTA-861.3 MaxCLL and MaxFALL in cd/m²).
  public struct ContentLightLevel: Sendable, Hashable, Codable {
    /// `max_content_light_level` (MaxCLL).
    public var maxContentLightLevel: UInt16
    /// `max_pic_average_light_level` (MaxFALL).
    public var maxPictureAverageLightLevel: UInt16
    /// Values as an HEVC SEI codes them.
    public init(maxContentLightLevel: UInt16, maxPictureAverageLightLevel: UInt16) {
      self.maxContentLightLevel = maxContentLightLevel
      self.maxPictureAverageLightLevel = maxPictureAverageLightLevel
    }
  }

  /// What one SEI NAL unit says about HDR.
  struct Messages {
    var masteringDisplay: MasteringDisplayColourVolume?
    var contentLightLevel: ContentLightLevel?
  }

  /// Parses the `sei_message()`s of an SEI NAL unit (`nal` from its two-byte header, emulation
  /// prevention bytes in) and returns the mastering display and content light level messages;
  /// other messages are skipped by their size.
  static func parse(_ nal: ArraySlice<UInt8>, offset: Int64) throws(DiscKitError) -> Messages {
    var r = RBSPBitReader(
      payload: nal.dropFirst(2), baseOffset: offset + 2, structure: "HEVC SEI message")
    var messages = Messages()
    // more_rbsp_data(): something before the rbsp_trailing_bits (a final 0x80).
    while r.bitsLeft > 8 || (r.bitsLeft == 8 && r.rbsp[r.bytePosition] != 0x80) {
      var type = 0
      var byte = try r.bits(8, "last_payload_type_byte")
      while byte == 0xFF {
        type += 255
        guard type < 65536 else { throw r.error(.malformed, "an SEI payload type over 65535") }
        byte = try r.bits(8, "ff_byte")
      }
      type += Int(byte)
      var size = 0
      byte = try r.bits(8, "last_payload_size_byte")
      while byte == 0xFF {
        size += 255
        byte = try r.bits(8, "ff_byte")
      }
      size += Int(byte)
      guard size * 8 <= r.bitsLeft else {
        throw r.error(
          .truncated,
          "an SEI message of type \(type) declares \(size) bytes; \(r.bitsLeft / 8) are left")
      }
      let end = r.bytePosition + size
      switch type {
      case 137 where size >= 24:
        var primaries: [MasteringDisplayColourVolume.Chromaticity] = []
        for _ in 0..<3 {
          let x = UInt16(try r.bits(16, "display_primaries_x"))
          let y = UInt16(try r.bits(16, "display_primaries_y"))
          primaries.append(.init(x: x, y: y))
        }
        let wx = UInt16(try r.bits(16, "white_point_x"))
        let wy = UInt16(try r.bits(16, "white_point_y"))
        let maxL = try r.bits(32, "max_display_mastering_luminance")
        let minL = try r.bits(32, "min_display_mastering_luminance")
        messages.masteringDisplay = MasteringDisplayColourVolume(
          primaries: primaries, whitePoint: .init(x: wx, y: wy), maxLuminance: maxL,
          minLuminance: minL)
      case 144 where size >= 4:
        let cll = UInt16(try r.bits(16, "max_content_light_level"))
        let fall = UInt16(try r.bits(16, "max_pic_average_light_level"))
        messages.contentLightLevel = ContentLightLevel(
          maxContentLightLevel: cll, maxPictureAverageLightLevel: fall)
      default:
        break
      }
      try r.skip(end * 8 - r.bit, "sei_payload")
    }
    return messages
  }
}
