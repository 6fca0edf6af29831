/// The DVD-Video player registers: 16 general parameters (GPRM, each in register or counter
/// mode) and 24 system parameters (SPRM).
///
/// The defaults are libdvdnav's `vm_reset`: menu, audio and subpicture language "en", audio
/// stream 15, subpicture stream 62, angle 1, title 1, chapter 1, highlighted button 1, parental
/// level 15, country "US", region mask 1 (region free), preferred display Pan & Scan.
///
/// The registers are stored inline (fixed-size vectors, no heap storage), so a copy of the VM
/// copies them without reference counting and they hash cheaply as part of a search state.
@_spi(Formats)
public struct DVDRegisters: Sendable, Hashable {
  /// GPRM 0-15, as set (a counter's value at the time it was set).
  var gp = SIMD16<UInt16>()
  /// SPRM 0-23 (lanes 24-31 are always 0: a command can name those numbers, players have none).
  var sp = SIMD32<UInt16>()
  /// Bit `i`: GPRM `i` counts seconds (counter mode) instead of holding its value.
  var counters: UInt16 = 0
  /// For a GPRM in counter mode, the simulated clock (seconds) at which it would have read 0.
  var counterBase = SIMD16<Int64>()

  /// GPRM 0-15.
  public var general: [UInt16] {
    get { (0..<16).map { gp[$0] } }
    set {
      for i in 0..<16 { gp[i] = i < newValue.count ? newValue[i] : 0 }
    }
  }

  /// Whether each GPRM counts seconds (counter mode) instead of holding its value.
  public var counterMode: [Bool] {
    get { (0..<16).map { counters >> $0 & 1 != 0 } }
    set {
      counters = 0
      for i in 0..<min(16, newValue.count) where newValue[i] { counters |= 1 << i }
    }
  }

  /// SPRM 0-23.
  public var system: [UInt16] {
    get { (0..<24).map { sp[$0] } }
    set {
      for i in 0..<24 { sp[i] = i < newValue.count ? newValue[i] : 0 }
    }
  }

  /// The registers a player starts with.
  public init() {
    sp[0] = 0x656E  // "en": menu language
    sp[1] = 15  // audio stream
    sp[2] = 62  // subpicture stream
    sp[3] = 1  // angle
    sp[4] = 1  // title (TTN)
    sp[5] = 1  // title in title set (VTS_TTN)
    sp[7] = 1  // chapter (PTTN)
    sp[8] = 1 << 10  // highlighted button
    sp[12] = 0x5553  // "US": parental country
    sp[13] = 15  // parental level
    sp[14] = 0x100  // preferred display: Pan & Scan
    sp[16] = 0x656E  // initial audio language
    sp[18] = 0x656E  // initial subpicture language
    sp[20] = 1  // region mask
  }

  /// Whether GPRM `index` (0-15) is in counter mode.
  func isCounter(_ index: Int) -> Bool { counters >> (index & 0x0F) & 1 != 0 }

  /// Puts GPRM `index` in counter mode or register mode.
  mutating func setCounterMode(_ index: Int, _ on: Bool) {
    let bit: UInt16 = 1 << UInt16(index & 0x0F)
    if on { counters |= bit } else { counters &= ~bit }
  }

  /// GPRM `index` at simulated time `clock` (seconds): a counter reads the seconds since it was set.
  func gprm(_ index: Int, clock: Int64) -> UInt16 {
    let i = index & 0x0F
    if isCounter(i) { return UInt16(truncatingIfNeeded: clock - counterBase[i]) }
    return gp[i]
  }

  /// Sets GPRM `index` at simulated time `clock`.
  mutating func setGPRM(_ index: Int, _ value: UInt16, clock: Int64) {
    let i = index & 0x0F
    if isCounter(i) { counterBase[i] = clock - Int64(value) }
    gp[i] = value
  }

  /// SPRM `index`, 0 for the numbers 24-31 a command can name but players do not have.
  func sprm(_ index: Int) -> UInt16 { index >= 0 && index < 24 ? sp[index] : 0 }
}
