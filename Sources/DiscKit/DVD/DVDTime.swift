/// A DVD playback time (`dvd_time_t`): BCD hours, minutes, seconds and frames, with the frame
/// rate in the two high bits of the frame byte (`01` = 25 fps, `11` = 29.97 fps).
@_spi(Formats)
public struct DVDTime: Sendable, Hashable {
  /// BCD hours.
  public var hour: UInt8
  /// BCD minutes.
  public var minute: UInt8
  /// BCD seconds.
  public var second: UInt8
  /// Frame rate code (bits 7-6) and BCD frames (bits 5-0).
  public var frameByte: UInt8

  /// Creates a time from its four raw bytes.
  public init(hour: UInt8, minute: UInt8, second: UInt8, frameByte: UInt8) {
    self.hour = hour
    self.minute = minute
    self.second = second
    self.frameByte = frameByte
  }

  /// Reads the four bytes of a `dvd_time_t`.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    hour = try reader.readUInt8()
    minute = try reader.readUInt8()
    second = try reader.readUInt8()
    frameByte = try reader.readUInt8()
  }

  /// The frame-rate code: 1 is 25 fps, 3 is 29.97 fps; 0 and 2 are illegal.
  public var frameRateCode: Int { Int(frameByte >> 6) }

  /// The frame rate lsdvd prints (`25.00`, `29.97`, or -1 for illegal codes).
  public var framesPerSecond: Double {
    switch frameRateCode {
    case 1: 25.0
    case 3: 29.97
    default: -1.0
    }
  }

  @inline(__always)
  static func bcd(_ value: UInt8) -> Int { Int(value >> 4) * 10 + Int(value & 0x0f) }

  /// The frame count (BCD, tens in bits 5-4).
  public var frames: Int { Int((frameByte & 0x30) >> 4) * 10 + Int(frameByte & 0x0f) }

  /// Whole seconds (hours, minutes and seconds).
  public var wholeSeconds: Int {
    DVDTime.bcd(hour) * 3600 + DVDTime.bcd(minute) * 60 + DVDTime.bcd(second)
  }

  /// Milliseconds exactly as lsdvd's `dvdtime2msec` computes them: frames are converted with
  /// 25 or 29.97 fps in floating point and the sum is truncated; illegal frame-rate codes drop the
  /// frames.
  public var lsdvdMilliseconds: Int {
    var ms = wholeSeconds * 1000
    let fps = framesPerSecond
    if fps > 0 {
      ms = Int(Double(ms) + Double(frames) * 1000.0 / fps)
    }
    return ms
  }

  /// The time in 90 kHz ticks as libdvdnav's `dvdnav_convert_time` computes it: 3000 ticks per
  /// frame when bit 7 of the frame byte is set (30 fps), 3600 otherwise (25 fps).
  public var ticks90k: Int64 {
    let perFrame: Int64 = frameByte & 0x80 != 0 ? 3000 : 3600
    return Int64(wholeSeconds) * 90_000 + Int64(frames) * perFrame
  }
}
