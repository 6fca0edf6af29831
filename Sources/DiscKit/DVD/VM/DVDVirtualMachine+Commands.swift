/// The command decoder: libdvdnav's `decoder.c` semantics over ``DVDCommand`` bits.
extension DVDVirtualMachine {
  /// Runs `commands` from the first, following gotos, until one links (returned), the list ends,
  /// a Break runs or the command budget runs out (`nil`).
  mutating func evaluate(_ commands: [DVDCommand]) -> DVDLink? {
    evaluate(commands[...])
  }

  /// ``evaluate(_:)-([DVDCommand])`` over a slice (a cell command: a slice of one), its first
  /// command being line 1.
  mutating func evaluate(_ commands: ArraySlice<DVDCommand>) -> DVDLink? {
    var line = 0
    while line < commands.count {
      guard commandsLeft > 0 else {
        stop("the command budget ran out (a command loop?)")
        return nil
      }
      commandsLeft -= 1
      switch step(commands[commands.startIndex + line]) {
      case .next: line += 1
      case .goto(let target): line = target - 1
      case .breakOut: return nil
      case .link(let link): return link
      }
    }
    return nil
  }

  enum Outcome {
    case next
    case goto(Int)
    case breakOut
    case link(DVDLink)
  }

  /// One command.
  mutating func step(_ c: DVDCommand) -> Outcome {
    switch c.group {
    case 0:
      let cond = ifVersion1(c)
      guard cond else { return .next }
      switch c.bits(51, 4) {
      case 1:
        let line = Int(c.bits(7, 8))
        return line == 0 ? .next : .goto(line)
      case 2: return .breakOut
      case 3:
        registers.sp[13] = UInt16(c.bits(11, 4))
        let line = Int(c.bits(7, 8))
        return line == 0 ? .next : .goto(line)
      default: return .next
      }
    case 1:
      if c.bits(60, 1) != 0 {
        let cond = ifVersion2(c)
        if let link = jumpInstruction(c), cond { return .link(link) }
      } else {
        let cond = ifVersion1(c)
        if let link = linkInstruction(c), cond { return .link(link) }
      }
      return .next
    case 2:
      let cond = ifVersion2(c)
      systemSet(c, cond)
      if c.bits(51, 4) != 0, let link = linkInstruction(c), cond { return .link(link) }
      return .next
    case 3:
      let cond = ifVersion3(c)
      let op = Int(c.bits(59, 4))
      let reg = Int(c.bits(35, 4))
      let reg2 = Int(c.bits(19, 4))
      let data = regOrData(c, immediate: c.bits(60, 1) != 0, start: 31)
      if cond { setOperation(op, reg, reg2, data) }
      if c.bits(51, 4) != 0, let link = linkInstruction(c), cond { return .link(link) }
      return .next
    case 4:
      setVersion2(c, true)
      let cond = ifVersion4(c)
      if let link = linkSubInstruction(c), cond { return .link(link) }
      return .next
    case 5:
      let cond = ifVersion4(c)
      setVersion2(c, cond)
      if let link = linkSubInstruction(c), cond { return .link(link) }
      return .next
    case 6:
      let cond = ifVersion4(c)
      setVersion2(c, cond)
      if let link = linkSubInstruction(c) { return .link(link) }
      return .next
    default:
      warnings.append("unknown command group 7 (" + String(c.raw, radix: 16) + ") ignored")
      return .next
    }
  }

  // MARK: registers and comparisons

  /// A register operand: bit 7 set names SPRM (low 5 bits), else GPRM (low 4 bits).
  mutating func register(_ code: UInt32) -> UInt16 {
    if code & 0x80 != 0 { return registers.sprm(Int(code & 0x1F)) }
    return registers.gprm(Int(code & 0x0F), clock: clock)
  }

  mutating func regOrData(_ c: DVDCommand, immediate: Bool, start: Int) -> UInt16 {
    immediate ? UInt16(c.bits(start, 16)) : register(c.bits(start - 8, 8))
  }

  mutating func regOrData2(_ c: DVDCommand, immediate: Bool, start: Int) -> UInt16 {
    immediate
      ? UInt16(c.bits(start - 1, 7)) : registers.gprm(Int(c.bits(start - 4, 4)), clock: clock)
  }

  func compare(_ op: UInt32, _ a: UInt16, _ b: UInt16) -> Bool {
    switch op {
    case 1: return a & b != 0
    case 2: return a == b
    case 3: return a != b
    case 4: return a >= b
    case 5: return a > b
    case 6: return a <= b
    case 7: return a < b
    default: return false
    }
  }

  mutating func ifVersion1(_ c: DVDCommand) -> Bool {
    let op = c.bits(54, 3)
    guard op != 0 else { return true }
    let a = register(c.bits(39, 8))
    return compare(op, a, regOrData(c, immediate: c.bits(55, 1) != 0, start: 31))
  }

  mutating func ifVersion2(_ c: DVDCommand) -> Bool {
    let op = c.bits(54, 3)
    guard op != 0 else { return true }
    let a = register(c.bits(15, 8))
    return compare(op, a, register(c.bits(7, 8)))
  }

  mutating func ifVersion3(_ c: DVDCommand) -> Bool {
    let op = c.bits(54, 3)
    guard op != 0 else { return true }
    let a = register(c.bits(47, 8))
    return compare(op, a, regOrData(c, immediate: c.bits(55, 1) != 0, start: 15))
  }

  mutating func ifVersion4(_ c: DVDCommand) -> Bool {
    let op = c.bits(54, 3)
    guard op != 0 else { return true }
    let a = register(c.bits(51, 4))
    return compare(op, a, regOrData(c, immediate: c.bits(55, 1) != 0, start: 31))
  }

  // MARK: set

