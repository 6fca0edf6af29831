/// The DVD-Video player registers: 16 general parameters (GPRM, each in register or counter
/// mode) and 24 system parameters (SPRM).
///
/// The defaults are libdvdnav's `vm_reset`: menu, audio and subpicture language "en", audio
/// stream 15, subpicture stream 62, angle 1, title 1, chapter 1, highlighted button 1, parental
/// level 15, country "US", region mask 1 (region free), preferred display Pan & Scan.
@_spi(Formats)
public struct DVDRegisters: Sendable, Hashable {
  /// GPRM 0-15.
  public var general: [UInt16]
  /// Whether each GPRM counts seconds (counter mode) instead of holding its value.
  public var counterMode: [Bool]
  /// For a GPRM in counter mode, the simulated clock (seconds) at which it would have read 0.
  var counterBase: [Int64]
  /// SPRM 0-23.
  public var system: [UInt16]

  /// The registers a player starts with.
  public init() {
    general = Array(repeating: 0, count: 16)
    counterMode = Array(repeating: false, count: 16)
    counterBase = Array(repeating: 0, count: 16)
    var s = [UInt16](repeating: 0, count: 24)
    s[0] = 0x656E  // "en": menu language
    s[1] = 15  // audio stream
    s[2] = 62  // subpicture stream
    s[3] = 1  // angle
    s[4] = 1  // title (TTN)
    s[5] = 1  // title in title set (VTS_TTN)
    s[7] = 1  // chapter (PTTN)
    s[8] = 1 << 10  // highlighted button
    s[12] = 0x5553  // "US": parental country
    s[13] = 15  // parental level
    s[14] = 0x100  // preferred display: Pan & Scan
    s[16] = 0x656E  // initial audio language
    s[18] = 0x656E  // initial subpicture language
    s[20] = 1  // region mask
    system = s
  }

  /// GPRM `index` at simulated time `clock` (seconds): a counter reads the seconds since it was set.
  func gprm(_ index: Int, clock: Int64) -> UInt16 {
    let i = index & 0x0F
    if counterMode[i] { return UInt16(truncatingIfNeeded: clock - counterBase[i]) }
    return general[i]
  }

  /// Sets GPRM `index` at simulated time `clock`.
  mutating func setGPRM(_ index: Int, _ value: UInt16, clock: Int64) {
    let i = index & 0x0F
    if counterMode[i] { counterBase[i] = clock - Int64(value) }
    general[i] = value
  }

  /// SPRM `index`, 0 for the numbers 24-31 a command can name but players do not have.
  func sprm(_ index: Int) -> UInt16 { index < system.count ? system[index] : 0 }
}
