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
public enum DVDMainFeatureSearch {
  /// How much the search may explore.
  public struct Limits: Sendable, Hashable {
    /// Menu states (a menu cell with given registers) explored at most.
    public var menuStates: Int
    /// Cells played at most, over the whole search.
    public var cells: Int
    /// The defaults: 400 menu states, 20,000 cells.
    public static let `default` = Limits(menuStates: 400, cells: 20_000)

    /// Limits from their values.
    public init(menuStates: Int, cells: Int) {
      self.menuStates = menuStates
      self.cells = cells
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

  /// A branch waiting to be explored: a VM at a cell, and how it got there.
  struct Branch {
    var vm: DVDVirtualMachine
    var path: [String]
  }

  struct MenuKey: Hashable {
    var domain: DVDDomain
    var titleSet: Int
    var programChain: Int
    var cell: Int
    var general: [UInt16]
  }

  /// Runs the search on `disc`.
  public static func run(_ disc: DVDDisc, limits: Limits = .default) -> Result {
    let program = DVDVirtualMachineProgram(disc: disc)
    var reader = DVDMenuButtonReader(fileSystem: disc.fileSystem)
    var vm = DVDVirtualMachine(program: program)
    vm.start()
    var queue: [Branch] = [Branch(vm: vm, path: ["First Play"])]
    var head = 0
    var seenMenus: Set<MenuKey> = []
    var best: [Int: (order: Int, play: Play)] = [:]
    var order = 0
    var warnings: [String] = []
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

    while head < queue.count {
      var branch = queue[head]
      head += 1
      var visit: (title: Int, played: Int64)?
      var playedHere: Set<MenuKey> = []
      func closeVisit(_ ending: String) {
        guard let v = visit else { return }
        let full = advertised[v.title] ?? MediaTime(ticks: 0)
        record(
          Play(
            title: v.title, played: MediaTime(ticks: v.played), advertised: full,
            path: branch.path, ending: ending))
        visit = nil
      }
      branchLoop: while true {
        if branch.vm.stopped {
          closeVisit("stopped")
          break
        }
        guard let cell = branch.vm.currentCell, cellsLeft > 0 else {
          if cellsLeft <= 0 { warnings.append("the cell budget ran out; the search is partial") }
          closeVisit("stopped")
          break
        }
        cellsLeft -= 1
        let vm = branch.vm
        let key = MenuKey(
          domain: vm.domain, titleSet: vm.titleSet, programChain: vm.programChainNumber,
          cell: vm.cellNumber, general: vm.registers.general)
        if vm.domain == .title, let title = vm.titleNumber {
          if let v = visit, v.title != title { closeVisit("left for title \(title)") }
          if visit == nil { visit = (title, 0) }
        } else if visit != nil {
          closeVisit(vm.domain == .title ? "left the title" : "left for a menu")
        }
        guard playedHere.insert(key).inserted else {
          closeVisit("loops")
          break
        }
        let infiniteStill =
          cell.stillTime == 0xFF
          || (vm.cellNumber == (vm.currentProgramChain?.cellPlayback?.count ?? 0)
            && vm.currentProgramChain?.stillTime == 0xFF)
        if vm.domain != .title {
          let buttons = reader.buttons(
            titleSet: vm.domain == .titleSetMenu ? vm.titleSet : 0, cell: cell)
          if !buttons.isEmpty {
            sawButtons = true
            if seenMenus.insert(key).inserted, menuStates < limits.menuStates {
              menuStates += 1
              let place = describe(vm)
              for button in buttons {
                var copy = vm
                pressed += 1
                guard copy.activate(button: button.number, command: button.command) else {
                  continue
                }
                queue.append(
                  Branch(vm: copy, path: branch.path + ["\(place) button \(button.number)"]))
              }
            } else if menuStates >= limits.menuStates {
              warnings.append("the menu state budget ran out; the search is partial")
            }
            if infiniteStill { break branchLoop }
          } else if infiniteStill {
            break branchLoop
          }
        }
        if vm.domain == .title, visit != nil, cell.countsForDuration {
          let available = sectors(vm.titleSet)
          if available > 0, Int64(cell.lastSector) >= available {
            // A player cannot read it: the cell plays nothing (a warning, not a failure).
            let note =
              "title \(vm.titleNumber ?? 0) cell \(vm.cellNumber) lies outside the title VOBs (sector \(cell.lastSector) of \(available)); it plays nothing"
            if !warnings.contains(note) { warnings.append(note) }
          } else {
            visit?.played += cell.playbackTime.ticks90k
          }
        }
        branch.vm.clock += Int64(cell.playbackTime.wholeSeconds)
        branch.vm.finishCell()
        if branch.vm.domain == .title, let v = visit, branch.vm.titleNumber == v.title,
          !branch.vm.stopped, branch.vm.currentCell != nil
        {
          continue
        }
        if let v = visit {
          let full = advertised[v.title]?.ticks ?? 0
          let next =
            branch.vm.stopped
            ? "stopped"
            : (branch.vm.domain == .title
              ? "title \(branch.vm.titleNumber ?? 0)" : "a menu")
          closeVisit(
            v.played < full
              ? "left for \(next) after \(DVDSmartTitleSelector.format(v.played)) of \(DVDSmartTitleSelector.format(full))"
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