  mutating func setVersion2(_ c: DVDCommand, _ cond: Bool) {
    let op = Int(c.bits(59, 4))
    let reg = Int(c.bits(51, 4))
    let reg2 = Int(c.bits(35, 4))
    let data = regOrData(c, immediate: c.bits(60, 1) != 0, start: 47)
    if cond { setOperation(op, reg, reg2, data) }
  }

  /// mov, swp, add, sub, mul, div, mod, rnd, and, or, xor on GPRM `reg` (saturating like
  /// libdvdnav; division by zero gives 0xFFFF; `rnd` gives 1…data: a planned outcome when
  /// `plannedDraws` has one, else from the seeded generator).
  mutating func setOperation(_ op: Int, _ reg: Int, _ reg2: Int, _ data: UInt16) {
    let current = Int(registers.gprm(reg, clock: clock))
    let value = Int(data)
    let result: Int
    switch op {
    case 1: result = value
    case 2:
      registers.setGPRM(reg2, UInt16(current), clock: clock)
      result = value
    case 3: result = min(0xFFFF, current + value)
    case 4: result = max(0, current - value)
    case 5: result = min(0xFFFF, current * value)
    case 6: result = value == 0 ? 0xFFFF : current / value
    case 7: result = value == 0 ? 0xFFFF : current % value
    case 8: result = draw(register: reg, bound: value)
    case 9: result = current & value
    case 10: result = current | value
    case 11: result = current ^ value
    default: return
    }
    registers.setGPRM(reg, UInt16(truncatingIfNeeded: result), clock: clock)
  }

  /// SetSystem: streams (SPRM 1-3), navigation timer (SPRM 9, 10), GPRM counter mode,
  /// highlighted button (SPRM 8).
  ///
  /// SetNVTMR's PGC number is the 15-bit field of bytes 4-5 (the DVD-Video range of SPRM 10 is
  /// 1-32767); libdvdnav reads byte 5 only, the same for PGC numbers below 256.
  mutating func systemSet(_ c: DVDCommand, _ cond: Bool) {
    switch c.bits(59, 4) {
    case 1:
      for i in 1...3 where c.bits(63 - (2 + i) * 8, 1) != 0 {
        let data = regOrData2(c, immediate: c.bits(60, 1) != 0, start: 47 - i * 8)
        if cond { registers.sp[i] = data }
      }
    case 2:
      let data = regOrData(c, immediate: c.bits(60, 1) != 0, start: 47)
      let pgc = UInt16(c.bits(30, 15))
      if cond {
        registers.sp[9] = data
        registers.sp[10] = pgc
      }
    case 3:
      let data = regOrData(c, immediate: c.bits(60, 1) != 0, start: 47)
      let reg = Int(c.bits(19, 4))
      registers.setCounterMode(reg, c.bits(23, 1) != 0)
      if cond { registers.setGPRM(reg, data, clock: clock) }
    case 6:
      let data = regOrData(c, immediate: c.bits(60, 1) != 0, start: 31)
      if cond { registers.sp[8] = data }
    default: break
    }
  }

  // MARK: links

  func linkSubInstruction(_ c: DVDCommand) -> DVDLink? {
    let button = Int(c.bits(15, 6))
    switch c.bits(4, 5) {
    case 0: return .noLink(button: button)
    case 1: return .topCell(button: button)
    case 2: return .nextCell(button: button)
    case 3: return .previousCell(button: button)
    case 5: return .topProgram(button: button)
    case 6: return .nextProgram(button: button)
    case 7: return .previousProgram(button: button)
    case 9: return .topProgramChain(button: button)
    case 10: return .nextProgramChain(button: button)
    case 11: return .previousProgramChain(button: button)
    case 12: return .goUpProgramChain(button: button)
    case 13: return .tailProgramChain(button: button)
    case 16: return .resume(button: button)
    default: return nil
    }
  }

  func linkInstruction(_ c: DVDCommand) -> DVDLink? {
    switch c.bits(51, 4) {
    case 1: return linkSubInstruction(c)
    case 4: return .programChain(Int(c.bits(14, 15)))
    case 5: return .partOfTitle(Int(c.bits(9, 10)), button: Int(c.bits(15, 6)))
    case 6: return .program(Int(c.bits(6, 7)), button: Int(c.bits(15, 6)))
    case 7: return .cell(Int(c.bits(7, 8)), button: Int(c.bits(15, 6)))
    default: return nil
    }
  }

  func jumpInstruction(_ c: DVDCommand) -> DVDLink? {
    switch c.bits(51, 4) {
    case 1: return .exit
    case 2: return .jumpTitle(Int(c.bits(22, 7)))
    case 3: return .jumpTitleSetTitle(Int(c.bits(22, 7)))
    case 5: return .jumpTitleSetPart(title: Int(c.bits(22, 7)), part: Int(c.bits(41, 10)))
    case 6:
      switch c.bits(23, 2) {
      case 0: return .jumpFirstPlay
      case 1: return .jumpManagerMenu(Int(c.bits(19, 4)))
      case 2:
        return .jumpTitleSetMenu(
          titleSet: Int(c.bits(31, 8)), title: Int(c.bits(39, 8)), menu: Int(c.bits(19, 4)))
      default: return .jumpManagerProgramChain(Int(c.bits(46, 15)))
      }
    case 8:
      let resume = Int(c.bits(31, 8))
      switch c.bits(23, 2) {
      case 0: return .callFirstPlay(resumeCell: resume)
      case 1: return .callManagerMenu(Int(c.bits(19, 4)), resumeCell: resume)
      case 2: return .callTitleSetMenu(Int(c.bits(19, 4)), resumeCell: resume)
      default: return .callManagerProgramChain(Int(c.bits(46, 15)), resumeCell: resume)
      }
    default: return nil
    }
  }
}
