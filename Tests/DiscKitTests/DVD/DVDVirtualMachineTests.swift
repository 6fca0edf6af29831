@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The DVD VM, the PCI button parser and the main-feature search.
///
/// Oracles: libdvdnav driven from First Play through the same button presses (the title, PGC
/// and cell reached must match), libdvdread's `navRead_PCI` (buttons), the authoring of the
/// generated discs (TestImages/scripts/make-dvd-menus.sh says which title each menu plays), and
/// DVD command encodings derived by hand from the command layout.
@Suite(.toolThreads) struct DVDVirtualMachineTests {
  static let menuDiscs = DVDMenuDiscs.names
  static func has(_ name: String) -> Bool { DVDMenuDiscs.has(name) }
  static let haveDiscs = DVDMenuDiscs.present
  static let missing = DVDMenuDiscs.missing
  static func open(_ name: String) throws -> DVDDisc { try DVDMenuDiscs.open(name) }
  static func convert(_ o: DVDMainFeatureSearch.Outcome) -> String { DVDMenuDiscs.describe(o) }

  /// The title each disc's menus play, from its authoring (make-dvd-menus.sh), and the reason
  /// names the path.
  @Test(
    .enabled(if: haveDiscs, missing),
    arguments: [
      ("dvd-menu-clean", 1), ("dvd-menu-decoy", 5), ("dvd-menu-lying", 2),
      ("dvd-menu-register", 3), ("dvd-menu-damaged", 5), ("dvd-menu-99", 39),
      ("dvd-menu-timer", 4), ("dvd-menu-timer-cut", 2), ("dvd-menu-random", 4),
    ])
  func mainFeatureFollowsTheMenus(_ name: String, _ feature: Int) throws {
    let disc = try Self.open(name)
    let selection = DVDSmartTitleSelector.select(disc)
    #expect(selection.title == feature, "\(name): \(selection.reason)")
    #expect(selection.fromNavigation)
    #expect(selection.reason.contains("button"), "\(selection.reason)")
  }

  /// The decoy, lying and register discs fool lsdvd's longest title (libdvdread's lengths):
  /// the VM's answer differs from `--select lsdvd` there, as the authoring intends.
  @Test(.enabled(if: haveDiscs, missing), .enabled(if: Tool.has("lsdvd"), "lsdvd missing"))
  func lsdvdPicksTheDecoys() throws {
    for (name, decoy) in [
      ("dvd-menu-decoy", 2), ("dvd-menu-lying", 1), ("dvd-menu-register", 1), ("dvd-menu-99", 10),
      ("dvd-menu-timer", 3), ("dvd-menu-timer-cut", 1), ("dvd-menu-random", 5),
    ] {
      let theirs = try LsdvdOracle.run(Fixtures.generated(name))
      #expect(theirs.longestTrack == decoy, "\(name)")
      #expect(DVDSmartTitleSelector.select(try Self.open(name)).title != decoy, "\(name)")
    }
  }

  /// The lying title is reported as cut short; the damaged disc's evidence names the BUP and
  /// the missing title set.
  @Test(.enabled(if: haveDiscs, missing))
  func evidence() throws {
    let lying = DVDSmartTitleSelector.select(try Self.open("dvd-menu-lying"))
    #expect(lying.reason.contains("title 1 advertises"), "\(lying.reason)")
    let damaged = DVDSmartTitleSelector.select(try Self.open("dvd-menu-damaged"))
    #expect(damaged.reason.contains(".BUP"), "\(damaged.reason)")
    #expect(damaged.reason.contains("unreadable"), "\(damaged.reason)")
    let register = DVDSmartTitleSelector.select(try Self.open("dvd-menu-register"))
    #expect(register.reason.contains("GPRM3 = 7"), "\(register.reason)")
  }

  // MARK: commands (encodings derived by hand from the command layout)

  /// Set with an immediate operand: 0x70|op, 0, 0, register, value (16 bits), 0, 0.
  static func set(_ op: UInt8, _ reg: UInt8, _ value: UInt16) -> DVDCommand {
    DVDTestVM.command([0x70 | op, 0, 0, reg, UInt8(value >> 8), UInt8(value & 0xFF), 0, 0])
  }

