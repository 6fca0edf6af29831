/// One 12-byte HDMV navigation command of a movie object.
///
/// DiscKit decodes the instruction word and the operands, and interprets the commands that
/// matter for finding titles: playlist playback (`PlayPL`, `PlayPLatPI`, `PlayPLatMK`) and jumps
/// or calls to other movie objects and titles.
@_spi(Formats)
public struct NavigationCommand: Sendable, Hashable, Codable {
  /// The first 32 bits (operand count, group, sub-group, immediate flags, options).
  public var instruction: UInt32
  /// Destination and source operands.
  public var destination: UInt32
  /// The source operand: a value when ``sourceIsImmediate``, otherwise a register reference.
  public var source: UInt32

  /// Creates a command from its three 32-bit words.
  public init(instruction: UInt32, destination: UInt32, source: UInt32) {
    self.instruction = instruction
    self.destination = destination
    self.source = source
  }

  /// `op_cnt`: the number of operands.
  public var operandCount: UInt8 { UInt8(instruction >> 29) }
  /// 0 branch, 1 compare, 2 set.
  public var group: UInt8 { UInt8((instruction >> 27) & 3) }
  /// `sub_grp`: the command class within the group (branch: 0 goto, 1 jump/call, 2 play).
  public var subGroup: UInt8 { UInt8((instruction >> 24) & 7) }
  /// Whether the destination operand is a value rather than a register (`imm_op1`).
  public var destinationIsImmediate: Bool { instruction & 0x0080_0000 != 0 }
  /// Whether the source operand is a value rather than a register (`imm_op2`).
  public var sourceIsImmediate: Bool { instruction & 0x0040_0000 != 0 }
  /// `branch_opt`: the branch command within its sub-group (e.g. jump: 0 `JumpObject`, 1
  /// `JumpTitle`).
  public var branchOption: UInt8 { UInt8((instruction >> 16) & 0x0F) }
  /// `cmp_opt`: the comparison of a compare command.
  public var compareOption: UInt8 { UInt8((instruction >> 8) & 0x0F) }
  /// `set_opt`: the operation of a set command (1 = `Move`).
  public var setOption: UInt8 { UInt8(instruction & 0x1F) }

  /// An operand: a value, or a register whose value is only known at run time.
  public enum Operand: Sendable, Hashable, Codable {
    case immediate(UInt32)
    case generalRegister(UInt32)
    case playerRegister(UInt32)

    init(_ raw: UInt32, immediate: Bool) {
      if immediate {
        self = .immediate(raw)
      } else if raw & 0x8000_0000 != 0 {
        self = .playerRegister(raw & 0x7F)
      } else {
        self = .generalRegister(raw & 0xFFF)
      }
    }
  }

  /// What a command does, as far as title discovery cares.
  public enum Action: Sendable, Hashable {
    /// `PlayPL` (and the `at PI` / `at MK` variants): plays a playlist.
    case playPlaylist(Operand)
    /// `JumpObject` / `CallObject`.
    case jumpObject(Operand, call: Bool)
    /// `JumpTitle` / `CallTitle`.
    case jumpTitle(Operand, call: Bool)
    /// `Move GPR, value` (set group, set option 1).
    case move(register: UInt32, value: Operand)
    /// Anything else.
    case other
  }

  /// The decoded action.
  public var action: Action {
    let dst = Operand(destination, immediate: destinationIsImmediate)
    switch (group, subGroup) {
    case (0, 1):
      switch branchOption {
      case 0: return .jumpObject(dst, call: false)
      case 1: return .jumpTitle(dst, call: false)
      case 2: return .jumpObject(dst, call: true)
      case 3: return .jumpTitle(dst, call: true)
      default: return .other
      }
    case (0, 2):
      switch branchOption {
      case 0, 1, 2: return .playPlaylist(dst)
      default: return .other
      }
    case (2, 0) where setOption == 1 && !destinationIsImmediate && destination & 0x8000_0000 == 0:
      return .move(
        register: destination & 0xFFF, value: Operand(source, immediate: sourceIsImmediate))
    default:
      return .other
    }
  }
}
