/// The navigation timer (SPRM 9, NV_TMR, and SPRM 10, its title PGC), set by SetNVTMR.
///
/// DVD-Video: SPRM 9 counts down one per second while the title domain plays (a still cell
/// included) and pauses in the menus and First Play; when it reaches 0 the player plays the PGC
/// in SPRM 10 of the current title set (LinkPGCN). libdvdnav 6.1 stores SPRM 9 and 10 but never
/// counts down, so it does not model the expiry.
extension DVDVirtualMachine {
  /// Whether the navigation timer runs now: SPRM 9 is set and the VM plays a title.
  public var navigationTimerRunning: Bool {
    !stopped && domain == .title && registers.sp[9] > 0
  }

  /// A navigation timer expiry.
  public struct TimerExpiry: Sendable, Hashable {
    /// The seconds that passed before the timer reached 0.
    public var after: Int64
    /// The title PGC SPRM 10 named.
    public var programChain: Int
    /// Whether the VM linked to it (`false`: the title set has no such PGC, a warning).
    public var linked: Bool
  }

  /// Lets `seconds` of playback pass: the simulated clock advances (GPRM counters) and, in the
  /// title domain, the navigation timer counts down. When it reaches 0 the VM links to the title
  /// PGC in SPRM 10 and the rest of `seconds` does not pass (a PGC the title set does not have
  /// is a warning, and playback goes on). Returns the expiry, or `nil` when the timer did not
  /// expire.
  @discardableResult
  public mutating func advance(seconds: Int64) -> TimerExpiry? {
    let seconds = max(0, seconds)
    guard navigationTimerRunning, Int64(registers.sp[9]) <= seconds else {
      clock += seconds
      if navigationTimerRunning {
        registers.sp[9] -= UInt16(truncatingIfNeeded: seconds)
      }
      return nil
    }
    let passed = Int64(registers.sp[9])
    clock += passed
    registers.sp[9] = 0
    let target = Int(registers.sp[10])
    guard let table = programChainTable(), target >= 1, target <= table.chains.count else {
      let note =
        "navigation timer: SPRM 10 names PGC \(target), which title set \(titleSet) does not have; ignored"
      if !warnings.contains(note) { warnings.append(note) }
      clock += seconds - passed
      return TimerExpiry(after: passed, programChain: target, linked: false)
    }
    process(.programChain(target))
    return TimerExpiry(after: passed, programChain: target, linked: true)
  }
}