  @Test func setOperators() {
    var vm = DVDTestVM.empty()
    vm.execute(Self.set(1, 0, 0xFFF0))  // mov
    vm.execute(Self.set(3, 0, 0x20))  // add saturates
    #expect(vm.registers.general[0] == 0xFFFF)
    vm.execute(Self.set(1, 1, 5))
    vm.execute(Self.set(4, 1, 9))  // sub floors at 0
    #expect(vm.registers.general[1] == 0)
    vm.execute(Self.set(1, 2, 300))
    vm.execute(Self.set(5, 2, 300))  // mul saturates
    #expect(vm.registers.general[2] == 0xFFFF)
    vm.execute(Self.set(1, 3, 17))
    vm.execute(Self.set(6, 3, 5))  // div
    #expect(vm.registers.general[3] == 3)
    vm.execute(Self.set(7, 3, 2))  // mod
    #expect(vm.registers.general[3] == 1)
    vm.execute(Self.set(6, 3, 0))  // div by zero
    #expect(vm.registers.general[3] == 0xFFFF)
    vm.execute(Self.set(1, 4, 0b1100))
    vm.execute(Self.set(9, 4, 0b1010))  // and
    #expect(vm.registers.general[4] == 0b1000)
    vm.execute(Self.set(10, 4, 0b0011))  // or
    #expect(vm.registers.general[4] == 0b1011)
    vm.execute(Self.set(11, 4, 0b1111))  // xor
    #expect(vm.registers.general[4] == 0b0100)
    for _ in 0..<50 {
      vm.execute(Self.set(8, 5, 6))  // rnd: 1...6
      #expect((1...6).contains(vm.registers.general[5]))
    }
    // swp GPRM10 <-> GPRM11 (register operand 0x0B in byte 5)
    vm.execute(Self.set(1, 10, 1))
    vm.execute(Self.set(1, 11, 2))
    vm.execute(DVDTestVM.command([0x62, 0, 0, 0x0A, 0, 0x0B, 0, 0]))
    #expect(vm.registers.general[10] == 2 && vm.registers.general[11] == 1)
    // mov GPRM12 = SPRM 31 (0x9F): registers past 23 read 0
    vm.execute(DVDTestVM.command([0x61, 0, 0, 0x0C, 0, 0x9F, 0, 0]))
    #expect(vm.registers.general[12] == 0)
  }

  @Test func rndIsDeterministic() {
    var a = DVDTestVM.empty()
    var b = DVDTestVM.empty()
    for _ in 0..<20 {
      a.execute(Self.set(8, 0, 1000))
      b.execute(Self.set(8, 0, 1000))
      #expect(a.registers.general[0] == b.registers.general[0])
    }
  }

  /// SetGPRMMD with the counter bit: the register then counts seconds of the simulated clock.
  @Test func counterMode() {
    var vm = DVDTestVM.empty()
    vm.execute(DVDTestVM.command([0x53, 0, 0, 5, 0, 0x81, 0, 0]))
    #expect(vm.registers.counterMode[1])
    vm.clock += 10
    vm.execute(DVDTestVM.command([0x61, 0, 0, 0x02, 0, 0x01, 0, 0]))  // GPRM2 = GPRM1
    #expect(vm.registers.general[2] == 15)
  }

