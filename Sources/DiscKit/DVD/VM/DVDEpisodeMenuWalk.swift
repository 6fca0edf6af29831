/// Runs a DVD's menus for the episode search: from First Play, every menu page the navigation
/// shows (a menu cell with buttons, with the registers it was entered with; each once) has each
/// button of the group a player shows pressed on a copy of the ``DVDVirtualMachine``, then the
/// buttons of the other display modes' groups that run another command (a 16:9 menu's wide,
/// letterbox and pan & scan groups: a player in another mode presses those), and each press is
/// followed through the titles it plays (pre, cell and post commands run: a button
/// that sets a GPRM flag the post commands test plays the titles that flag chains) until the
/// next menu page, the stop or a loop. Stills and timed waits are stepped over; the navigation
/// timer and `rnd` take the VM's own course (one fixed-seed draw).
///
/// Reads the IFOs (through ``DVDDisc``) and the navigation packs of menu cells and of title
/// cells held by an infinite still; bounded by ``Limits`` (pages, cells and commands over the
/// whole walk).
package enum DVDEpisodeMenuWalk {
  /// How much the walk may explore.
  package struct Limits: Sendable, Hashable {
    /// Menu pages (states) explored at most.
    package var pages: Int
    /// Cells played at most, over the whole walk.
    package var cells: Int
    /// Navigation commands run at most, over the whole walk (every press takes from it).
    package var commands: Int
    /// The defaults: 200 pages, 50,000 cells, 2,000,000 commands.
    package static let `default` = Limits(pages: 200, cells: 50_000)

    /// Limits from their values.
    package init(pages: Int, cells: Int, commands: Int = 2_000_000) {
      self.pages = pages
      self.cells = cells
      self.commands = commands
    }
  }

  /// A run of one title's chapters played in order.
  package struct Span: Sendable, Hashable {
    /// The disc title.
    package var title: Int
    /// The first and last chapters played (1-based).
    package var firstChapter: Int
    package var lastChapter: Int
    /// Whether playback entered the title at the first cell of ``firstChapter``.
    package var atChapterStart: Bool
    /// The PGC (of the title set) playback entered the title at.
    package var programChain: Int = 0
  }

  /// One button pressed and what it played.
  package struct Press: Sendable, Hashable {
    /// The page: its index in the walk's order, and its name (`VMGM PGC 1`, `VTS 1 menu PGC 2`,
    /// with the GPRMs set).
    package var page: Int
    package var pageName: String
    /// The 1-based button number.
    package var button: Int
    /// The button group when it is not the one a player shows by default (` (group 1, wide)`),
    /// else empty.
    package var group: String = ""
    /// The titles played after the press, in order, until the next menu page or the stop.
    package var played: [Span]

    /// The page's menu without its registers (`VMGM PGC 1`): the same menu entered with other
    /// GPRMs (an authoring tool's own dispatch registers) is the same menu to a viewer.
    package var menuName: String

    /// `VMGM PGC 1 button 2` (`VMGM PGC 1 button 3 (group 1, wide)`).
    package var name: String { "\(menuName) button \(button)\(group)" }
  }

  /// Runs the walk on `disc`.
  package static func run(_ disc: DVDDisc, limits: Limits = .default) -> [Press] {
    let program = disc.navigationShared.program(disc)
    var reader = DVDMenuButtonReader(disc: disc)
    var titles: [Int: DVDTitle] = [:]
    for (index, result) in disc.titles.enumerated() {
      if case .success(let t) = result { titles[index + 1] = t }
    }
    var cellsLeft = limits.cells
    var commandsLeft = limits.commands
    /// Runs `step` on `vm` with the commands the walk has left, and takes what it used.
    func spending(_ vm: inout DVDVirtualMachine, _ step: (inout DVDVirtualMachine) -> Void) {
      vm.commandsLeft = min(vm.commandsLeft, max(0, commandsLeft))
      let before = vm.commandsLeft
      step(&vm)
      commandsLeft -= before - vm.commandsLeft
    }
    var first = DVDVirtualMachine(program: program)
    spending(&first) { $0.start() }
    var queue: [DVDVirtualMachine] = [first]
    var head = 0
    var seen: Set<DVDMainFeatureSearch.MenuKey> = []
    var presses: [Press] = []
    var pages = 0

    /// The button groups of the cell `vm` is at when it is a menu page: a menu cell with
    /// buttons, or a title cell held by an infinite still with buttons.
    func page(_ vm: DVDVirtualMachine, _ cell: DVDCellPlayback) -> [DVDHighlightInformation
      .ButtonGroup]
    {
      if vm.domain != .title {
        return reader.groups(titleSet: vm.domain == .titleSetMenu ? vm.titleSet : 0, cell: cell)
      }
      guard vm.heldByInfiniteStill else { return [] }
      return reader.groups(titleSet: vm.titleSet, title: true, cell: cell)
    }

    /// Plays `vm` on until a menu page (returned with the spans played), the stop or a loop.
    func play(_ vm: inout DVDVirtualMachine) -> (
      spans: [Span], page: DVDVirtualMachine?
    ) {
      var spans: [Span] = []
      var visited: Set<DVDMainFeatureSearch.MenuKey> = []
      while cellsLeft > 0, commandsLeft > 0 {
        guard !vm.stopped, let cell = vm.currentCell else { return (spans, nil) }
        cellsLeft -= 1
        if !page(vm, cell).isEmpty { return (spans, vm) }
        guard visited.insert(DVDMainFeatureSearch.key(vm)).inserted else { return (spans, nil) }
        if vm.domain == .title, let number = vm.titleNumber, let title = titles[number],
          let index = title.cells.firstIndex(where: {
            $0.programChain == vm.programChainNumber && $0.cell == vm.cellNumber
          })
        {
          let chapter = title.cells[index].chapter
          if var last = spans.last, last.title == number,
            chapter == last.lastChapter
              || chapter == last.lastChapter + 1
          {
            last.lastChapter = chapter
            spans[spans.count - 1] = last
          } else {
            let entry = title.chapters[chapter - 1].cellRange.lowerBound == index
            spans.append(
              Span(
                title: number, firstChapter: chapter, lastChapter: chapter, atChapterStart: entry,
                programChain: vm.programChainNumber))
          }
        }
        vm.clock += Int64(cell.playbackTime.wholeSeconds)
        spending(&vm) { $0.finishCell() }
      }
      return (spans, nil)
    }

    while head < queue.count, pages < limits.pages, cellsLeft > 0, commandsLeft > 0 {
      var vm = queue[head]
      head += 1
      // On to the next menu page.
      guard let at = play(&vm).page, let cell = at.currentCell,
        seen.insert(DVDMainFeatureSearch.key(at)).inserted
      else { continue }
      let groups = page(at, cell)
      guard !groups.isEmpty else { continue }
      pages += 1
      var place = DVDMainFeatureSearch.Place(at)
      let name = place.name
      place.general = .zero
      let menuName = place.name
      for press in DVDMainFeatureSearch.presses(groups, display: at.registers.sp[14]) {
        let button = press.button
        var copy = at
        var linked = false
        spending(&copy) { linked = $0.activate(button: button.number, command: button.command) }
        guard linked else { continue }
        let (spans, next) = play(&copy)
        presses.append(
          Press(
            page: pages, pageName: name, button: button.number, group: press.label,
            played: spans, menuName: menuName))
        if let next { queue.append(next) }
      }
    }
    return presses
  }
}
