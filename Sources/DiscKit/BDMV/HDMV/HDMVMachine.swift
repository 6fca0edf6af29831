/// A bounded, side-effect-free HDMV navigation-command interpreter over `index.bdmv` and
/// `MovieObject.bdmv`: it runs First Play, the Top Menu and every index title (and menu buttons)
/// the way a player would, without playing anything, and records every playlist started.
///
/// The semantics follow libbluray's `hdmv_vm.c` (the reference DiscKit's oracle tests compare
/// with) and BD-ROM part 3 section 10:
/// - operands are immediate values or register references (bit 31: PSR); `SetStream`,
///   `SetSecondaryStream` and `SetButtonPage` read register operands indirectly (each 16-bit half
///   names a GPR whose low bits are the value);
/// - a false comparison skips the next command; `Goto n` continues at command n; `Break` ends the
///   object;
/// - arithmetic saturates (`Add`, `Mul` at 0xFFFFFFFF, `Sub` at 0); `Div`/`Mod` by zero give
///   0xFFFFFFFF; results go to GPRs only (a store to a PSR or an immediate is refused);
/// - `Rnd n` draws from libbluray's generator with the fixed seed ``randomSeed`` (libbluray's debug
///   builds use the same seed; its release builds seed with the time, so runs there differ);
/// - `PlayPL` in a movie object is recorded and, as when the playlist ends, execution continues
///   with the next command; `CallObject`/`CallTitle` save PSR4-8 and PSR10-12, `Resume`
///   restores them; `JumpTitle`/`CallTitle` to a title that does not exist are refused.
///   A `PlayPL` in a button's commands (libbluray refuses it) is recorded as the button's
///   playlist and ends the button's run.
///
/// Every run is bounded: ``stepBudget`` commands, ``playlistBudget`` playlist starts, and a
/// program reaching a `PlayPL` again with exactly the same state ends as a loop.
package struct HDMVMachine: Sendable {
  /// The seed of the `Rnd` generator.
  package static let randomSeed: UInt64 = 1

  /// The index table (First Play, Top Menu, titles); `nil` runs objects only.
  package var index: BDMVIndex?
  /// The movie objects.
  package var movieObjects: MovieObjectFile
  /// Commands one run may execute.
  package var stepBudget = 100_000
  /// Playlist starts one run may make.
  package var playlistBudget = 512
  /// Commands ``explore()`` executes over all its runs: a crafted index with thousands of titles
  /// whose objects each spin to ``stepBudget`` must not take minutes. Runs left when it is
  /// spent end at once with a warning.
  package var exploreStepBudget = 2_000_000
  /// Reproduce libbluray 1.3's `Resume`, which continues one command later than the spec: it
  /// sets the program counter past the `CallObject`/`CallTitle` and then advances it again,
  /// skipping the command after the call. Off by default (discs are authored for the spec);
  /// the oracle tests turn it on to compare with libbluray.
  package var libblurayResume = false

  /// A machine over a disc's navigation files.
  package init(index: BDMVIndex?, movieObjects: MovieObjectFile) {
    self.index = index
    self.movieObjects = movieObjects
  }

  /// Runs First Play, the Top Menu and every HDMV index title, each from a fresh player.
  package func explore() -> [HDMVRun] {
    let entries =
      [HDMVEntry.firstPlay, .topMenu] + (0..<(index?.titles.count ?? 0)).map { .title($0 + 1) }
    var runs: [HDMVRun] = []
    var left = exploreStepBudget
    for entry in entries {
      guard left > 0 else {
        var skipped = HDMVRun(entry: entry)
        skipped.ending = .stepBudget(0)
        skipped.warnings = [
          "not run: the \(exploreStepBudget) commands for the whole disc were spent"
        ]
        runs.append(skipped)
        continue
      }
      var machine = self
      machine.stepBudget = min(stepBudget, left)
      let run = machine.run(entry)
      left -= run.steps
      runs.append(run)
    }
    return runs
  }

  /// A player that has not started anything, for this disc (UHD for an index.bdmv of version
  /// 0300).
  package var initialState: HDMVState { HDMVState(uhd: index?.version == .v0300) }

  /// Runs one entry from a fresh player.
  package func run(_ entry: HDMVEntry) -> HDMVRun { run(entry, from: initialState) }

  /// Runs one entry from `state`.
  package func run(_ entry: HDMVEntry, from state: HDMVState) -> HDMVRun {
    var execution = Execution(machine: self, entry: entry, state: state)
    switch entry {
    case .firstPlay: execution.startTitle(0xFFFF, at: nil)
    case .topMenu: execution.startTitle(0, at: nil)
    case .title(let n): execution.startTitle(UInt32(clamping: n), at: nil)
    case .button: break
    }
    execution.loop()
    execution.run.finalState = execution.state
    return execution.run
  }

  /// Runs a menu button's commands from the state the menu's playlist was started with
  /// (`reach.state`): the movie object that started the playlist waits for it, as in a player.
  package func runButton(
    _ commands: [NavigationCommand], page: Int, button: Int, menu reach: PlaylistReach
  ) -> HDMVRun {
    runButton(
      commands, entry: .button(page: page, button: button, menuPlaylist: reach.playlist),
      state: reach.state, trail: reach.path)
  }

  private func runButton(
    _ commands: [NavigationCommand], entry: HDMVEntry, state start: HDMVState,
    trail: [HDMVLocation]
  ) -> HDMVRun {
    var state = start
    state.buttonCommands = commands
    state.object = nil
    state.pc = 0
    var execution = Execution(machine: self, entry: entry, state: state)
    execution.trail = trail
    execution.loop()
    execution.run.finalState = execution.state
    return execution.run
  }

  /// ``runButton(_:page:button:menu:)`` through `memo`, appended to `runs`: a button whose
  /// commands were already run from the same state (the same menu's buttons with the same
  /// commands, or one menu shown by several playlists in the same machine state) is not run
  /// again. The result is the same as running it: the run is made once without the path that
  /// led to the menu, and each use gets its own entry and its reaches' paths joined to its
  /// menu's path as the run would have joined them (the last 32 locations, then the command).
  /// Relabelled in place in `runs` (a run is a large value: one copy per button).
  package func appendButtonRun(
    _ commands: [NavigationCommand], page: Int, button: Int, menu reach: PlaylistReach,
    memo: inout ButtonMemo, group: ButtonMemo.Group, to runs: inout [HDMVRun]
  ) {
    let entry = HDMVEntry.button(page: page, button: button, menuPlaylist: reach.playlist)
    let key = ButtonMemo.Key(group: group.index, commands: commands)
    let done: Int
    if let known = memo.done[key] {
      done = known
    } else {
      done = memo.runs.count
      memo.runs.append(runButton(commands, entry: entry, state: reach.state, trail: []))
      memo.done[key] = done
    }
    runs.append(memo.runs[done])
    let last = runs.count - 1
    runs[last].entry = entry
    for i in runs[last].reaches.indices {
      runs[last].reaches[i].entry = entry
      let path = runs[last].reaches[i].path
      guard let here = path.last else { continue }
      let remembered = path.dropLast()
      runs[last].reaches[i].path =
        (remembered.isEmpty ? reach.path : Array((reach.path + remembered).suffix(32))) + [here]
    }
  }

  /// The button runs made so far, by the state they started from and their commands (see
  /// ``appendButtonRun(_:page:button:menu:memo:group:to:)``).
  package struct ButtonMemo {
    /// The runs from one starting state.
    package struct Group {
      fileprivate var index: Int
    }
    /// A starting state (its group) and a button's commands: hashed once, as one 64-bit word per
    /// command (its three 32-bit words folded) mixed into one value, compared command for
    /// command.
    fileprivate struct Key: Hashable {
      var group: Int
      var commands: [NavigationCommand]
      var hash: UInt64

      init(group: Int, commands: [NavigationCommand]) {
        self.group = group
        self.commands = commands
        var hash = 0xCBF2_9CE4_8422_2325 ^ UInt64(truncatingIfNeeded: group) &* 0x9E37_79B9
        hash = (hash ^ UInt64(commands.count)) &* 0x0000_0100_0000_01B3
        for command in commands {
          let word =
            UInt64(command.instruction) << 32 | UInt64(command.destination)
            ^ UInt64(command.source) << 17
          hash = (hash ^ word) &* 0x0000_0100_0000_01B3
        }
        self.hash = hash
      }

      static func == (a: Self, b: Self) -> Bool {
        a.hash == b.hash && a.group == b.group && a.commands == b.commands
      }
      func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }
    /// The starting states, a group each.
    fileprivate var states: [HDMVState] = []
    /// The runs by group and commands (indices into ``runs``: a dictionary that grows moves its
    /// values, and a run is a large one).
    fileprivate var done: [Key: Int] = [:]
    /// Every run made.
    fileprivate var runs: [HDMVRun] = []

    package init() {}

    /// Room for `buttons` distinct runs.
    package mutating func reserveCapacity(_ buttons: Int) {
      done.reserveCapacity(buttons)
      runs.reserveCapacity(buttons)
    }

    /// The group of the runs that start from `state` (compared whole, once per menu).
    package mutating func group(for state: HDMVState) -> Group {
      if let index = states.firstIndex(of: state) { return Group(index: index) }
      states.append(state)
      return Group(index: states.count - 1)
    }
  }
}

