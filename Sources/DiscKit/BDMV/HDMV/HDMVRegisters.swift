/// The HDMV register file: 4096 general-purpose registers (GPRs) and 128 player status registers
/// (PSRs), with the player-status defaults libbluray's `register.c` starts from (BD-ROM part 3,
/// 5.8.2).
///
/// A register reference in a navigation command is a GPR number (`0...4095`), or a PSR number
/// (`0...127`) with bit 31 set. Movie objects may write GPRs only; PSRs change through the
/// set-system commands (stream selection, button page, timers), never the read-only player
/// settings (PSR13, 15-21, 23-24, 29-31, 48-61).
package struct HDMVRegisters: Sendable, Hashable {
  /// The number of GPRs.
  package static let generalCount = 4096
  /// The number of PSRs.
  package static let playerCount = 128
  /// Bit 31 of a register reference: the reference names a PSR.
  package static let playerFlag: UInt32 = 0x8000_0000

  /// The GPRs that are not zero, as `number << 32 | value` words sorted by number. Sparse so
  /// that a machine state (copied into every playlist reach a run records, hashed at every
  /// `PlayPL` for loop detection) costs what the program wrote, not 16 KiB; zero values are
  /// removed, so equal register files compare and hash equal. A sorted array rather than a
  /// dictionary: a program writes a few dozen GPRs, found by a binary search without hashing,
  /// and the first write of a run copies them with one `memcpy` (a dictionary rehashes).
  private var general: [UInt64] = []
  /// PSR values.
  package private(set) var player: [UInt32]

  /// libbluray's initial PSR values (`bd_psr_init`): IG stream 1, audio 0xFF, PG 0x0FFF0FFF,
  /// angle 1, title and chapter 0xFFFF, selected button 0xFFFF, style 0xFF, parental 0xFF,
  /// secondary streams 0xFFFF, audio capability, languages 0xFFFFFF, country 0xFFFF, region B,
  /// 2D output, video capability, text capability 0x1FFFF, profile 2 v2.0 (0x030200), the backup registers
  /// (36-44) as their originals, characteristic text capabilities (48-61) all ones.
  package static let playerDefaults: [UInt32] = {
    var psr = [UInt32](repeating: 0, count: playerCount)
    let values: [(Int, UInt32)] = [
      (0, 1), (1, 0xFF), (2, 0x0FFF_0FFF), (3, 1), (4, 0xFFFF), (5, 0xFFFF), (10, 0xFFFF),
      (12, 0xFF), (13, 0xFF), (14, 0xFFFF),
      // PSR15 audio capability: LPCM 48/96 and 192 surround, DD+ and its dependent stream,
      // DTS-HD core and extension, DD and MLP, all surround.
      (15, 0x2 | 0x8 | 0x20 | 0x80 | 0x200 | 0x800 | 0x2000 | 0x8000),
      (16, 0xFF_FFFF), (17, 0xFF_FFFF), (18, 0xFF_FFFF), (19, 0xFFFF), (20, 2), (21, 0),
      // PSR29 video capability: secondary HD video, 25/50 Hz.
      (29, 0x01 | 0x02), (30, 0x1_FFFF), (31, 0x03_0200),
      (36, 0xFFFF), (37, 0xFFFF), (42, 0xFFFF), (44, 0xFF),
    ]
    for (index, value) in values { psr[index] = value }
    for index in 48...61 { psr[index] = 0xFFFF_FFFF }
    return psr
  }()

  /// Registers as a player starts: GPRs zero, PSRs at ``playerDefaults``.
  ///
  /// - Parameter uhd: a UHD disc (index.bdmv version 0300): libbluray 1.3 then plays as a
  ///   profile 6 v3.1 player, with the UHD capability, UHD display capability and HDR preference
  ///   registers (PSR25-27) all ones and PSR31 0x0310 (observed by reading every PSR into GPRs in
  ///   libbluray 1.3.4's HDMV trace).
  package init(uhd: Bool = false) {
    player = Self.playerDefaults
    if uhd {
      for index in 25...27 { player[index] = 0xFFFF_FFFF }
      player[31] = 0x0310
    }
  }

  /// Whether `reference` names an existing register (libbluray's `_is_valid_reg`).
  package static func isValid(_ reference: UInt32) -> Bool {
    reference & playerFlag != 0 ? reference & ~0x8000_007F == 0 : reference & ~0xFFF == 0
  }

  /// The value of the register `reference` names; 0 for a reference to no register.
  package func read(_ reference: UInt32) -> UInt32 {
    guard Self.isValid(reference) else { return 0 }
    return reference & Self.playerFlag != 0
      ? player[Int(reference & 0x7F)] : general(Int(reference & 0xFFF))
  }

  /// GPR `number` (`0...4095`); 0 out of range.
  package func general(_ number: Int) -> UInt32 {
    guard (0..<Self.generalCount).contains(number) else { return 0 }
    let (index, found) = generalIndex(number)
    return found ? UInt32(truncatingIfNeeded: general[index]) : 0
  }

  /// Where GPR `number` is in ``general`` (or would be inserted), and whether it is there.
  private func generalIndex(_ number: Int) -> (index: Int, found: Bool) {
    let key = UInt64(number)
    var lo = 0
    var hi = general.count
    while lo < hi {
      let mid = (lo + hi) / 2
      let at = general[mid] >> 32
      if at == key { return (mid, true) }
      if at < key { lo = mid + 1 } else { hi = mid }
    }
    return (lo, false)
  }

  /// Sets GPR `number` (in range), removing it at 0.
  private mutating func setGeneralValue(_ number: Int, _ value: UInt32) {
    let (index, found) = generalIndex(number)
    if value == 0 {
      if found { general.remove(at: index) }
    } else if found {
      general[index] = UInt64(number) << 32 | UInt64(value)
    } else {
      general.insert(UInt64(number) << 32 | UInt64(value), at: index)
    }
  }

  /// PSR `number` (`0...127`); 0 out of range.
  package func player(_ number: Int) -> UInt32 {
    player.indices.contains(number) ? player[number] : 0
  }

  /// Stores `value` into the register `reference` names, as a command may: GPRs only.
  ///
  /// - Returns: `false` (nothing stored) for a PSR or an invalid reference.
  @discardableResult
  package mutating func store(_ reference: UInt32, _ value: UInt32) -> Bool {
    guard Self.isValid(reference), reference & Self.playerFlag == 0 else { return false }
    setGeneralValue(Int(reference), value)
    return true
  }

  /// Sets GPR `number` (for tests and for seeding a run); ignored out of range.
  package mutating func setGeneral(_ number: Int, _ value: UInt32) {
    guard (0..<Self.generalCount).contains(number) else { return }
    setGeneralValue(number, value)
  }

  /// Writes PSR `number` as the player does for set-system commands; the read-only player
  /// settings are left alone (`bd_psr_write`).
  ///
  /// - Returns: whether the register was written.
  @discardableResult
  package mutating func writePlayer(_ number: Int, _ value: UInt32) -> Bool {
    guard player.indices.contains(number), !Self.isReadOnly(number) else { return false }
    player[number] = value
    return true
  }

  /// Sets PSR `number` whatever it is (the player itself: title number, playlist, ...).
  package mutating func setPlayer(_ number: Int, _ value: UInt32) {
    guard player.indices.contains(number) else { return }
    player[number] = value
  }

  /// The player settings a movie object cannot change.
  package static func isReadOnly(_ number: Int) -> Bool {
    number == 13 || (15...21).contains(number) || (23...24).contains(number)
      || (29...31).contains(number) || (48...61).contains(number)
  }

  /// `CallObject`/`CallTitle`: PSR4-8 and PSR10-12 are copied to their backups (PSR36-40,
  /// PSR42-44).
  package mutating func saveBackup() {
    for k in 0..<5 { player[36 + k] = player[4 + k] }
    for k in 0..<3 { player[42 + k] = player[10 + k] }
  }

  /// `Resume`: the backups are copied back and reset to their defaults.
  package mutating func restoreBackup() {
    for k in 0..<5 { player[4 + k] = player[36 + k] }
    for k in 0..<3 { player[10 + k] = player[42 + k] }
    resetBackup()
  }

  /// `JumpTitle`: the backups return to their defaults.
  package mutating func resetBackup() {
    for k in 0..<5 { player[36 + k] = Self.playerDefaults[36 + k] }
    for k in 0..<3 { player[42 + k] = Self.playerDefaults[42 + k] }
  }

  /// The GPRs that are not zero, by number (a compact view for reports).
  package var nonZeroGeneral: [Int: UInt32] {
    Dictionary(
      uniqueKeysWithValues: general.map { (Int($0 >> 32), UInt32(truncatingIfNeeded: $0)) })
  }

  /// A hash of every register for the machine's loop detection: equal register files give equal
  /// values. Cheaper than the synthesized `Hashable`: the PSRs folded word by word, the GPRs
  /// summed after a 64-bit mix of (number, value).
  package var fingerprint: Int {
    var sum: UInt64 = 0
    for word in general {
      var x = word
      // splitmix64's finalizer.
      x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
      x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
      sum &+= x ^ (x >> 31)
    }
    // The PSRs: FNV-1a over the 128 words (a few hundred instructions, where hashing their 512
    // bytes with a `Hasher` costs thousands), then one `Hasher` round over the results.
    var psr: UInt64 = 0xCBF2_9CE4_8422_2325
    player.withUnsafeBufferPointer { words in
      for word in words { psr = (psr ^ UInt64(word)) &* 0x0000_0100_0000_01B3 }
    }
    var hasher = Hasher()
    hasher.combine(psr)
    hasher.combine(sum)
    hasher.combine(general.count)
    return hasher.finalize()
  }
}
