@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The navigation timer, `rnd` exploration and button groups of the DVD VM and main-feature
/// search.
///
/// Oracles: DVD-Video facts for hand-assembled commands (SetNVTMR sets SPRM 9 to seconds and
/// SPRM 10 to a title PGC; SPRM 9 counts down one per second in the title domain only and at 0
/// the player plays SPRM 10's PGC; `rnd` N draws 1…N; a PCI holds `btngr_ns` groups of 36/n
/// button slots, `btngrN_dsp_ty` bit 0 wide, 1 letterbox, 2 pan & scan), the authoring of the
/// generated discs (TestImages/scripts/make-dvd-menus.sh: which title each path plays),
/// libdvdread's `navRead_PCI` for the group fields, and libdvdnav for every path that involves
/// no timer. libdvdnav 6.1 stores SPRM 9/10 but never counts the timer down, so the timer's
/// effect is checked against the authoring and the spec facts only.
@Suite(.toolThreads) struct DVDTimerRandomGroupTests {
  static let discs = ["dvd-menu-timer", "dvd-menu-timer-cut", "dvd-menu-random", "dvd-menu-decoy"]
  static let haveDiscs = discs.allSatisfy(DVDMenuDiscs.has)
  static let missing = DVDMenuDiscs.missing
  static func open(_ name: String) throws -> DVDDisc { try DVDMenuDiscs.open(name) }

  /// JumpTT `title`: 30 02 00 00 00 tt 00 00.
  static func jumpTitle(_ title: UInt8) -> DVDCommand {
    DVDTestVM.command([0x30, 0x02, 0, 0, 0, title, 0, 0])
  }

  // MARK: the navigation timer

  /// SetNVTMR with an immediate (52 00 ss ss pp pp 00 00) and a register operand (42 00 00 rr
  /// pp pp 00 00, dvd-replica's example "SetNVTMR timer=GPRM0, PGCN=1" is 42 00 00 00 00 01 00 00).
  @Test func setNVTMR() {
    var vm = DVDTestVM.empty()
    vm.execute(DVDTestVM.command([0x52, 0, 0, 30, 0, 5, 0, 0]))
    #expect(vm.registers.system[9] == 30 && vm.registers.system[10] == 5)
    vm.execute(DVDTestVM.command([0x71, 0, 0, 0, 0, 7, 0, 0]))  // GPRM0 = 7
    vm.execute(DVDTestVM.command([0x42, 0, 0, 0, 0, 1, 0, 0]))
    #expect(vm.registers.system[9] == 7 && vm.registers.system[10] == 1)
    // SPRM 10's range is 1…32767: the PGC number spans bytes 4-5.
    vm.execute(DVDTestVM.command([0x52, 0, 0, 1, 0x01, 0x2C, 0, 0]))
    #expect(vm.registers.system[10] == 300)
  }

  /// The timer does not run outside the title domain (First Play here): no count-down, no expiry.
  @Test func timerPausesOutsideTitles() {
    var vm = DVDTestVM.empty()
    vm.execute(DVDTestVM.command([0x52, 0, 0, 3, 0, 1, 0, 0]))
    #expect(vm.advance(seconds: 10) == nil)
    #expect(vm.registers.system[9] == 3)
    #expect(vm.clock == 10)
  }

  /// dvd-menu-timer-cut: title 1's pre command sets the timer to 2 s with SPRM 10 = PGC 2 (the
  /// authoring). It counts down while title 1 plays and at 0 the VM plays PGC 2, title 2; the
  /// seconds after the expiry do not pass.
  @Test(.enabled(if: haveDiscs, missing))
  func timerExpiresToSPRM10() throws {
    var vm = DVDVirtualMachine(
      program: DVDVirtualMachineProgram(disc: try Self.open("dvd-menu-timer-cut")))
    vm.start()
    vm.execute(Self.jumpTitle(1))
    #expect(vm.titleNumber == 1)
    #expect(vm.registers.system[9] == 2 && vm.registers.system[10] == 2)
    let clock = vm.clock
    #expect(vm.advance(seconds: 1) == nil)
    #expect(vm.registers.system[9] == 1)
    let expired = vm.advance(seconds: 5)
    let expiry = try #require(expired)
    #expect(expiry.after == 1 && expiry.programChain == 2 && expiry.linked)
    #expect(vm.clock == clock + 2)
    #expect(vm.registers.system[9] == 0)
    #expect(vm.domain == .title && vm.programChainNumber == 2 && vm.titleNumber == 2)
    // Expired: it stays off until set again.
    #expect(vm.advance(seconds: 100) == nil)
  }

