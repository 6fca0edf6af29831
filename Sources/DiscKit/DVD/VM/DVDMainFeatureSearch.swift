/// Finds the title a DVD's own menus play, in the spirit of HandBrake's `hb_dvdnav_main_feature`:
/// run the ``DVDVirtualMachine`` from First Play, and at every menu cell with buttons "press"
/// each button on a copy of the VM (breadth-first, each menu state once), following what it
/// plays: pre, cell and post commands included, so a long title that a cell command leaves after
/// two seconds counts for two seconds. Titles are ranked by the content time actually played in
/// one visit.
///
/// Players step over stills and timed waits; a menu cell without buttons whose still is
/// infinite ends its path. Bounded by ``Limits``; reads only the disc's IFOs (through
/// ``DVDDisc``) and the menu VOBs' navigation packs.
@_spi(Formats)
public enum DVDMainFeatureSearch {
  /// How much the search may explore.
  public struct Limits: Sendable, Hashable {
    /// Menu states (a menu cell with given registers) explored at most.
    public var menuStates: Int
    /// Cells played at most, over the whole search.
    public var cells: Int
    /// Navigation commands run at most, over the whole search (every branch and every `rnd`
    /// outcome takes from it).
    public var commands: Int
    /// The defaults: 400 menu states, 20,000 cells, 2,000,000 commands.
    public static let `default` = Limits(menuStates: 400, cells: 20_000)

    /// Limits from their values.
    public init(menuStates: Int, cells: Int, commands: Int = 2_000_000) {
      self.menuStates = menuStates
      self.cells = cells
      self.commands = commands
    }
  }

  /// One visit of a title: how long it played and how the player got there.
  public struct Play: Sendable, Hashable {
    /// The disc title number.
    public var title: Int
    /// The content time played before the player left the title.
    public var played: MediaTime
    /// The title's advertised length (its cells), for comparison.
    public var advertised: MediaTime
    /// The steps from First Play, e.g. `["First Play", "VMGM PGC 1 button 1"]`.
    public var path: [String]
    /// How the visit ended: `played to the end`, `left after …`, `stopped`.
    public var ending: String
  }

  /// What the search found.
  public struct Result: Sendable, Hashable {
    /// The longest visit of each title reached, longest first (ties: first reached).
    public var plays: [Play]
    /// Menu states explored (menu cells with buttons).
    public var menuStates: Int
    /// Buttons pressed.
    public var buttonsPressed: Int
    /// Whether any menu cell's buttons could be read (the menu VOBs are present).
    public var sawButtons: Bool
    /// Warnings: invalid jumps, exhausted budgets, unreadable navigation packs.
    public var warnings: [String]

    /// The title played longest, if any.
    public var best: Play? { plays.first }
  }

  /// A title visit in progress: the title and the content time played so far (90 kHz).
  struct Visit: Hashable {
    var title: Int
    var played: Int64
  }

  /// A branch waiting to be explored: a VM at a cell, how it got there, and the title visit it
  /// continues (a branch forked in a title by `rnd` or the navigation timer).
  struct Branch {
    var vm: DVDVirtualMachine
    var path: [String]
    var visit: Visit? = nil
  }

  /// A VM position: menu states are explored once each; forked branches are queued once each.
  struct MenuKey: Hashable {
    var domain: DVDDomain
    var titleSet: Int
    var programChain: Int
    var cell: Int
    var general: [UInt16]
    var timer: [UInt16]  // SPRM 9, 10
  }

  static func key(_ vm: DVDVirtualMachine) -> MenuKey {
    MenuKey(
      domain: vm.domain, titleSet: vm.titleSet, programChain: vm.programChainNumber,
      cell: vm.cellNumber, general: vm.registers.general,
      timer: [vm.registers.system[9], vm.registers.system[10]])
  }

