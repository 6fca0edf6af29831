/// A point or span on a title's timeline: one time type for the whole façade.
///
/// The unit is the MPEG system clock's 90 kHz tick, the unit of PES time stamps, so converting a
/// PTS is exact; Blu-ray navigation's 45 kHz values (kept inside the parsed MPLS/CLPI structures)
/// convert exactly too. Seconds and nanoseconds are conversions for people and for GStreamer-style
/// clocks.
///
/// ```swift
/// let start = MediaTime(seconds: 90)      // 8_100_000 ticks
/// title.playbackStart(at: start)
/// print(start)                            // 0:01:30.000
/// ```
public struct MediaTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// Ticks per second (90 kHz).
  public static let ticksPerSecond: Int64 = 90_000
  /// Zero.
  public static let zero = MediaTime(ticks: 0)

  /// The value in 90 kHz ticks.
  public var ticks: Int64

  /// A time of `ticks` 90 kHz ticks.
  public init(ticks: Int64) { self.ticks = ticks }

  /// A time of `ticks` 90 kHz ticks from an unsigned stream value (saturates at `Int64.max`).
  public init(clamping ticks: UInt64) { self.ticks = Int64(clamping: ticks) }

  /// A time from a 45 kHz Blu-ray navigation value (MPLS/CLPI `IN_time`, marks, durations).
  public init(ticks45k: UInt32) { self.ticks = Int64(ticks45k) * 2 }

  /// The time closest to `seconds` (rounded to the nearest tick; non-finite values give zero,
  /// values beyond the range saturate).
  public init(seconds: Double) {
    let scaled = (seconds * Double(Self.ticksPerSecond)).rounded()
    if !scaled.isFinite {
      ticks = 0
    } else if scaled >= 9.2e18 {
      ticks = .max
    } else if scaled <= -9.2e18 {
      ticks = .min
    } else {
      ticks = Int64(scaled)
    }
  }

  /// The time of `nanoseconds`, rounded toward zero to a whole tick.
  public init(nanoseconds: Int64) {
    let (q, r) = nanoseconds.quotientAndRemainder(dividingBy: 100_000)
    ticks = q * 9 + r * 9 / 100_000
  }

  /// The value in seconds.
  public var seconds: Double { Double(ticks) / Double(Self.ticksPerSecond) }

  /// The value in nanoseconds (saturating), the unit of GStreamer clock times.
  public var nanoseconds: Int64 {
    let (q, r) = ticks.quotientAndRemainder(dividingBy: 9)
    let (whole, overflow) = q.multipliedReportingOverflow(by: 100_000)
    if overflow { return ticks < 0 ? .min : .max }
    return whole + r * 100_000 / 9
  }

  /// The value in whole milliseconds (rounded toward zero).
  public var milliseconds: Int64 { ticks / 90 }

  /// The 33-bit PES time stamp of this time (modulo 2^33).
  public var pts: UInt64 { UInt64(bitPattern: ticks) & 0x1_FFFF_FFFF }

  /// `h:mm:ss.mmm` (a leading `-` for negative values).
  public var description: String {
    let magnitude = ticks.magnitude
    let millis = magnitude % 90_000 / 90
    let seconds = magnitude / 90_000
    func two(_ v: UInt64) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
    return
      "\(ticks < 0 ? "-" : "")\(seconds / 3600):\(two(seconds / 60 % 60)):\(two(seconds % 60)).\(ms)"
  }

  public static func < (a: MediaTime, b: MediaTime) -> Bool { a.ticks < b.ticks }
  public static func + (a: MediaTime, b: MediaTime) -> MediaTime {
    MediaTime(ticks: a.ticks &+ b.ticks)
  }
  public static func - (a: MediaTime, b: MediaTime) -> MediaTime {
    MediaTime(ticks: a.ticks &- b.ticks)
  }

  /// Encoded as its tick count.
  public init(from decoder: any Decoder) throws {
    ticks = try decoder.singleValueContainer().decode(Int64.self)
  }

  /// Encoded as its tick count.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(ticks)
  }
}