/// A `PlayPL` reached in a state: a movie object, a command and the state's fingerprint.
private struct LoopKey: Equatable {
  var object: Int
  var pc: UInt32
  var fingerprint: Int
}

/// One run in progress.
private struct Execution {
  let machine: HDMVMachine
  var state: HDMVState
  var run: HDMVRun
  var trail: [HDMVLocation] = []
  /// The `PlayPL` commands reached so far, with the state's fingerprint (loop detection; at
  /// most ``HDMVMachine/playlistBudget`` of them, a few in most runs: searched in order, cheaper
  /// than a set's hashing and allocation).
  var seen: [LoopKey] = []
  /// The GPRs this run has written, a bit per GPR (allocated at the first write: cheaper than a
  /// set's hashing at every store).
  var written: [UInt64] = []
  var stopped = false

  init(machine: HDMVMachine, entry: HDMVEntry, state: HDMVState) {
    self.machine = machine
    self.state = state
    self.run = HDMVRun(entry: entry)
  }

  var objects: [MovieObjectFile.MovieObject] { machine.movieObjects.objects }

  var location: HDMVLocation { HDMVLocation(object: state.object, command: Int(state.pc)) }

  mutating func warn(_ text: String) {
    if run.warnings.count < 64 { run.warnings.append("\(location): \(text)") }
  }

