/// One `PlayPL` / `PlayPLatPI` / `PlayPLatMK` the HDMV machine executed.
package struct PlaylistReach: Sendable {
  /// Where the run started.
  package var entry: HDMVEntry
  /// The playlist number played (`xxxxx.mpls`).
  package var playlist: Int
  /// The play item (`PlayPLatPI`) or mark (`PlayPLatMK`) started at, if any.
  package var playItem: Int?
  /// The mark started at (`PlayPLatMK`).
  package var mark: Int?
  /// The titles and objects entered on the way, then the `PlayPL` command itself.
  package var path: [HDMVLocation]
  /// The register the playlist operand was read from, when it was one (a reference: GPR
  /// number, or PSR number with bit 31 set).
  package var operandRegister: UInt32?
  /// The registers the run had written before this command, as (GPR number, value), sorted,
  /// when the operand was a register: what computed the playlist number.
  package var feedingRegisters: [(register: Int, value: UInt32)]
  /// The index title being played (PSR4) when the playlist started: 0 top menu, 0xFFFF first
  /// play.
  package var title: Int
  /// The machine state at the command (to run the menu buttons of the playlist from).
  package var state: HDMVState

  /// The playlist number read from a register rather than written in the command.
  package var isComputed: Bool { operandRegister != nil }
}
