/// PGC, program and cell playback and link processing: libdvdnav's `vm.c` (`play_PGC`,
/// `play_PG`, `play_Cell`, `play_Cell_post`, `play_PGC_post`, `process_command`, `set_*`).
extension DVDVirtualMachine {
  /// Takes one link from the budget; `false` (and a stop) when it is spent.
  mutating func spendLink() -> Bool {
    guard linksLeft > 0 else {
      stop("the link budget ran out (a navigation loop?)")
      return false
    }
    linksLeft -= 1
    return true
  }

  /// Enters one nested playback step: `false` (and a stop) when the links run out or the steps
  /// nest too deeply (a PGC chain without cells that loops back on itself).
  mutating func enter() -> Bool {
    guard nesting < 256 else {
      stop("navigation nests too deeply (a PGC chain that loops without playing a cell?)")
      return false
    }
    return spendLink()
  }

  /// The PGC table of the current domain (menus: the SPRM 0 language unit or the first one).
  func programChainTable() -> DVDVirtualMachineProgram.ChainTable? {
    switch domain {
    case .title: return program.titleSet(titleSet)?.programChains
    case .titleSetMenu:
      return program.titleSet(titleSet)?.menus?.table(language: registers.sp[0])
    case .videoManagerMenu, .firstPlay:
      return program.managerMenuUnits?.table(language: registers.sp[0])
    }
  }

  /// Selects PGC `number` of the current domain's table.
  mutating func setProgramChain(_ number: Int) -> Bool {
    guard let table = programChainTable(), number >= 1, number <= table.chains.count,
      let found = table.chains[number - 1]
    else { return false }
    chain = found
    programChainNumber = number
    programNumber = 1
    if domain == .title { registers.sp[6] = UInt16(number) }
    return true
  }

  mutating func setFirstPlay() -> Bool {
    domain = .firstPlay
    if let fp = program.firstPlayChain {
      chain = fp
      programChainNumber = 0
      return true
    }
    return setProgramChain(1)
  }

  /// Selects menu `menu` (entry id `menu | 0x80`) of the current menu domain.
  mutating func setMenu(_ menu: Int) -> Bool {
    guard let table = programChainTable(),
      let index = table.entryIDs.firstIndex(where: { Int($0) == (menu | 0x80) })
    else { return false }
    return setProgramChain(index + 1)
  }

  mutating func setTitleSetPart(_ vts: Int, _ ttn: Int, _ part: Int) -> Bool {
    domain = .title
    guard let info = program.titleSet(vts) else { return false }
    titleSet = vts
    let titles = info.titles
    guard ttn >= 1, ttn <= titles.count, part >= 1, part <= titles[ttn - 1].count else {
      return false
    }
    let target = titles[ttn - 1][part - 1]
    registers.sp[6] = UInt16(truncatingIfNeeded: target.programChain)
    registers.sp[7] = UInt16(truncatingIfNeeded: part)
    let tt = program.titleNumber(titleSet: vts, titleInSet: ttn)
    guard tt != 0 else { return false }
    registers.sp[4] = UInt16(tt)
    registers.sp[5] = UInt16(ttn)
    let ok = setProgramChain(target.programChain)
    programNumber = target.program
    return ok
  }

  mutating func setTitle(_ tt: Int, part: Int = 1) -> Bool {
    guard tt >= 1, tt <= program.titles.count else { return false }
    let entry = program.titles[tt - 1]
    return setTitleSetPart(entry.titleSet, entry.titleInSet, part)
  }

  /// Derives pgN (and SPRM 7 in the title domain) from the cell; `false` past the last cell.
  mutating func setProgramFromCell() -> Bool {
    guard let chain else { return false }
    let map = chain.programMap
    var newProgram = 0
    while newProgram < map.count && cellNumber >= Int(map[newProgram]) { newProgram += 1 }
    if newProgram == map.count && cellNumber > chain.cells.count { return false }
    programNumber = newProgram
    if domain == .title, let info = program.titleSet(titleSet) {
      let ttn = Int(registers.sp[5])
      if ttn >= 1, ttn <= info.titles.count {
        let parts = info.titles[ttn - 1]
        var found = 0
        for (index, part) in parts.enumerated()
        where part.programChain == programChainNumber && part.program <= programNumber {
          found = index + 1
        }
        if found > 0 { registers.sp[7] = UInt16(found) }
      }
    }
    return true
  }

  mutating func saveResume(cell: Int) {
    resumePoint = Resume(
      titleSet: titleSet, programChain: programChainNumber, cell: cell == 0 ? cellNumber : cell,
      registers: SIMD8(
        registers.sp[4], registers.sp[5], registers.sp[6], registers.sp[7], registers.sp[8], 0, 0,
        0))
  }