  mutating func stop(_ ending: HDMVRun.Ending) {
    run.ending = ending
    stopped = true
  }

  mutating func remember(_ at: HDMVLocation) {
    trail.append(at)
    if trail.count > 32 { trail.removeFirst(trail.count - 32) }
  }

  // MARK: titles and objects

  func isValidTitle(_ title: UInt32) -> Bool {
    guard let index = machine.index else { return false }
    if title == 0 { return index.topMenu != .none }
    if title == 0xFFFF { return index.firstPlay != .none }
    return title >= 1 && Int(title) <= index.titles.count
  }

  /// Starts index title `title` (0 top menu, 0xFFFF first play).
  mutating func startTitle(_ title: UInt32, at: HDMVLocation?) {
    guard let index = machine.index, isValidTitle(title) else {
      if at == nil { stop(.nothing) } else { warn("no title \(title)") }
      return
    }
    let object: BDMVIndex.Object =
      switch title {
      case 0: index.topMenu
      case 0xFFFF: index.firstPlay
      default: index.titles[Int(title) - 1].object
      }
    if let at { remember(at) }
    run.titlesEntered.append(Int(title))
    state.registers.setPlayer(4, title)
    state.buttonCommands = nil
    switch object {
    case .bdj:
      stop(.bdjTitle(Int(title)))
    case .hdmv(let id, _) where Int(id) < objects.count:
      state.object = Int(id)
      state.pc = 0
    default:
      warn("title \(title) has no movie object")
      stop(.nothing)
    }
  }

  mutating func jumpObject(_ object: UInt32) -> Bool {
    guard Int(object) < objects.count else {
      warn("no movie object \(object)")
      return false
    }
    remember(location)
    state.buttonCommands = nil
    state.playing = nil
    state.object = Int(object)
    state.pc = 0
    return true
  }

  mutating func suspend() {
    state.registers.saveBackup()
    if state.buttonCommands != nil {
      guard let playing = state.playing else {
        warn("a button suspends, but no object plays a playlist")
        return
      }
      state.suspended = playing
      state.playing = nil
    } else if let object = state.object {
      guard state.playing == nil else { return }
      state.suspended = .init(object: object, pc: state.pc)
    }
    state.object = nil
    state.buttonCommands = nil
  }

  mutating func resume() {
    guard let suspended = state.suspended else {
      warn("Resume without a suspended object")
      return
    }
    remember(location)
    state.registers.restoreBackup()
    state.buttonCommands = nil
    state.playing = nil
    state.object = suspended.object
    state.pc = suspended.pc &+ 1
    state.suspended = nil
  }

