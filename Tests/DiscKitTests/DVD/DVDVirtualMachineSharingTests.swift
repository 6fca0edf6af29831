@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The VM's forks share the disc's navigation data (one ``DVDVirtualMachineProgram`` and its
/// unwrapped PGCs, held by reference) and copy only registers and position.
///
/// Oracle: the same VM work done without any sharing. Every fork pressed at a menu must equal a
/// VM built from its own, separately parsed program and driven from First Play to the same
/// menu and the same press; the menu VM the forks were copied from must be left as it was; and
/// the main-feature search (where every button, `rnd` outcome and cell runs on a copy) must give
/// the same result on a disc it already searched and on a freshly opened one.
@Suite(.toolThreads) struct DVDVirtualMachineSharingTests {
  static let discs = [
    "dvd-menu-clean", "dvd-menu-decoy", "dvd-menu-lying", "dvd-menu-register", "dvd-menu-99",
    "dvd-menu-timer", "dvd-menu-timer-cut", "dvd-menu-random", "dvd-menu-damaged",
  ]
  static let present = discs.filter {
    FileManager.default.fileExists(atPath: Fixtures.generated($0) + "/VIDEO_TS/VIDEO_TS.IFO")
  }
  static let missing: Comment = "run TestImages/scripts/make-all.sh (make-dvd-menus.sh)"

  static func open(_ name: String) throws -> DVDDisc {
    try DVDDisc(fileSystem: try FolderFileSystem(root: Fixtures.generated(name)))
  }

  /// Everything a VM's observable state holds.
  struct Snapshot: Equatable {
    var domain: DVDDomain
    var titleSet: Int
    var programChain: Int
    var program: Int
    var cell: Int
    var stopped: Bool
    var registers: DVDRegisters
    var general: [UInt16]
    var system: [UInt16]
    var counters: [Bool]
    var currentCell: DVDCellPlayback?
    var chain: DVDProgramChain?
    var title: Int?
    var warnings: [String]

    init(_ vm: DVDVirtualMachine) {
      domain = vm.domain
      titleSet = vm.titleSet
      programChain = vm.programChainNumber
      program = vm.programNumber
      cell = vm.cellNumber
      stopped = vm.stopped
      registers = vm.registers
      general = vm.registers.general
      system = vm.registers.system
      counters = vm.registers.counterMode
      currentCell = vm.currentCell
      chain = vm.currentProgramChain
      title = vm.titleNumber
      warnings = vm.warnings
    }
  }

  /// The buttons of the menu cell `vm` is at (the first group of the cell's first navigation
  /// pack), read from the menu VOB directly.
  static func buttons(_ vm: DVDVirtualMachine, disc: DVDDisc) -> [DVDButton] {
    guard vm.domain != .title, let cell = vm.currentCell else { return [] }
    let name =
      vm.domain == .titleSetMenu
      ? String(format: "VTS_%02d_0.VOB", vm.titleSet) : "VIDEO_TS.VOB"
    guard let file = try? disc.fileSystem.openFile(atPath: "/VIDEO_TS/" + name),
      let bytes = try? file.bytes(at: Int64(cell.firstSector) * 2048, count: 2048),
      let pack = try? DVDNavigationPack(sector: Array(bytes), at: Int64(cell.firstSector) * 2048)
    else { return [] }
    return pack.highlight?.groups.first?.buttons ?? []
  }

  /// A VM on its own program (parsed from `disc` for it alone), played from First Play to the
  /// first menu cell with buttons (stepping over cells as a player would), or `nil`.
  static func firstMenu(_ disc: DVDDisc) -> (DVDVirtualMachine, [DVDButton])? {
    var vm = DVDVirtualMachine(program: DVDVirtualMachineProgram(disc: disc))
    vm.start()
    for _ in 0..<1000 {
      guard !vm.stopped, let cell = vm.currentCell else { return nil }
      let list = buttons(vm, disc: disc)
      if !list.isEmpty { return (vm, list) }
      vm.clock += Int64(cell.playbackTime.wholeSeconds)
      vm.finishCell()
    }
    return nil
  }

  /// Each button pressed on a copy of one menu VM gives the state that a VM of its own (its own
  /// program, parsed again) reaches with the same press; the copies and the menu VM do not see
  /// each other's changes.
  @Test(.enabled(if: !present.isEmpty, missing), arguments: present)
  func forksEqualUnsharedRuns(_ name: String) throws {
    let disc = try Self.open(name)
    let (menu, list) = try #require(Self.firstMenu(disc))
    let before = Snapshot(menu)
    var forks: [DVDVirtualMachine] = []
    for button in list {
      var fork = menu
      fork.activate(button: button.number, command: button.command)
      // The fork plays on a cell further, so its shared PGC data is read again.
      if !fork.stopped, fork.currentCell != nil { fork.finishCell() }
      forks.append(fork)
    }
    #expect(Snapshot(menu) == before, "the menu VM changed when its copies were pressed")
    for (index, button) in list.enumerated() {
      // Unshared: a disc opened again, a program of its own, First Play to the same menu.
      let (fresh, freshList) = try #require(Self.firstMenu(try Self.open(name)))
      #expect(freshList == list)
      var alone = fresh
      alone.activate(button: button.number, command: button.command)
      if !alone.stopped, alone.currentCell != nil { alone.finishCell() }
      #expect(Snapshot(forks[index]) == Snapshot(alone), "button \(button.number)")
    }
  }

  /// The search (every press, `rnd` outcome and cell on a copy sharing one program) gives the
  /// same plays, paths, counts and warnings on a disc searched before and on one opened anew.
  @Test(.enabled(if: !present.isEmpty, missing), arguments: present)
  func searchIsUnchangedBySharing(_ name: String) throws {
    let disc = try Self.open(name)
    let first = DVDMainFeatureSearch.run(disc)
    let again = DVDMainFeatureSearch.run(disc)
    let fresh = DVDMainFeatureSearch.run(try Self.open(name))
    #expect(first == again)
    #expect(first == fresh)
    #expect(!first.plays.isEmpty)
  }

  /// The registers' array views and their inline storage agree: spec defaults (libdvdnav's
  /// `vm_reset`), writes through the views, and equality and hashing of equal contents.
  @Test func registerViews() {
    var registers = DVDRegisters()
    #expect(registers.general == Array(repeating: 0, count: 16))
    #expect(registers.counterMode == Array(repeating: false, count: 16))
    #expect(registers.system.count == 24)
    #expect(registers.system[0] == 0x656E && registers.system[1] == 15)
    #expect(registers.system[2] == 62 && registers.system[8] == 1 << 10)
    #expect(registers.system[12] == 0x5553 && registers.system[13] == 15)
    #expect(registers.system[14] == 0x100 && registers.system[20] == 1)
    registers.general[3] = 7
    registers.system[9] = 30
    registers.counterMode[2] = true
    #expect(registers.general[3] == 7 && registers.system[9] == 30 && registers.counterMode[2])
    var other = DVDRegisters()
    other.general = registers.general
    other.system = registers.system
    other.counterMode = registers.counterMode
    #expect(other == registers)
    #expect(Set([other, registers]).count == 1)
  }
}