  /// A timer naming a PGC the title set does not have: a warning, and playback goes on.
  @Test(.enabled(if: haveDiscs, missing))
  func timerToMissingPGC() throws {
    var vm = DVDVirtualMachine(
      program: DVDVirtualMachineProgram(disc: try Self.open("dvd-menu-timer-cut")))
    vm.start()
    vm.execute(Self.jumpTitle(1))
    vm.execute(DVDTestVM.command([0x52, 0, 0, 1, 0, 99, 0, 0]))
    let expired = vm.advance(seconds: 3)
    let expiry = try #require(expired)
    #expect(!expiry.linked && expiry.programChain == 99)
    #expect(!vm.stopped && vm.programChainNumber == 1)
    #expect(vm.warnings.contains { $0.contains("PGC 99") })
  }

  /// The discs' menus: only the timer reaches the feature (dvd-menu-timer: title 4 from the
  /// still of title 1; dvd-menu-timer-cut: title 2, two seconds into title 1), and the evidence
  /// says so. Without the timer the search would pick title 2 and title 1.
  @Test(
    .enabled(if: haveDiscs, missing), arguments: [("dvd-menu-timer", 4), ("dvd-menu-timer-cut", 2)])
  func timerReachesTheFeature(_ name: String, _ feature: Int) throws {
    let selection = DVDSmartTitleSelector.select(try Self.open(name))
    #expect(selection.title == feature, "\(selection.reason)")
    #expect(selection.reason.contains("navigation timer expired"), "\(selection.reason)")
    let detail = selection.evidence.first?.detail ?? ""
    #expect(detail.contains("navigation timer"), "\(detail)")
  }

  /// dvd-menu-timer-cut: title 1 (10 s advertised) plays 2 s, until the timer expires.
  @Test(.enabled(if: haveDiscs, missing))
  func timerCutsTheTitleShort() throws {
    let result = DVDMainFeatureSearch.run(try Self.open("dvd-menu-timer-cut"))
    let first = try #require(result.plays.first { $0.title == 1 })
    #expect(first.played == MediaTime(ticks: 2 * 90_000))
    #expect(first.ending.contains("navigation timer"))
  }

  // MARK: rnd

  /// rnd 1…4 in one step: four forks, one per outcome, in order.
  @Test func randomIsExplored() {
    var warnings: [String] = []
    var budget = 10_000
    let forks = DVDMainFeatureSearch.explore(
      DVDTestVM.empty(), budget: &budget, warnings: &warnings
    ) {
      vm in
      vm.execute(DVDTestVM.command([0x78, 0, 0, 0, 0, 4, 0, 0]))  // GPRM0 = rnd 4
      return true
    }
    #expect(forks.map { $0.vm.registers.general[0] } == [1, 2, 3, 4])
    #expect(forks.allSatisfy { $0.note.contains("of 1…4") })
    #expect(warnings.isEmpty)
  }

  /// Two draws in one step (rnd 3, then rnd 2): all six pairs.
  @Test func randomPairsAreExplored() {
    var warnings: [String] = []
    var budget = 10_000
    let forks = DVDMainFeatureSearch.explore(
      DVDTestVM.empty(), budget: &budget, warnings: &warnings
    ) {
      vm in
      vm.execute(DVDTestVM.command([0x78, 0, 0, 0, 0, 3, 0, 0]))
      vm.execute(DVDTestVM.command([0x78, 0, 0, 1, 0, 2, 0, 0]))
      return true
    }
    let pairs = Set(forks.map { [$0.vm.registers.general[0], $0.vm.registers.general[1]] })
    #expect(pairs == Set([[1, 1], [1, 2], [2, 1], [2, 2], [3, 1], [3, 2]]))
  }

  /// rnd 1…20 (over the bound of 16): one sampled outcome, with a warning; rnd 1…1 and 1…0 give 1
  /// without forking.
  @Test func largeRandomIsSampled() {
    var warnings: [String] = []
    var budget = 10_000
    let forks = DVDMainFeatureSearch.explore(
      DVDTestVM.empty(), budget: &budget, warnings: &warnings
    ) {
      vm in
      vm.execute(DVDTestVM.command([0x78, 0, 0, 0, 0, 20, 0, 0]))
      vm.execute(DVDTestVM.command([0x78, 0, 0, 1, 0, 1, 0, 0]))
      vm.execute(DVDTestVM.command([0x78, 0, 0, 2, 0, 0, 0, 0]))
      return true
    }
    #expect(forks.count == 1)
    #expect((1...20).contains(forks[0].vm.registers.general[0]))
    #expect(forks[0].vm.registers.general[1] == 1 && forks[0].vm.registers.general[2] == 1)
    #expect(warnings.contains { $0.contains("sampled") && $0.contains("1…20") })
  }

  /// A planned outcome replaces the draw.
  @Test func plannedDraw() {
    var vm = DVDTestVM.empty()
    vm.plannedDraws = [3]
    vm.execute(DVDTestVM.command([0x78, 0, 0, 5, 0, 6, 0, 0]))
    #expect(vm.registers.general[5] == 3)
  }

  // MARK: button groups