  // MARK: playback

  mutating func playProgramChain() -> DVDLink {
    nesting += 1
    defer { nesting -= 1 }
    guard enter(), let chain else { return .exit }
    programNumber = 1
    cellNumber = 0
    if !chain.pre.isEmpty, let link = evaluate(chain.pre) { return link }
    if stopped { return .exit }
    return playProgram()
  }

  mutating func playProgram() -> DVDLink {
    nesting += 1
    defer { nesting -= 1 }
    guard enter(), let chain else { return .exit }
    let map = chain.programMap
    guard programNumber >= 1 else {
      warnings.append("program \(programNumber) does not exist")
      return .exit
    }
    if programNumber > map.count { return playProgramChainPost() }
    cellNumber = Int(map[programNumber - 1])
    return playCell()
  }

  mutating func playCell() -> DVDLink {
    nesting += 1
    defer { nesting -= 1 }
    guard enter(), let chain else { return .exit }
    let cells = chain.cells
    guard cellNumber >= 1 else {
      warnings.append("cell \(cellNumber) does not exist")
      return .exit
    }
    if cellNumber > cells.count { return playProgramChainPost() }
    let cell = cells[cellNumber - 1]
    if cell.blockMode == 1 && cell.blockType == 1 {
      let angle = Int(registers.sp[3])
      let target = cellNumber + max(0, angle - 1)
      if target <= cells.count && cells[target - 1].blockMode != 0
        && cells[target - 1].blockType == 1
      {
        cellNumber = target
      }
    }
    guard setProgramFromCell() else { return playProgramChainPost() }
    return .playThis
  }

  mutating func playCellPost() -> DVDLink {
    nesting += 1
    defer { nesting -= 1 }
    guard enter(), let chain, cellNumber >= 1, cellNumber <= chain.cells.count
    else { return .exit }
    let cells = chain.cells
    let cell = cells[cellNumber - 1]
    let number = Int(cell.cellCommandNumber)
    let commands = chain.cellCommands
    if number != 0, number <= commands.count, let link = evaluate(commands[(number - 1)..<number]) {
      return link
    }
    if stopped { return .exit }
    if cell.blockMode == 0 {
      cellNumber += 1
    } else {
      cellNumber += 1
      while cellNumber <= cells.count && cells[cellNumber - 1].blockMode >= 2 { cellNumber += 1 }
    }
    guard setProgramFromCell() else { return playProgramChainPost() }
    return playCell()
  }

  mutating func playProgramChainPost() -> DVDLink {
    nesting += 1
    defer { nesting -= 1 }
    guard enter(), let chain else { return .exit }
    if !chain.post.isEmpty, let link = evaluate(chain.post) { return link }
    if stopped { return .exit }
    guard setProgramChain(Int(chain.chain.nextProgramChain)) else { return .exit }
    return playProgramChain()
  }

  // MARK: links

  mutating func highlight(_ button: Int) {
    if button != 0 { registers.sp[8] = UInt16(truncatingIfNeeded: button << 10) }
  }

