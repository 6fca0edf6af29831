@_spi(Formats) import DiscKit

/// HDMV navigation commands assembled from their parts (BD-ROM part 3, 10.2: operand count,
/// group, sub-group, immediate flags, branch/compare/set option), for authoring movie objects and
/// menu buttons in tests.
extension NavigationCommand {
  /// An operand: an immediate value, a GPR or a PSR.
  public enum Value: Sendable, Hashable {
    case immediate(UInt32)
    case gpr(UInt32)
    case psr(UInt32)

    var raw: UInt32 {
      switch self {
      case .immediate(let v): v
      case .gpr(let r): r & 0xFFF
      case .psr(let r): 0x8000_0000 | (r & 0x7F)
      }
    }
    var isImmediate: Bool { if case .immediate = self { true } else { false } }
  }

  /// Assembles a command.
  public static func assemble(
    operands: Int, group: UInt32, subGroup: UInt32, branch: UInt32 = 0, compare: UInt32 = 0,
    set: UInt32 = 0, destination: Value? = nil, source: Value? = nil
  ) -> NavigationCommand {
    var word = UInt32(operands & 7) << 29 | (group & 3) << 27 | (subGroup & 7) << 24
    if destination?.isImmediate == true { word |= 0x0080_0000 }
    if source?.isImmediate == true { word |= 0x0040_0000 }
    word |= (branch & 0xF) << 16 | (compare & 0xF) << 8 | (set & 0x1F)
    return NavigationCommand(
      instruction: word, destination: destination?.raw ?? 0, source: source?.raw ?? 0)
  }

  /// `Nop`.
  public static let nop = assemble(operands: 0, group: 0, subGroup: 0, branch: 0)
  /// `Goto <command>`.
  public static func goto(_ command: Value) -> NavigationCommand {
    assemble(operands: 1, group: 0, subGroup: 0, branch: 1, destination: command)
  }
  /// `Break`: ends the object.
  public static let breakObject = assemble(operands: 0, group: 0, subGroup: 0, branch: 2)
  /// `JumpObject <object>`.
  public static func jumpObject(_ object: Value) -> NavigationCommand {
    assemble(operands: 1, group: 0, subGroup: 1, branch: 0, destination: object)
  }
  /// `JumpTitle <title>`.
  public static func jumpTitle(_ title: Value) -> NavigationCommand {
    assemble(operands: 1, group: 0, subGroup: 1, branch: 1, destination: title)
  }
  /// `CallObject <object>`.
  public static func callObject(_ object: Value) -> NavigationCommand {
    assemble(operands: 1, group: 0, subGroup: 1, branch: 2, destination: object)
  }
  /// `CallTitle <title>`.
  public static func callTitle(_ title: Value) -> NavigationCommand {
    assemble(operands: 1, group: 0, subGroup: 1, branch: 3, destination: title)
  }
  /// `Resume`.
  public static let resume = assemble(operands: 0, group: 0, subGroup: 1, branch: 4)
  /// `PlayPL <playlist>` (immediate or from a register).
  public static func playPlaylist(_ playlist: Value) -> NavigationCommand {
    assemble(operands: 1, group: 0, subGroup: 2, branch: 0, destination: playlist)
  }
  /// `PlayPLatPI <playlist> <item>`.
  public static func playPlaylist(_ playlist: Value, item: Value) -> NavigationCommand {
    assemble(operands: 2, group: 0, subGroup: 2, branch: 1, destination: playlist, source: item)
  }
  /// `PlayPLatMK <playlist> <mark>`.
  public static func playPlaylist(_ playlist: Value, mark: Value) -> NavigationCommand {
    assemble(operands: 2, group: 0, subGroup: 2, branch: 2, destination: playlist, source: mark)
  }
  /// `TerminatePL`.
  public static let terminatePlaylist = assemble(operands: 0, group: 0, subGroup: 2, branch: 3)
  /// `LinkPI <item>`.
  public static func linkPlayItem(_ item: Value) -> NavigationCommand {
    assemble(operands: 1, group: 0, subGroup: 2, branch: 4, destination: item)
  }

  /// Comparisons (`BC`, `EQ`, `NE`, `GE`, `GT`, `LE`, `LT`): a false one skips the next command.
  public enum Comparison: UInt32, Sendable, CaseIterable {
    case bc = 1
    case eq, ne, ge, gt, le, lt
  }
  /// `<comparison> <a> <b>`.
  public static func compare(_ comparison: Comparison, _ a: Value, _ b: Value) -> NavigationCommand
  {
    assemble(
      operands: 2, group: 1, subGroup: 0, compare: comparison.rawValue, destination: a, source: b)
  }

  /// Set operations (`Move` ... `ShiftRight`).
  public enum Operation: UInt32, Sendable, CaseIterable {
    case move = 1
    case swap, add, sub, mul, div, mod, rnd, and, or, xor, bitSet, bitClear, shiftLeft,
      shiftRight
  }
  /// `<operation> <register> <value>`.
  public static func set(_ operation: Operation, _ register: Value, _ value: Value)
    -> NavigationCommand
  {
    assemble(
      operands: 2, group: 2, subGroup: 0, set: operation.rawValue, destination: register,
      source: value)
  }
  /// A set-system command (1 SetStream, 2 SetNVTimer, 3 SetButtonPage, 4 EnableButton, 5
  /// DisableButton, 6 SetSecondaryStream, 7 PopUpMenuOff, 8 StillOn, 9 StillOff, 10
  /// SetOutputMode, 11 SetStreamSS, 0x10).
  public static func setSystem(_ option: UInt32, _ a: Value, _ b: Value) -> NavigationCommand {
    assemble(operands: 2, group: 2, subGroup: 1, set: option, destination: a, source: b)
  }
}
