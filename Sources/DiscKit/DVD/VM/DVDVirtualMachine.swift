/// A DVD-Video navigation virtual machine: the registers, the current domain, PGC, program and
/// cell, and the resume point, driven by the disc's pre, post, cell and button commands.
///
/// The behaviour follows libdvdnav's `vm.c` and `decoder.c` (the reference player), with its
/// assertions turned into a stop and a warning. The VM never reads anything but its
/// ``DVDVirtualMachineProgram``; it is a value, so "pressing" a button on a copy leaves the
/// original untouched. It is bounded: every link and every command counts against
/// ``Limits``, and running out stops the VM with a warning. It is deterministic: GPRM counters
/// read a simulated clock (``clock``, advanced by the caller as cells play) and the `rnd`
/// operator draws from a fixed-seed generator.
public struct DVDVirtualMachine: Sendable {
  /// How much work the VM may do before it stops.
  public struct Limits: Sendable, Hashable {
    /// Links (jumps, calls, PGC and cell changes) over the VM's life.
    public var links: Int
    /// Commands evaluated over the VM's life.
    public var commands: Int
    /// The defaults: 20,000 links and 1,000,000 commands.
    public static let `default` = Limits(links: 20_000, commands: 1_000_000)

    /// Limits from their values.
    public init(links: Int, commands: Int) {
      self.links = links
      self.commands = commands
    }
  }

  /// Where a call left the title domain, for LinkRSM.
  struct Resume: Sendable, Hashable {
    var titleSet: Int
    var programChain: Int
    var cell: Int
    var registers: [UInt16]  // SPRM 4-8
  }

  let program: DVDVirtualMachineProgram
  /// The registers.
  public var registers = DVDRegisters()
  /// The current domain.
  public internal(set) var domain: DVDDomain = .firstPlay
  /// The current title set (0 before one is entered).
  public internal(set) var titleSet = 0
  /// The current PGC's number in its table (0 for First Play).
  public internal(set) var programChainNumber = 0
  /// The current program (pgN).
  public internal(set) var programNumber = 0
  /// The current cell (cellN, 1-based).
  public internal(set) var cellNumber = 0
  /// Whether the VM stopped (Exit, an invalid jump, or a budget ran out).
  public internal(set) var stopped = false
  /// What went wrong so far, in order (invalid jumps, exhausted budgets).
  public internal(set) var warnings: [String] = []
  /// The simulated clock in seconds (GPRM counters read it); advance it as cells play.
  public var clock: Int64 = 0
  var pgc: DVDProgramChain?
  var resumePoint: Resume?
  var randomState: UInt64 = 0x9E37_79B9_7F4A_7C15
  var linksLeft: Int
  var commandsLeft: Int
  var nesting = 0

  /// A VM for `program`, in First Play, not yet started.
  public init(program: DVDVirtualMachineProgram, limits: Limits = .default) {
    self.program = program
    linksLeft = limits.links
    commandsLeft = limits.commands
  }

  /// The cell being played, when the VM is at one.
  public var currentCell: DVDCellPlayback? {
    guard !stopped, let cells = pgc?.cellPlayback, cellNumber >= 1, cellNumber <= cells.count
    else { return nil }
    return cells[cellNumber - 1]
  }

  /// The current PGC.
  public var currentProgramChain: DVDProgramChain? { pgc }

  /// The disc title being played (SPRM 4) in the title domain, else `nil`.
  public var titleNumber: Int? {
    domain == .title
      ? program.titleNumber(titleSet: titleSet, titleInSet: Int(registers.system[5])) : nil
  }

  /// Starts at First Play and runs until the VM reaches a cell to play (or stops).
  public mutating func start() {
    guard setFirstPlay() else {
      stop("the disc has neither a First Play PGC nor a video manager menu")
      return
    }
    process(playProgramChain())
  }

  /// Activates a menu button: sets SPRM 8 to `button` and runs `command`, following any link
  /// until the VM reaches a cell to play. Returns whether the command linked anywhere.
  @discardableResult
  public mutating func activate(button: Int, command: DVDCommand) -> Bool {
    registers.system[8] = UInt16(truncatingIfNeeded: (button & 0x3F) << 10)
    guard let link = evaluate([command]) else { return false }
    process(link)
    return true
  }

  /// Runs one command as the current state's (the `vm_exec_cmd` of libdvdnav). Returns whether
  /// it linked anywhere.
  @discardableResult
  public mutating func execute(_ command: DVDCommand) -> Bool {
    guard let link = evaluate([command]) else { return false }
    process(link)
    return true
  }

  /// The current cell has played (its still time is the caller's): runs its cell command and
  /// moves on to the next cell, PGC or link.
  public mutating func finishCell() {
    guard !stopped else { return }
    process(playCellPost())
  }

  /// Stops with a warning.
  mutating func stop(_ why: String) {
    if !stopped { warnings.append(why) }
    stopped = true
  }

  /// A fixed-seed xorshift draw for `rnd`.
  mutating func nextRandom() -> UInt64 {
    randomState ^= randomState << 13
    randomState ^= randomState >> 7
    randomState ^= randomState << 17
    return randomState
  }
}