  // MARK: the interpreter

  mutating func loop() {
    while !stopped {
      let commands: [NavigationCommand]
      if let button = state.buttonCommands {
        commands = button
      } else if let object = state.object, objects.indices.contains(object) {
        commands = objects[object].commands
      } else {
        if run.steps == 0 && run.reaches.isEmpty { stop(.nothing) } else { stop(.finished) }
        break
      }
      guard state.pc < commands.count else {
        stop(state.buttonCommands != nil ? .buttonDone : .finished)
        break
      }
      guard run.steps < machine.stepBudget else {
        warn("step budget of \(machine.stepBudget) commands exhausted")
        stop(.stepBudget(run.steps))
        break
      }
      run.steps += 1
      step(commands[Int(state.pc)])
    }
  }

  /// An operand's value. Static, given the registers: a method of the whole run copied the
  /// run's state at every operand read.
  static func operand(
    _ raw: UInt32, immediate: Bool, indirect: Indirect, registers: borrowing HDMVRegisters
  ) -> UInt32 {
    if immediate { return raw }
    switch indirect {
    case .none:
      return registers.read(raw)
    case .stream:
      let low = registers.general(Int(raw & 0xFFF)) & 0xFFF
      let high = registers.general(Int((raw >> 16) & 0xFFF)) & 0xFFF
      return (raw & 0xF000_F000) | low | (high << 16)
    case .buttonPage:
      return (raw & 0xC000_0000) | (registers.general(Int(raw & 0xFFF)) & 0x3FFF_FFFF)
    }
  }

  enum Indirect { case none, stream, buttonPage }

  mutating func step(_ command: NavigationCommand) {
    let group = command.group
    let subGroup = command.subGroup
    let setOption = command.setOption
    let indirect: Indirect =
      group == 2 && subGroup == 1
      ? (setOption == 1 || setOption == 6 ? .stream : setOption == 3 ? .buttonPage : .none)
      : .none
    let count = command.operandCount
    let dst =
      count > 0
      ? Self.operand(
        command.destination, immediate: command.destinationIsImmediate, indirect: indirect,
        registers: state.registers)
      : 0
    let src =
      count > 1
      ? Self.operand(
        command.source, immediate: command.sourceIsImmediate, indirect: indirect,
        registers: state.registers) : 0
    var advance: UInt32 = 1
    switch group {
    case 0:
      advance = branch(command, dst: dst, src: src)
    case 1:
      let holds: Bool
      switch command.compareOption {
      case 1: holds = dst & ~src == 0
      case 2: holds = dst == src
      case 3: holds = dst != src
      case 4: holds = dst >= src
      case 5: holds = dst > src
      case 6: holds = dst <= src
      case 7: holds = dst < src
      default:
        warn("unknown compare option \(command.compareOption)")
        holds = true
      }
      if !holds { state.pc &+= 1 }
    case 2 where subGroup == 0:
      set(command, dst: dst, src: src)
    case 2 where subGroup == 1:
      setSystem(command, dst: dst, src: src)
    default:
      warn("unknown command group \(group)/\(subGroup)")
    }
    if !stopped { state.pc &+= advance }
  }

  /// Branch commands; returns how far the program counter advances afterwards.
  mutating func branch(_ command: NavigationCommand, dst: UInt32, src: UInt32) -> UInt32 {
    let option = command.branchOption
    switch command.subGroup {
    case 0:
      switch option {
      case 0: break
      case 1: state.pc = dst &- 1
      case 2: state.pc = 1 << 17
      default: warn("unknown goto option \(option)")
      }
    case 1:
      let here = location
      switch option {
      case 0:
        return jumpObject(dst) ? 0 : 1
      case 1:
        guard isValidTitle(dst) else {
          warn("no title \(dst)")
          return 1
        }
        state.suspended = nil
        state.playing = nil
        state.registers.resetBackup()
        startTitle(dst, at: here)
        return 0
      case 2:
        guard Int(dst) < objects.count else {
          warn("no movie object \(dst)")
          return 1
        }
        suspend()
        state.object = Int(dst)  // suspend() cleared it; jump like _jump_object
        state.pc = 0
        state.playing = nil
        remember(here)
        return 0
      case 3:
        guard isValidTitle(dst) else {
          warn("no title \(dst)")
          return 1
        }
        suspend()
        startTitle(dst, at: here)
        return 0
      case 4:
        resume()
        return machine.libblurayResume ? 1 : 0
      default:
        warn("unknown jump option \(option)")
      }
    case 2:
      switch option {
      case 0, 1, 2:
        playPlaylist(
          command, playlist: dst, item: option == 1 ? src : nil, mark: option == 2 ? src : nil)
      case 3:
        guard state.buttonCommands != nil, let playing = state.playing else {
          warn("TerminatePL outside a menu")
          return 1
        }
        remember(location)
        state.buttonCommands = nil
        state.object = playing.object
        state.pc = playing.pc &+ 1
        state.playing = nil
        return 0
      case 4, 5:
        if state.buttonCommands == nil { warn("link command in a movie object is refused") }
      default:
        warn("unknown play option \(option)")
      }
    default:
      warn("unknown branch sub-group \(command.subGroup)")
    }
    return 1
  }

