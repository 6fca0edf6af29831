/// Finds the title a DVD's own menus play, in the spirit of HandBrake's `hb_dvdnav_main_feature`:
/// run the ``DVDVirtualMachine`` from First Play, and at every menu cell with buttons "press"
/// each button on a copy of the VM (breadth-first, each menu state once), following what it
/// plays: pre, cell and post commands included, so a long title that a cell command leaves after
/// two seconds counts for two seconds. Titles are ranked by the content time actually played in
/// one visit.
///
/// Players step over stills and timed waits; a menu cell without buttons whose still is
/// infinite ends its path. A title cell held by an infinite still whose navigation packs carry
/// buttons (a menu authored as a title) is pressed like a menu. Bounded by ``Limits``; reads
/// only the disc's IFOs (through ``DVDDisc``) and the navigation packs of menu cells and of title
/// cells held by an infinite still.
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
    /// Every button pressed and the titles its branch played until the next menu page (the
    /// episode search reads these: the same walk serves the main title and the episodes).
    package var presses: [DVDEpisodeMenuWalk.Press] = []
    /// The PGCs First Play's run plays in the title domain before any menu page with buttons
    /// (its first `rnd` outcome), each run of a PGC's cells once: the episode search reads a
    /// chain of PGCs no chapter names from it on a disc without menus.
    package var firstPlay: [DVDEpisodeMenuWalk.ProgramChainVisit] = []

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
    /// The path, an index into the search's ``Paths``.
    var path: Int
    var visit: Visit? = nil
    /// The press (an index into the search's presses) whose played titles this branch records,
    /// until it reaches a menu page; -1 for none.
    var press: Int = -1
    /// Whether this is First Play's run (its first outcome) before any menu page: its PGCs are
    /// recorded in ``Result/firstPlay``.
    var firstPlay = false
  }

  /// A VM position: menu states are explored once each; forked branches are queued once each.
  ///
  /// Fixed-size (no heap storage): it is built and hashed at every cell the search plays.
  struct MenuKey: Hashable {
    var domain: DVDDomain
    var titleSet: Int
    var programChain: Int
    var cell: Int
    var general: SIMD16<UInt16>
    var timer: SIMD2<UInt16>  // SPRM 9, 10

    func hash(into hasher: inout Hasher) {
      let place: UInt64
      switch domain {
      case .firstPlay: place = 0
      case .videoManagerMenu: place = 1
      case .titleSetMenu: place = 2
      case .title: place = 3
      }
      // The fields folded into two words (equal keys fold equally; the Hasher mixes them).
      let words = unsafeBitCast(general, to: SIMD4<UInt64>.self)
      let position =
        place << 62 ^ UInt64(truncatingIfNeeded: titleSet) << 44
        ^ UInt64(truncatingIfNeeded: programChain) << 24 ^ UInt64(truncatingIfNeeded: cell)
      let timerWord = UInt64(timer[0]) << 16 | UInt64(timer[1])
      hasher.combine(position ^ timerWord &* 0x9E37_79B9_7F4A_7C15 ^ words[0])
      hasher.combine(
        words[1] ^ (words[2] &* 0xC2B2_AE3D_27D4_EB4F) ^ (words[3] &* 0x1656_67B1_9E37_79F9))
    }
  }

  /// A queued branch: its position and the title visit it continues.
  struct QueueKey: Hashable {
    var menu: MenuKey
    var title: Int
  }

  static func key(_ vm: DVDVirtualMachine) -> MenuKey {
    MenuKey(
      domain: vm.domain, titleSet: vm.titleSet, programChain: vm.programChainNumber,
      cell: vm.cellNumber, general: vm.registers.gp,
      timer: SIMD2(vm.registers.sp[9], vm.registers.sp[10]))
  }

  /// Runs the search on `disc`.
  public static func run(_ disc: DVDDisc, limits: Limits = .default) -> Result {
    let program = disc.navigationShared.program(disc)
    var reader = DVDMenuButtonReader(disc: disc)
    var warnings: [String] = []
    var sampled: Set<Int> = []
    var commandsLeft = limits.commands
    var queue: [Branch] = []
    var queued: Set<QueueKey> = []
    var paths = Paths()
    var pressList: [DVDEpisodeMenuWalk.Press] = []
    /// Queues a forked branch unless the same position with the same visit is already queued.
    /// A branch forked by a cell's `rnd` in a press's branch (`press`) records a press of its
    /// own: what the press played so far, then this outcome.
    func enqueue(
      _ vm: DVDVirtualMachine, _ parent: Int, _ step: Step, visit: Visit?, press: Int = -1,
      outcome: @autoclosure () -> String = ""
    ) {
      let id = QueueKey(menu: key(vm), title: visit?.title ?? 0)
      guard queued.insert(id).inserted else { return }
      var recorded = -1
      if press >= 0 {
        var copy = pressList[press]
        copy.outcome += outcome()
        pressList.append(copy)
        recorded = pressList.count - 1
      }
      queue.append(
        Branch(vm: vm, path: paths.append(parent, step), visit: visit, press: recorded))
    }
    for fork in explore(
      DVDVirtualMachine(program: program), budget: &commandsLeft, warnings: &warnings,
      sampled: &sampled,
      { vm in
        vm.start()
        return true
      })
    {
      var first = Branch(vm: fork.vm, path: paths.append(-1, .firstPlay(draws: fork.draws)))
      first.firstPlay = queue.isEmpty
      queue.append(first)
    }
    var firstPlayVisits: [DVDEpisodeMenuWalk.ProgramChainVisit] = []
    var head = 0
    let emptyVM = DVDVirtualMachine(program: program)
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
      let size = disc.navigationShared.titleVOBSectors(disc, titleSet)
      vobSectors[titleSet] = size
      return size
    }
    var advertised: [Int: MediaTime] = [:]
    for (index, title) in disc.titles.enumerated() {
      if case .success(let t) = title { advertised[index + 1] = MediaTime(ticks: t.duration90k) }
    }

    /// Records a visit of `title`: it is kept when it played longer than the title's best so
    /// far; only then are its path and ending named.
    func record(_ visit: Visit, path: Int, ending: () -> String) {
      order += 1
      if let known = best[visit.title], known.play.played.ticks >= visit.played { return }
      let full = advertised[visit.title] ?? MediaTime(ticks: 0)
      best[visit.title] = (
        order,
        Play(
          title: visit.title, played: MediaTime(ticks: visit.played), advertised: full,
          path: paths.names(path), ending: ending())
      )
    }
    func format(_ ticks: Int64) -> String { DVDSmartTitleSelector.format(ticks) }
    /// Adds the title cell `vm` is at to the titles a press played: the run of its title's
    /// chapters goes on (the same or the next chapter), or a new run starts.
    func recordSpan(
      _ vm: DVDVirtualMachine, _ number: Int, into spans: inout [DVDEpisodeMenuWalk.Span]
    ) {
      guard number >= 1, number <= disc.titles.count,
        case .success(let title) = disc.titles[number - 1],
        let index = title.cells.firstIndex(where: {
          $0.programChain == vm.programChainNumber && $0.cell == vm.cellNumber
        })
      else { return }
      let chapter = title.cells[index].chapter
      if let last = spans.last, last.title == number,
        chapter == last.lastChapter || chapter == last.lastChapter + 1
      {
        spans[spans.count - 1].lastChapter = chapter
      } else {
        let entry = title.chapters[chapter - 1].cellRange.lowerBound == index
        spans.append(
          DVDEpisodeMenuWalk.Span(
            title: number, firstChapter: chapter, lastChapter: chapter, atChapterStart: entry,
            programChain: vm.programChainNumber))
      }
    }
    /// Adds the title cell `vm` is at to the PGCs a press played: the run of its PGC's cells goes
    /// on (a later cell of the same PGC), or a new run starts. A PGC no chapter of the title
    /// names (reached by `LinkPGCN`) is recorded too.
    func recordProgramChain(
      _ vm: DVDVirtualMachine, _ number: Int,
      into visits: inout [DVDEpisodeMenuWalk.ProgramChainVisit]
    ) {
      let pgc = vm.programChainNumber
      let cell = vm.cellNumber
      if let last = visits.last, last.title == number, last.titleSet == vm.titleSet,
        last.programChain == pgc, cell > last.lastCell
      {
        visits[visits.count - 1].lastCell = cell
      } else {
        visits.append(
          DVDEpisodeMenuWalk.ProgramChainVisit(
            title: number, titleSet: vm.titleSet, programChain: pgc, firstCell: cell,
            lastCell: cell))
      }
    }

    // The positions a branch played, cleared for each branch (its storage kept). Most branches
    // play a few cells: a list is searched until it holds 16, then a set takes over.
    var playedList: [MenuKey] = []
    var playedSet: Set<MenuKey> = []
    func insertPlayed(_ key: MenuKey) -> Bool {
      if playedSet.isEmpty {
        if playedList.contains(key) { return false }
        playedList.append(key)
        if playedList.count >= 16 { playedSet = Set(playedList) }
        return true
      }
      return playedSet.insert(key).inserted
    }
    while head < queue.count {
      // The explored front of the queue is dropped now and then, so that the queue's storage
      // is reused instead of growing with every branch ever queued.
      if head >= 32 && head * 2 >= queue.count {
        queue.removeFirst(head)
        head = 0
      }
      // Taken out of the queue (not copied): the queue's slot keeps an empty path.
      var branch = Branch(vm: emptyVM, path: -1)
      swap(&branch, &queue[head])
      head += 1
      playedList.removeAll(keepingCapacity: true)
      if !playedSet.isEmpty { playedSet.removeAll(keepingCapacity: true) }
      func closeVisit(_ ending: @autoclosure () -> String) {
        guard let v = branch.visit else { return }
        record(v, path: branch.path, ending: ending)
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
        // The branch's VM is read in place (a copy would cost more than the reads).
        let here = key(branch.vm)
        if branch.vm.domain == .title, let title = branch.vm.titleNumber {
          if let v = branch.visit, v.title != title { closeVisit("left for title \(title)") }
          if branch.visit == nil { branch.visit = Visit(title: title, played: 0) }
        } else if branch.visit != nil {
          closeVisit(branch.vm.domain == .title ? "left the title" : "left for a menu")
        }
        guard insertPlayed(here) else {
          closeVisit("loops")
          break
        }
        let infiniteStill = branch.vm.heldByInfiniteStill
        /// Presses every button of `groups` at this cell on a copy of the VM (each menu state
        /// once), queueing where each press leads.
        func pressEach(_ groups: [DVDHighlightInformation.ButtonGroup]) {
          sawButtons = true
          if seenMenus.insert(here).inserted, menuStates < limits.menuStates {
            menuStates += 1
            let place = Place(branch.vm)
            var pageName = ""
            var menuName = ""
            for press in presses(groups, display: branch.vm.registers.sp[14]) {
              pressed += 1
              func activate(_ vm: inout DVDVirtualMachine) -> Bool {
                vm.activate(button: press.button.number, command: press.button.command)
              }
              // A press that draws no `rnd` (nearly every one) has one outcome; else every
              // outcome is explored. Forks are taken out of the list in order (moved, not copied).
              var forks: [Fork] = []
              if let one = single(branch.vm, budget: &commandsLeft, activate) {
                forks = one.linked ? [Fork(vm: one.vm, linked: true, draws: [])] : []
              } else {
                forks = explore(
                  branch.vm, budget: &commandsLeft, warnings: &warnings, sampled: &sampled,
                  activate)
                forks.reverse()
              }
              while let fork = forks.popLast() {
                guard fork.linked else { continue }
                let step = Step.button(
                  place: place, button: press.button.number, label: press.label,
                  draws: fork.draws)
                if pageName.isEmpty {
                  pageName = place.name
                  var plain = place
                  plain.general = .zero
                  menuName = plain.name
                }
                pressList.append(
                  DVDEpisodeMenuWalk.Press(
                    page: menuStates, pageName: pageName, button: press.button.number,
                    group: press.label, played: [], menuName: menuName))
                queue.append(
                  Branch(
                    vm: fork.vm, path: paths.append(branch.path, step),
                    press: pressList.count - 1))
              }
            }
          } else if menuStates >= limits.menuStates {
            warnings.append("the menu state budget ran out; the search is partial")
          }
        }
        if branch.vm.domain != .title {
          let groups = reader.groups(
            titleSet: branch.vm.domain == .titleSetMenu ? branch.vm.titleSet : 0, cell: cell)
          if !groups.isEmpty {
            branch.press = -1
            branch.firstPlay = false
            pressEach(groups)
            if infiniteStill { break branchLoop }
          } else if infiniteStill {
            break branchLoop
          }
        }
        // A title cell held by an infinite still whose navigation packs carry buttons: a menu
        // authored as a title (pressed below).
        let stillGroups =
          branch.vm.domain == .title && infiniteStill
          ? reader.groups(titleSet: branch.vm.titleSet, title: true, cell: cell) : []
        if !stillGroups.isEmpty {
          branch.press = -1
          branch.firstPlay = false
        } else if branch.press >= 0, let number = branch.vm.titleNumber {
          recordSpan(branch.vm, number, into: &pressList[branch.press].played)
          recordProgramChain(branch.vm, number, into: &pressList[branch.press].programChains)
        }
        if branch.firstPlay, stillGroups.isEmpty, let number = branch.vm.titleNumber {
          recordProgramChain(branch.vm, number, into: &firstPlayVisits)
        }
        // The content this cell plays (a cell past the end of the title VOBs plays nothing).
        var content: Int64 = 0
        if branch.vm.domain == .title, branch.visit != nil, cell.countsForDuration {
          let available = sectors(branch.vm.titleSet)
          if available > 0, Int64(cell.lastSector) >= available {
            // A player cannot read it: the cell plays nothing (a warning, not a failure).
            let note =
              "title \(branch.vm.titleNumber ?? 0) cell \(branch.vm.cellNumber) lies outside the title VOBs (sector \(cell.lastSector) of \(available)); it plays nothing"
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
        if branch.vm.navigationTimerRunning {
          let left = Int64(branch.vm.registers.sp[9])
          let inPlayback = left <= seconds
          if inPlayback || infiniteStill {
            var handed = branch.visit
            handed?.played += inPlayback ? min(content, left * 90_000) : content
            let title = branch.vm.titleNumber ?? 0
            var recorded = false
            var expired = false
            for fork in explore(
              branch.vm, budget: &commandsLeft, warnings: &warnings, sampled: &sampled,
              { $0.advance(seconds: left)?.linked ?? false })
            where fork.linked {
              expired = true
              let carry =
                fork.vm.domain == .title && fork.vm.titleNumber == handed?.title ? handed : nil
              let step = Step.timer(
                left: left, title: title, titleSet: branch.vm.titleSet,
                programChain: branch.vm.registers.sp[10], draws: fork.draws)
              if carry == nil, inPlayback, !recorded, let v = handed {
                recorded = true
                record(v, path: branch.path) {
                  let full = advertised[v.title]?.ticks ?? 0
                  return
                    "left after \(format(v.played)) of \(format(full)): the navigation timer expired"
                }
              }
              enqueue(fork.vm, branch.path, step, visit: carry)
            }
            if expired && inPlayback {
              branch.visit = nil
              break branchLoop
            }
          }
        }
        // A title cell held by an infinite still whose navigation packs carry buttons: a menu
        // authored as a title (as some protected discs do). The viewer presses one of them, as
        // at a menu's still; stepping over it is not a way on.
        if !stillGroups.isEmpty {
          branch.visit?.played += content
          closeVisit("held at its still menu")
          pressEach(stillGroups)
          break branchLoop
        }
        branch.visit?.played += content
        func playCell(_ vm: inout DVDVirtualMachine) -> Bool {
          vm.advance(seconds: seconds)
          vm.finishCell()
          return true
        }
        if let one = single(branch.vm, budget: &commandsLeft, playCell) {
          // No `rnd` drawn (nearly every cell): one outcome, the branch goes on.
          branch.vm = one.vm
        } else {
          var forks = explore(
            branch.vm, budget: &commandsLeft, warnings: &warnings, sampled: &sampled, playCell)
          // The first outcome continues the branch, the others are queued (moved out in order);
          // in a press's branch each outcome is a press of its own, named with its draws.
          forks.reverse()
          guard let first = forks.popLast() else { break }
          let press = branch.press
          while let fork = forks.popLast() {
            enqueue(
              fork.vm, branch.path, .random(draws: fork.draws), visit: branch.visit, press: press,
              outcome: fork.note)
          }
          if !first.draws.isEmpty {
            branch.path = paths.append(branch.path, .random(draws: first.draws))
            if press >= 0 { pressList[press].outcome += first.note }
          }
          branch.vm = first.vm
        }
        if branch.vm.domain == .title, let v = branch.visit, branch.vm.titleNumber == v.title,
          !branch.vm.stopped, branch.vm.currentCell != nil
        {
          continue
        }
        if let v = branch.visit {
          let next = branch.vm
          closeVisit(
            {
              let full = advertised[v.title]?.ticks ?? 0
              let target =
                next.stopped
                ? "stopped"
                : (next.domain == .title ? "title \(next.titleNumber ?? 0)" : "a menu")
              return v.played < full
                ? "left for \(target) after \(format(v.played)) of \(format(full))"
                : "played to the end, then \(target)"
            }())
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
      warnings: warnings, presses: pressList, firstPlay: firstPlayVisits)
  }

}
