/// A DVD-Video navigation virtual machine: the registers, the current domain, PGC, program and
/// cell, and the resume point, driven by the disc's pre, post, cell and button commands.
///
/// The behaviour follows libdvdnav's `vm.c` and `decoder.c` (the reference player), with its
/// assertions turned into a stop and a warning. The VM never reads anything but its
/// ``DVDVirtualMachineProgram``; it is a value, so "pressing" a button on a copy leaves the
/// original untouched. It is bounded: every link and every command counts against
/// ``Limits``, and running out stops the VM with a warning. It is deterministic: GPRM counters
/// read a simulated clock (``clock``, advanced by the caller as cells play, see
/// ``advance(seconds:)``, which also runs the navigation timer) and the `rnd` operator draws
/// from a fixed-seed generator unless the caller planned its outcomes (`plannedDraws`, which
/// the main-feature search uses to explore every outcome).
@_spi(Formats)
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
    var registers: SIMD8<UInt16>  // SPRM 4-8 in lanes 0-4
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
  /// The current PGC, shared with the program (a copy of the VM copies the reference).
  var chain: DVDVirtualMachineProgram.Chain?
  var resumePoint: Resume?
  var randomState: UInt64 = 0x9E37_79B9_7F4A_7C15
  /// Outcomes for the next `rnd` operations, in order (each 1…N of its operation; a value out of
  /// range is clamped); once used up, `rnd` draws from the seeded generator again.
  package var plannedDraws: [UInt16] = [] {
    didSet { plannedIndex = 0 }
  }
  var plannedIndex = 0
  /// The `rnd` operations run since the log was last cleared (at most ``drawLogLimit``).
  package var drawLog: [RandomDraw] = []
  /// How many `rnd` operations ``drawLog`` keeps.
  package static let drawLogLimit = 64
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
    guard !stopped, let cells = chain?.cells, cellNumber >= 1, cellNumber <= cells.count
    else { return nil }
    return cells[cellNumber - 1]
  }

  /// The current PGC.
  public var currentProgramChain: DVDProgramChain? { chain?.chain }

  /// Whether the current cell ends in an infinite still: its own still time, or the PGC's at its
  /// last cell, is 0xFF (a viewer must act to go on).
  var heldByInfiniteStill: Bool {
    guard let cell = currentCell else { return false }
    return cell.stillTime == 0xFF
      || (cellNumber == (chain?.cells.count ?? 0) && chain?.chain.stillTime == 0xFF)
  }

  /// The disc title being played in the title domain, else `nil`: the title in SPRM 5 when its
  /// chapters use the current PGC, else the first title of the set whose chapters do (a LinkPGCN
  /// or a navigation timer can move to another title's PGC without a jump; libdvdnav reports
  /// the title from the chapters the same way).
  public var titleNumber: Int? {
    guard domain == .title else { return nil }
    var ttn = Int(registers.sp[5])
    if let titles = program.titleSet(titleSet)?.titles {
      func uses(_ index: Int) -> Bool {
        titles[index].contains { $0.programChain == programChainNumber }
      }
      if !(ttn >= 1 && ttn <= titles.count && uses(ttn - 1)),
        let other = titles.indices.first(where: uses)
      {
        ttn = other + 1
      }
    }
    return program.titleNumber(titleSet: titleSet, titleInSet: ttn)
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
    registers.sp[8] = UInt16(truncatingIfNeeded: (button & 0x3F) << 10)
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

  /// One `rnd` operation: GPRM `register` = 1…`bound`, `value` the outcome.
  package struct RandomDraw: Sendable, Hashable {
    /// The GPRM set.
    package var register: Int
    /// N: the outcomes are 1…N.
    package var bound: Int
    /// The outcome.
    package var value: Int
  }

  /// `rnd` 1…`bound` for GPRM `register`: the next planned outcome, else a seeded draw; logged
  /// (`rnd` of 0 or 1 has one outcome, 1, and is neither planned nor logged).
  mutating func draw(register: Int, bound: Int) -> Int {
    guard bound > 1 else { return 1 }
    let value: Int
    if plannedIndex < plannedDraws.count {
      value = min(bound, max(1, Int(plannedDraws[plannedIndex])))
      plannedIndex += 1
    } else {
      value = 1 + Int(nextRandom() % UInt64(bound))
    }
    if drawLog.count < Self.drawLogLimit {
      drawLog.append(RandomDraw(register: register & 0x0F, bound: bound, value: value))
    }
    return value
  }

  /// A fixed-seed xorshift draw for `rnd`.
  mutating func nextRandom() -> UInt64 {
    randomState ^= randomState << 13
    randomState ^= randomState >> 7
    randomState ^= randomState << 17
    return randomState
  }
}