  mutating func playPlaylist(
    _ command: NavigationCommand, playlist: UInt32, item: UInt32?, mark: UInt32?
  ) {
    let here = location
    if state.buttonCommands != nil {
      // A button starting a playlist: the menu's intent, recorded; libbluray refuses it ("no
      // playlist change in an interactive composition"), a player leaves the menu for it.
      warn("PlayPL \(playlist) from a button (libbluray refuses it)")
      var snapshot = state
      snapshot.buttonCommands = nil
      run.reaches.append(
        PlaylistReach(
          entry: run.entry, playlist: Int(playlist), playItem: item.map(Int.init),
          mark: mark.map(Int.init), path: trail + [here],
          operandRegister: command.destinationIsImmediate ? nil : command.destination,
          feedingRegisters: [], title: Int(state.registers.player(4)), state: snapshot))
      stop(.buttonDone)
      return
    }
    guard let object = state.object else { return }
    let key = LoopKey(object: object, pc: state.pc, fingerprint: state.fingerprint)
    if seen.contains(key) {
      stop(.loop(here))
      return
    }
    seen.append(key)
    guard run.reaches.count < machine.playlistBudget else {
      warn("more than \(machine.playlistBudget) playlist starts")
      stop(.playlistBudget(run.reaches.count))
      return
    }
    var snapshot = state
    snapshot.playing = .init(object: object, pc: state.pc)
    snapshot.object = nil
    let register = command.destinationIsImmediate ? nil : command.destination
    let feeding =
      register == nil
      ? [] : writtenRegisters(first: 16).map { ($0, state.registers.general($0)) }
    run.reaches.append(
      PlaylistReach(
        entry: run.entry, playlist: Int(playlist), playItem: item.map(Int.init),
        mark: mark.map(Int.init), path: trail + [here], operandRegister: register,
        feedingRegisters: feeding, title: Int(state.registers.player(4)), state: snapshot))
    state.registers.setPlayer(6, playlist)
  }

  /// The lowest `count` GPR numbers this run has written, ascending.
  func writtenRegisters(first count: Int) -> [Int] {
    var numbers: [Int] = []
    for (index, word) in written.enumerated() where word != 0 {
      var bits = word
      while bits != 0 {
        guard numbers.count < count else { return numbers }
        numbers.append(index * 64 + bits.trailingZeroBitCount)
        bits &= bits - 1
      }
    }
    return numbers
  }

  mutating func store(_ reference: UInt32, _ value: UInt32) {
    if state.registers.store(reference, value) {
      let number = Int(reference & 0xFFF)
      if written.isEmpty {
        written = [UInt64](repeating: 0, count: HDMVRegisters.generalCount / 64)
      }
      written[number >> 6] |= 1 << UInt64(number & 63)
    } else {
      warn("store to register 0x\(String(reference, radix: 16)) refused")
    }
  }

