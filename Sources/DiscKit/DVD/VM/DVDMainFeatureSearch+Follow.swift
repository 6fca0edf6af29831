extension DVDMainFeatureSearch {
  /// Where a path of button presses leads (the comparison point with libdvdnav).
  package enum Outcome: Sendable, Hashable {
    /// The first cell of a title: the disc title, the PGC in its title set and the cell.
    case title(title: Int, programChain: Int, cell: Int)
    /// A menu cell with `buttons` buttons, waiting for a press.
    case menu(buttons: Int)
    /// The VM stopped.
    case stop
    /// The cell budget ran out.
    case limit
  }

  /// Plays `disc` from First Play, pressing the buttons of `buttons` (1-based) in order at each
  /// menu cell that has buttons and at each title cell held by an infinite still that has
  /// buttons (a menu authored as a title; stills without buttons are stepped over), and reports the first title cell reached after the last press,
  /// or the next menu with buttons, or the stop.
  package static func follow(_ disc: DVDDisc, buttons: [Int], maxCells: Int = 10_000) -> Outcome {
    var vm = DVDVirtualMachine(program: disc.navigationShared.program(disc))
    var reader = DVDMenuButtonReader(disc: disc)
    var pending = buttons[...]
    vm.start()
    for _ in 0..<maxCells {
      guard !vm.stopped, let cell = vm.currentCell else { return .stop }
      if vm.domain == .title {
        if pending.isEmpty, let title = vm.titleNumber {
          return .title(title: title, programChain: vm.programChainNumber, cell: vm.cellNumber)
        }
        // A title cell held by an infinite still, with buttons: the next press happens there.
        if vm.heldByInfiniteStill, let next = pending.first {
          let list = reader.buttons(titleSet: vm.titleSet, title: true, cell: cell)
          if !list.isEmpty {
            pending.removeFirst()
            guard next >= 1, next <= list.count else { return .stop }
            vm.activate(button: next, command: list[next - 1].command)
            continue
          }
        }
      } else {
        let list = reader.buttons(
          titleSet: vm.domain == .titleSetMenu ? vm.titleSet : 0, cell: cell)
        if !list.isEmpty {
          guard let next = pending.popFirst() else { return .menu(buttons: list.count) }
          guard next >= 1, next <= list.count else { return .stop }
          vm.activate(button: next, command: list[next - 1].command)
          continue
        }
      }
      vm.clock += Int64(cell.playbackTime.wholeSeconds)
      vm.finishCell()
    }
    return .limit
  }
}