  /// Runs the search on `disc`.
  public static func run(_ disc: DVDDisc, limits: Limits = .default) -> Result {
    let program = DVDVirtualMachineProgram(disc: disc)
    var reader = DVDMenuButtonReader(fileSystem: disc.fileSystem)
    var warnings: [String] = []
    var commandsLeft = limits.commands
    var queue: [Branch] = []
    var queued: Set<[AnyHashable]> = []
    /// Queues a forked branch unless the same position with the same visit is already queued.
    func enqueue(_ branch: Branch) {
      let id: [AnyHashable] = [key(branch.vm), branch.visit?.title ?? 0]
      guard queued.insert(id).inserted else { return }
      queue.append(branch)
    }
    for fork in explore(
      DVDVirtualMachine(program: program), budget: &commandsLeft, warnings: &warnings,
      { vm in
        vm.start()
        return true
      })
    {
      queue.append(Branch(vm: fork.vm, path: ["First Play" + fork.note]))
    }
    var head = 0
    var seenMenus: Set<MenuKey> = []
    var best: [Int: (order: Int, play: Play)] = [:]
    var order = 0
    var cellsLeft = limits.cells
    var menuStates = 0
    var pressed = 0
    var sawButtons = false
    // Title VOB sizes in sectors (0 when the VOBs are absent: IFO-only sets are not checked).
    var vobSectors: [Int: Int64] = [:]
    func sectors(_ titleSet: Int) -> Int64 {
      if let known = vobSectors[titleSet] { return known }
      let size = ((try? disc.titleVOBs(titleSet: titleSet))?.size ?? 0) / 2048
      vobSectors[titleSet] = size
      return size
    }
    var advertised: [Int: MediaTime] = [:]
    for (index, title) in disc.titles.enumerated() {
      if case .success(let t) = title { advertised[index + 1] = MediaTime(ticks: t.duration90k) }
    }

    func record(_ play: Play) {
      order += 1
      if let known = best[play.title], known.play.played >= play.played { return }
      best[play.title] = (order, play)
    }
    func format(_ ticks: Int64) -> String { DVDSmartTitleSelector.format(ticks) }

    while head < queue.count {
      var branch = queue[head]
      head += 1
      var playedHere: Set<MenuKey> = []
      func closeVisit(_ ending: String) {
        guard let v = branch.visit else { return }
        let full = advertised[v.title] ?? MediaTime(ticks: 0)
        record(
          Play(
            title: v.title, played: MediaTime(ticks: v.played), advertised: full,
            path: branch.path, ending: ending))
        branch.visit = nil
      }
      branchLoop: while true {
        if branch.vm.stopped {
          closeVisit("stopped")
          break
        }
        guard let cell = branch.vm.currentCell, cellsLeft > 0, commandsLeft > 0 else {
          if cellsLeft <= 0 { warnings.append("the cell budget ran out; the search is partial") }
          if commandsLeft <= 0 {
            let note = "the command budget ran out; the search is partial"
            if !warnings.contains(note) { warnings.append(note) }
          }
          closeVisit("stopped")
          break
        }
        cellsLeft -= 1
        let vm = branch.vm
        let here = key(vm)
        if vm.domain == .title, let title = vm.titleNumber {
          if let v = branch.visit, v.title != title { closeVisit("left for title \(title)") }
          if branch.visit == nil { branch.visit = Visit(title: title, played: 0) }
        } else if branch.visit != nil {
          closeVisit(vm.domain == .title ? "left the title" : "left for a menu")
        }
        guard playedHere.insert(here).inserted else {
          closeVisit("loops")
          break
        }
        let infiniteStill =
          cell.stillTime == 0xFF
          || (vm.cellNumber == (vm.currentProgramChain?.cellPlayback?.count ?? 0)
            && vm.currentProgramChain?.stillTime == 0xFF)
        if vm.domain != .title {
          let groups = reader.groups(
            titleSet: vm.domain == .titleSetMenu ? vm.titleSet : 0, cell: cell)
          if !groups.isEmpty {
            sawButtons = true
            if seenMenus.insert(here).inserted, menuStates < limits.menuStates {
              menuStates += 1
              let place = describe(vm)
              for press in presses(groups, display: vm.registers.system[14]) {
                pressed += 1
                for fork in explore(
                  vm, budget: &commandsLeft, warnings: &warnings,
                  { $0.activate(button: press.button.number, command: press.button.command) })
                where fork.linked {
                  queue.append(
                    Branch(
                      vm: fork.vm,
                      path: branch.path + [
                        "\(place) button \(press.button.number)\(press.label)\(fork.note)"
                      ]))
                }
              }
            } else if menuStates >= limits.menuStates {
              warnings.append("the menu state budget ran out; the search is partial")
            }
            if infiniteStill { break branchLoop }
          } else if infiniteStill {
            break branchLoop
          }
        }
        // The content this cell plays (a cell past the end of the title VOBs plays nothing).
        var content: Int64 = 0
        if vm.domain == .title, branch.visit != nil, cell.countsForDuration {
          let available = sectors(vm.titleSet)
          if available > 0, Int64(cell.lastSector) >= available {
            // A player cannot read it: the cell plays nothing (a warning, not a failure).
            let note =
              "title \(vm.titleNumber ?? 0) cell \(vm.cellNumber) lies outside the title VOBs (sector \(cell.lastSector) of \(available)); it plays nothing"
            if !warnings.contains(note) { warnings.append(note) }
          } else {
            content = cell.playbackTime.ticks90k
          }
        }
        let seconds =
          Int64(cell.playbackTime.wholeSeconds)
          + (cell.stillTime < 0xFF ? Int64(cell.stillTime) : 0)
        // The navigation timer: an expiry in this cell (or in its infinite still) is one more
        // edge. It ends the branch when it comes before the cell's end; at an infinite still the
        // branch also goes on as if a viewer stepped over the still.
        if vm.navigationTimerRunning {
          let left = Int64(vm.registers.system[9])
          let inPlayback = left <= seconds
          if inPlayback || infiniteStill {
            var handed = branch.visit
            handed?.played += inPlayback ? min(content, left * 90_000) : content
            let title = vm.titleNumber ?? 0
            var recorded = false
            var expired = false
            for fork in explore(
              vm, budget: &commandsLeft, warnings: &warnings,
              { $0.advance(seconds: left)?.linked ?? false })
            where fork.linked {
              expired = true
              let carry =
                fork.vm.domain == .title && fork.vm.titleNumber == handed?.title ? handed : nil
              let step =
                "navigation timer expired after \(left) s of title \(title) → SPRM 10: VTS \(vm.titleSet) PGC \(vm.registers.system[10])\(fork.note)"
              if carry == nil, inPlayback, !recorded, let v = handed {
                recorded = true
                let full = advertised[v.title]?.ticks ?? 0
                record(
                  Play(
                    title: v.title, played: MediaTime(ticks: v.played),
                    advertised: MediaTime(ticks: full), path: branch.path,
                    ending:
                      "left after \(format(v.played)) of \(format(full)): the navigation timer expired"
                  ))
              }
              enqueue(Branch(vm: fork.vm, path: branch.path + [step], visit: carry))
            }
            if expired && inPlayback {
              branch.visit = nil
              break branchLoop
            }
          }
        }
        branch.visit?.played += content
        let forks = explore(
          branch.vm, budget: &commandsLeft, warnings: &warnings,
          { vm in
            vm.advance(seconds: seconds)
            vm.finishCell()
            return true
          })
        guard let first = forks.first else { break }
        for fork in forks.dropFirst() {
          enqueue(Branch(vm: fork.vm, path: branch.path + ["rnd" + fork.note], visit: branch.visit))
        }
        if !first.note.isEmpty { branch.path.append("rnd" + first.note) }
        branch.vm = first.vm
        if branch.vm.domain == .title, let v = branch.visit, branch.vm.titleNumber == v.title,
          !branch.vm.stopped, branch.vm.currentCell != nil
        {
          continue
        }
        if let v = branch.visit {
          let full = advertised[v.title]?.ticks ?? 0
          let next =
            branch.vm.stopped
            ? "stopped"
            : (branch.vm.domain == .title
              ? "title \(branch.vm.titleNumber ?? 0)" : "a menu")
          closeVisit(
            v.played < full
              ? "left for \(next) after \(format(v.played)) of \(format(full))"
              : "played to the end, then \(next)")
        }
      }
      warnings += branch.vm.warnings.filter { !warnings.contains($0) }
    }
    warnings += reader.warnings
    let plays = best.values.sorted {
      $0.play.played != $1.play.played ? $0.play.played > $1.play.played : $0.order < $1.order
    }.map(\.play)
    return Result(
      plays: plays, menuStates: menuStates, buttonsPressed: pressed, sawButtons: sawButtons,
      warnings: warnings)
  }

  /// "VMGM PGC 1", "VTS 2 menu PGC 3", with the non-zero GPRMs.
  static func describe(_ vm: DVDVirtualMachine) -> String {
    var text: String
    switch vm.domain {
    case .firstPlay: text = "First Play"
    case .videoManagerMenu: text = "VMGM PGC \(vm.programChainNumber)"
    case .titleSetMenu: text = "VTS \(vm.titleSet) menu PGC \(vm.programChainNumber)"
    case .title: text = "VTS \(vm.titleSet) PGC \(vm.programChainNumber)"
    }
    let set = vm.registers.general.enumerated().filter { $0.element != 0 }
    if !set.isEmpty {
      text += " (" + set.map { "GPRM\($0.offset) = \($0.element)" }.joined(separator: ", ") + ")"
    }
    return text
  }
}