  mutating func set(_ command: NavigationCommand, dst dst0: UInt32, src src0: UInt32) {
    var dst = dst0
    var src = src0
    switch command.setOption {
    case 1: dst = src
    case 2: swap(&dst, &src)
    case 3: dst = UInt32(clamping: UInt64(dst) + UInt64(src))
    case 4: dst = dst > src ? dst - src : 0
    case 5: dst = UInt32(clamping: UInt64(dst) * UInt64(src))
    case 6: dst = src > 0 ? dst / src : 0xFFFF_FFFF
    case 7: dst = src > 0 ? dst % src : 0xFFFF_FFFF
    case 8:
      state.random = state.random &* 6_364_136_223_846_793_005 &+ 1
      if src == 0 {
        warn("Rnd with range 0")
        dst = 1
      } else {
        dst = UInt32(truncatingIfNeeded: state.random >> 32) % src + 1
      }
    case 9: dst &= src
    case 10: dst |= src
    case 11: dst ^= src
    case 12: dst |= src < 32 ? 1 << src : 0
    case 13: dst &= src < 32 ? ~(1 << src) : ~0
    case 14: dst = src < 32 ? dst << src : 0
    case 15: dst = src < 32 ? dst >> src : 0
    default: warn("unknown set option \(command.setOption)")
    }
    if dst != dst0 {
      if command.destinationIsImmediate {
        warn("store to an immediate operand refused")
      } else {
        store(command.destination, dst)
      }
    }
    if src != src0 {
      if command.destinationIsImmediate {
        warn("store to an immediate operand refused")
      } else {
        store(command.source, src)
      }
    }
  }

  mutating func setSystem(_ command: NavigationCommand, dst: UInt32, src: UInt32) {
    let inMenu = state.buttonCommands != nil
    switch command.setOption {
    case 1:  // SetStream
      if dst & 0x8000_0000 != 0 { state.registers.writePlayer(1, (dst >> 16) & 0xFFF) }
      if src & 0x8000_0000 != 0 { state.registers.writePlayer(0, (src >> 16) & 0xFF) }
      if src & 0x8000 != 0 { state.registers.writePlayer(3, src & 0xFF) }
      var psr2 = state.registers.player(2)
      if dst & 0x8000 != 0 { psr2 = (dst & 0xFFF) | (psr2 & 0xFFFF_F000) }
      psr2 = ((dst & 0x4000) << 17) | (psr2 & 0x7FFF_FFFF)
      state.registers.writePlayer(2, psr2)
    case 2:  // SetNVTimer
      let object = dst & 0xFFFF
      let timeout = src & 0xFFFF
      if timeout == 0 {
        state.registers.writePlayer(9, 0)
      } else if Int(object) < objects.count && timeout <= 300 {
        state.registers.writePlayer(9, timeout)
      } else {
        warn("invalid navigation timer (object \(object), \(timeout) s)")
      }
    case 3:  // SetButtonPage
      if inMenu {
        stop(.buttonDone)
        return
      }
      if dst & 0x8000_0000 != 0 { state.registers.writePlayer(10, dst & 0xFFFF) }
      if src & 0x8000_0000 != 0 { state.registers.writePlayer(11, src & 0xFF) }
    case 4, 5, 7, 8, 9:  // Enable/DisableButton, PopUpOff, StillOn/Off: menu events only
      break
    case 6:  // SetSecondaryStream
      var psr14 = state.registers.player(14)
      if dst & 0x8000_0000 != 0 { psr14 = ((dst & 0xFF) << 8) | (psr14 & 0xFFFF_00FF) }
      if dst & 0x0080_0000 != 0 { psr14 = (((dst >> 16) & 0xF) << 24) | (psr14 & 0xF0FF_FFFF) }
      if src & 0x8000_0000 != 0 { psr14 = ((src >> 16) & 0xFF) | (psr14 & 0xFFFF_FF00) }
      psr14 = (((dst >> 30) & 1) << 31) | (psr14 & 0x7FFF_FFFF)
      psr14 = (((src >> 30) & 1) << 30) | (psr14 & 0xBFFF_FFFF)
      state.registers.writePlayer(14, psr14)
      var psr2 = state.registers.player(2)
      if src & 0x8000 != 0 { psr2 = ((src & 0xFFF) << 16) | (psr2 & 0xF000_FFFF) }
      psr2 = (((src >> 13) & 3) << 30) | (psr2 & 0x3FFF_FFFF)
      state.registers.writePlayer(2, psr2)
    case 10:  // SetOutputMode: profile 5 players only
      if state.registers.player(31) & 0x13_0240 == 0x13_0240 {
        let psr22 = state.registers.player(22)
        state.registers.writePlayer(22, dst & 1 != 0 ? psr22 | 1 : psr22 & ~1)
      }
    case 11:  // SetStreamSS: 3D only
      break
    case 0x10:
      state.registers.writePlayer(103, dst)
    default:
      warn("unknown set-system option \(command.setOption)")
    }
  }
}