  /// SetSystem: audio/subpicture/angle (SPRM 1-3) and the highlighted button (SPRM 8).
  @Test func setSystem() {
    var vm = DVDTestVM.empty()
    vm.execute(DVDTestVM.command([0x51, 0, 0, 0x82, 0x83, 0x81, 0, 0]))
    #expect(
      vm.registers.system[1] == 2 && vm.registers.system[2] == 3 && vm.registers.system[3] == 1)
    vm.execute(DVDTestVM.command([0x56, 0, 0, 0, 0x0C, 0x00, 0, 0]))
    #expect(vm.registers.system[8] == 3 << 10)
  }

  /// Compare-and-branch: "if GPRM0 == 7 then mov GPRM1 = 1" as a set command with a compare.
  @Test func compareAndSet() {
    var vm = DVDTestVM.empty()
    vm.execute(Self.set(1, 0, 7))
    // group 3, immediate compare (bit 55), op == (2): byte1 = 0x80|0x20; compared register in
    // byte 2 (GPRM0); set register in byte 3; set value in bytes 4-5; compare value in bytes 6-7.
    vm.execute(DVDTestVM.command([0x71, 0xA0, 0x00, 0x01, 0x00, 0x01, 0x00, 0x07]))
    #expect(vm.registers.general[1] == 1)
    vm.execute(DVDTestVM.command([0x71, 0xA0, 0x00, 0x02, 0x00, 0x01, 0x00, 0x08]))
    #expect(vm.registers.general[2] == 0)
  }

  /// Goto 1 forever: the command budget stops the VM with a warning, in bounded time.
  @Test func commandLoopIsBounded() {
    var vm = DVDTestVM.empty()
    vm.execute(DVDTestVM.command([0x00, 0x01, 0, 0, 0, 0, 0, 0x01]))
    #expect(vm.stopped)
    #expect(vm.warnings.contains { $0.contains("budget") })
  }

  /// JumpTT 99 on a disc without titles stops with a warning.
  @Test func jumpToMissingTitle() {
    var vm = DVDTestVM.empty()
    vm.execute(DVDTestVM.command([0x30, 0x02, 0, 0, 0, 99, 0, 0]))
    #expect(vm.stopped)
    #expect(vm.warnings.contains { $0.contains("JumpTT 99") })
  }

  /// Seeded byte flips in the IFOs and menu VOB of the decoy disc: the search always ends.
  @Test(.enabled(if: haveDiscs, missing))
  func byteFlips() throws {
    let files = try DVDMenuDiscs.navigationFiles("dvd-menu-decoy")
    DVDMenuDiscs.forEachByteFlip(of: files, seed: 19, rounds: 150) { copy in
      guard let disc = try? DVDDisc(fileSystem: MemoryFileSystem(files: copy)) else { return }
      let result = DVDMainFeatureSearch.run(disc, limits: .init(menuStates: 50, cells: 2000))
      #expect(result.menuStates <= 50)
    }
  }

  /// A cell past the end of the title VOBs (0xFFFFFF) plays nothing: the decoy disc's feature
  /// (title 5, three cells by its authoring) with its last cell moved out counts the other two
  /// cells' times, with a warning, and is still the menus' choice.
  @Test(.enabled(if: haveDiscs, missing))
  func cellOutsideTheVOBs() throws {
    var files = try DVDMenuDiscs.files("dvd-menu-decoy")
    let vts = try DVDTitleSetInfo(bytes: try #require(files["/VIDEO_TS/VTS_01_0.IFO"]))
    let pgc = try vts.programChains.programChain(vts.partsOfTitles.titles[4][0].programChain)
    let cell = try #require(pgc.cellPlayback?.last)
    for name in ["/VIDEO_TS/VTS_01_0.IFO", "/VIDEO_TS/VTS_01_0.BUP"] {
      // last_sector is the last 4 bytes of the 24-byte cell playback entry.
      let at = Int(cell.offset) + 20
      files[name]?.replaceSubrange(at..<at + 4, with: [0, 0xFF, 0xFF, 0xFF])
    }
    let disc = try DVDDisc(fileSystem: MemoryFileSystem(files: files))
    let result = DVDMainFeatureSearch.run(disc)
    let best = try #require(result.best)
    #expect(best.title == 5)
    let others = try #require(pgc.cellPlayback).dropLast().reduce(Int64(0)) {
      $0 + $1.playbackTime.ticks90k
    }
    #expect(best.played == MediaTime(ticks: others))
    #expect(best.played < best.advertised)
    #expect(result.warnings.contains { $0.contains("outside the title VOBs") })
  }

  /// Real IFO sets (no VOBs, so no menu buttons): the answer is the static one, unchanged.
  @Test(.enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)))
  func realDataUnchanged() throws {
    let disc = try DVDDisc(
      fileSystem: try FolderFileSystem(root: Fixtures.real("dvd/dvdread_idiocracy")))
    let smart = DVDSmartTitleSelector.select(disc)
    let fixed = DVDSmartTitleSelector.selectStatically(disc)
    #expect(smart.title == fixed.title, "\(smart.reason)")
    #expect(smart.navigation != nil)
  }
}
