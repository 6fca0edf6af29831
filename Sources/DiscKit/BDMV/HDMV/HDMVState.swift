/// The machine state between two commands: registers, the program running, the object that is
/// playing a playlist or suspended by a call, and the random generator.
package struct HDMVState: Sendable, Hashable {
  /// A paused movie object command position.
  package struct Frame: Sendable, Hashable {
    /// The movie object number.
    package var object: Int
    /// The command index it stopped at.
    package var pc: UInt32
  }

  /// The registers.
  package var registers = HDMVRegisters()
  /// The movie object running, `nil` when none (or when a button program runs).
  package var object: Int?
  /// The button commands running (an interactive-graphics program), if any.
  package var buttonCommands: [NavigationCommand]?
  /// The next command's index.
  package var pc: UInt32 = 0
  /// The movie object waiting for its playlist to end (libbluray's `playing_object`).
  package var playing: Frame?
  /// The movie object suspended by `CallObject`/`CallTitle`, resumed by `Resume`.
  package var suspended: Frame?
  /// The random generator (libbluray's 64-bit linear congruential generator).
  package var random: UInt64 = HDMVMachine.randomSeed

  /// A hash of the whole state for the machine's loop detection (equal states give equal
  /// values), built on ``HDMVRegisters/fingerprint``.
  package var fingerprint: Int {
    var hasher = Hasher()
    hasher.combine(registers.fingerprint)
    hasher.combine(object)
    hasher.combine(buttonCommands)
    hasher.combine(pc)
    hasher.combine(playing)
    hasher.combine(suspended)
    hasher.combine(random)
    return hasher.finalize()
  }

  /// A player that has not started anything (a UHD player for a UHD disc, see
  /// ``HDMVRegisters/init(uhd:)``).
  package init(uhd: Bool = false) {
    registers = HDMVRegisters(uhd: uhd)
  }
}