  static func group(_ type: Int, _ commands: [UInt64]) -> DVDHighlightInformation.ButtonGroup {
    let buttons = commands.enumerated().compactMap { index, raw -> DVDButton? in
      var bytes = [UInt8](repeating: 0, count: 10)
      for shift in stride(from: 56, through: 0, by: -8) {
        bytes.append(UInt8(raw >> UInt64(shift) & 0xFF))
      }
      var reader = BinaryReader(bytes, structure: "btni")
      return try? DVDButton(number: index + 1, parsing: &reader)
    }
    return DVDHighlightInformation.ButtonGroup(displayType: type, buttons: buttons)
  }

  /// The shown group by SPRM 14: 4:3 TV pan & scan (libdvdnav's default 0x100), letterbox
  /// (0x200), 16:9 TV (0xC00); a 4:3 menu's single normal group is always shown.
  @Test func shownGroup() {
    let groups = [Self.group(1, [1]), Self.group(2, [1]), Self.group(4, [1])]
    #expect(DVDMainFeatureSearch.shownGroup(groups, display: 0x100) == 2)
    #expect(DVDMainFeatureSearch.shownGroup(groups, display: 0x200) == 1)
    #expect(DVDMainFeatureSearch.shownGroup(groups, display: 0xC00) == 0)
    #expect(DVDMainFeatureSearch.shownGroup([Self.group(0, [1])], display: 0x100) == 0)
    #expect(
      DVDMainFeatureSearch.shownGroup([Self.group(1, [1]), Self.group(2, [1])], display: 0x100) == 1
    )
  }

  /// Presses: the shown group's buttons, then the other groups' buttons whose command differs.
  @Test func pressesOtherGroups() {
    let groups = [Self.group(1, [10, 20]), Self.group(2, [10, 21]), Self.group(4, [10, 20])]
    let presses = DVDMainFeatureSearch.presses(groups, display: 0x100)
    #expect(presses.map(\.button.command.raw) == [10, 20, 21])
    #expect(presses[2].label.contains("group 2, letterbox"))
    let same = DVDMainFeatureSearch.presses(
      [Self.group(1, [10]), Self.group(4, [10])], display: 0x100)
    #expect(same.count == 1 && same[0].label.isEmpty)
  }

  /// dvd-menu-decoy with button 1 of group 1 (wide; dvdauthor writes three groups for a 16:9 menu
  /// and libdvdnav's default display shows group 3, pan & scan) patched to JumpTT 3 in every
  /// navigation pack: the search also presses it and reaches title 3, which no pan & scan
  /// button plays, and still picks title 5.
  @Test(.enabled(if: haveDiscs, missing))
  func otherGroupsAreExplored() throws {
    var files = try DVDMenuDiscs.files("dvd-menu-decoy")
    var vob = try #require(files["/VIDEO_TS/VIDEO_TS.VOB"])
    var patched = 0
    for start in stride(from: 0, to: vob.count - 2047, by: 2048) {
      let sector = Array(vob[start..<start + 2048])
      guard let pack = try? DVDNavigationPack(sector: sector, at: Int64(start)),
        let hli = pack.highlight, hli.groupCount == 3, !hli.buttons.isEmpty
      else { continue }
      // PCI data at 0x2D; hli_t at 96; button slots at 46; the command at 10 in the slot.
      let at = start + 0x2D + 96 + 46 + 10
      vob.replaceSubrange(at..<at + 8, with: [0x30, 0x02, 0, 0, 0, 3, 0, 0])
      patched += 1
    }
    #expect(patched > 0)
    files["/VIDEO_TS/VIDEO_TS.VOB"] = vob
    let result = DVDMainFeatureSearch.run(try DVDDisc(fileSystem: MemoryFileSystem(files: files)))
    let three = try #require(result.plays.first { $0.title == 3 })
    #expect(three.path.joined().contains("group 1, wide"), "\(three.path)")
    #expect(result.best?.title == 5)
  }

  // MARK: bad input

  /// The search's command budget is shared by every branch: a tiny one ends the search early,
  /// with a warning.
  @Test(.enabled(if: haveDiscs, missing))
  func commandBudget() throws {
    let disc = try Self.open("dvd-menu-random")
    let result = DVDMainFeatureSearch.run(
      disc, limits: .init(menuStates: 400, cells: 20_000, commands: 3))
    #expect(
      result.warnings.contains { $0.contains("command budget ran out") }, "\(result.warnings)")
    #expect(result.plays.count < 4)
  }

  /// Seeded byte flips in the timer and random discs' IFOs and menu VOB: the search ends.
  @Test(.enabled(if: haveDiscs, missing), arguments: ["dvd-menu-timer", "dvd-menu-random"])
  func byteFlips(_ disc: String) throws {
    let files = try DVDMenuDiscs.navigationFiles(disc)
    DVDMenuDiscs.forEachByteFlip(of: files, seed: 23, rounds: 60) { copy in
      guard let disc = try? DVDDisc(fileSystem: MemoryFileSystem(files: copy)) else { return }
      let result = DVDMainFeatureSearch.run(disc, limits: .init(menuStates: 50, cells: 2000))
      #expect(result.menuStates <= 50)
    }
  }
}