  /// Follows `link` until the VM is at a cell to play (`playThis`) or stops.
  mutating func process(_ first: DVDLink) {
    var link = first
    while link != .playThis {
      if stopped { return }
      guard spendLink() else { return }
      switch link {
      case .playThis: return
      case .noLink(let button):
        highlight(button)
        return
      case .topCell(let button):
        highlight(button)
        link = playCell()
      case .nextCell(let button):
        highlight(button)
        cellNumber += 1
        link = playCell()
      case .previousCell(let button):
        highlight(button)
        cellNumber -= 1
        link = playCell()
      case .topProgram(let button):
        highlight(button)
        link = playProgram()
      case .nextProgram(let button):
        highlight(button)
        programNumber += 1
        link = playProgram()
      case .previousProgram(let button):
        highlight(button)
        programNumber -= 1
        link = playProgram()
      case .topProgramChain(let button):
        highlight(button)
        link = playProgramChain()
      case .nextProgramChain(let button), .previousProgramChain(let button),
        .goUpProgramChain(let button):
        highlight(button)
        let target: UInt16
        switch link {
        case .nextProgramChain: target = chain?.chain.nextProgramChain ?? 0
        case .previousProgramChain: target = chain?.chain.previousProgramChain ?? 0
        default: target = chain?.chain.goUpProgramChain ?? 0
        }
        link = setProgramChain(Int(target)) ? playProgramChain() : .exit
      case .tailProgramChain(let button):
        highlight(button)
        link = playProgramChainPost()
      case .resume(let button):
        guard let point = resumePoint else {
          warnings.append("resume without a resume point")
          link = .exit
          break
        }
        domain = .title
        titleSet = point.titleSet
        guard setProgramChain(point.programChain) else {
          link = .exit
          break
        }
        for i in 0..<5 { registers.sp[4 + i] = point.registers[i] }
        highlight(button)
        if point.cell == 0 {
          programNumber = 1
          link = playProgram()
        } else {
          cellNumber = point.cell
          link = setProgramFromCell() ? .playThis : .tailProgramChain(button: 0)
        }
      case .programChain(let number):
        if setProgramChain(number) {
          link = playProgramChain()
        } else {
          warnings.append("LinkPGCN \(number): no such PGC")
          link = .exit
        }
      case .partOfTitle(let part, let button):
        highlight(button)
        if domain == .title,
          setTitleSetPart(titleSet, Int(registers.sp[5]), part)
        {
          link = playProgram()
        } else {
          link = .exit
        }
      case .program(let number, let button):
        highlight(button)
        programNumber = number
        link = playProgram()
      case .cell(let number, let button):
        highlight(button)
        cellNumber = number
        link = playCell()
      case .exit:
        stopped = true
        return
      case .jumpTitle(let tt):
        if setTitle(tt) {
          link = playProgramChain()
        } else {
          warnings.append("JumpTT \(tt): no such title (or its title set cannot be read)")
          link = .exit
        }
      case .jumpTitleSetTitle(let ttn):
        if setTitleSetPart(titleSet, ttn, 1) {
          link = playProgramChain()
        } else {
          warnings.append("JumpVTS_TT \(ttn): no such title in title set \(titleSet)")
          link = .exit
        }
      case .jumpTitleSetPart(let ttn, let part):
        if setTitleSetPart(titleSet, ttn, part) {
          let pg = programNumber
          link = playProgramChain(startingAt: pg)
        } else {
          warnings.append("JumpVTS_PTT \(ttn):\(part): no such chapter in title set \(titleSet)")
          link = .exit
        }
      case .jumpFirstPlay:
        link = setFirstPlay() ? playProgramChain() : .exit
      case .jumpManagerMenu(let menu):
        domain = .videoManagerMenu
        link = setMenu(menu) ? playProgramChain() : menuMissing("VMGM menu \(menu)")
      case .jumpTitleSetMenu(let vts, let ttn, let menu):
        if vts != 0 {
          guard program.titleSet(vts) != nil else {
            warnings.append("JumpSS VTSM \(vts): title set \(vts) cannot be read")
            link = .exit
            break
          }
          titleSet = vts
        }
        domain = .titleSetMenu
        registers.sp[5] = UInt16(truncatingIfNeeded: ttn)
        registers.sp[4] = UInt16(program.titleNumber(titleSet: titleSet, titleInSet: ttn))
        link = setMenu(menu) ? playProgramChain() : menuMissing("VTS \(titleSet) menu \(menu)")
      case .jumpManagerProgramChain(let number):
        domain = .videoManagerMenu
        link = setProgramChain(number) ? playProgramChain() : menuMissing("VMGM PGC \(number)")
      case .callFirstPlay(let cell):
        saveResume(cell: cell)
        link = setFirstPlay() ? playProgramChain() : .exit
      case .callManagerMenu(let menu, let cell):
        saveResume(cell: cell)
        domain = .videoManagerMenu
        link = setMenu(menu) ? playProgramChain() : menuMissing("VMGM menu \(menu)")
      case .callTitleSetMenu(let menu, let cell):
        saveResume(cell: cell)
        domain = .titleSetMenu
        link = setMenu(menu) ? playProgramChain() : menuMissing("VTS \(titleSet) menu \(menu)")
      case .callManagerProgramChain(let number, let cell):
        saveResume(cell: cell)
        domain = .videoManagerMenu
        link = setProgramChain(number) ? playProgramChain() : menuMissing("VMGM PGC \(number)")
      }
    }
  }

  mutating func menuMissing(_ what: String) -> DVDLink {
    warnings.append(what + " does not exist")
    return .exit
  }

  /// `play_PGC_PG`: the pre commands, then program `pg`.
  mutating func playProgramChain(startingAt pg: Int) -> DVDLink {
    nesting += 1
    defer { nesting -= 1 }
    guard enter(), let chain else { return .exit }
    programNumber = pg
    cellNumber = 0
    if !chain.pre.isEmpty, let link = evaluate(chain.pre) { return link }
    if stopped { return .exit }
    return playProgram()
  }
}
