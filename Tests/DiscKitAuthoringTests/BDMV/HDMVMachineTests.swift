@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitTestSupport
import Foundation
import Testing

/// The HDMV machine against hand-derived facts of BD-ROM part 3 section 10 and libbluray's
/// `hdmv_vm.c` (saturating arithmetic, skip-on-false comparisons, register rules, budgets). Every
/// expected value below is computed by hand from the program the test writes.
@Suite("HDMV machine", .toolThreads)
struct HDMVMachineTests {
  typealias C = NavigationCommand

  /// A machine whose title 1 runs `commands` (object 0), with `more` objects after it.
  static func machine(_ commands: [C], more: [[C]] = [], titles: Int = 1) -> HDMVMachine {
    let objects = ([commands] + more).map { MovieObjectFile.MovieObject(commands: $0) }
    let index = BDMVIndex(
      firstPlay: .hdmv(movieObject: 0, playbackType: 0), topMenu: .none,
      titles: (0..<titles).map { _ in .init(object: .hdmv(movieObject: 0, playbackType: 0)) })
    return HDMVMachine(index: index, movieObjects: MovieObjectFile(objects: objects))
  }

  @Test("a playlist number computed in registers is found, with its register")
  func computedPlaylist() {
    let run = Self.machine([
      .set(.move, .gpr(5), .immediate(700)),
      .set(.add, .gpr(5), .immediate(100)),
      .set(.move, .gpr(6), .immediate(3)),
      .set(.mul, .gpr(6), .immediate(7)),  // 21
      .set(.sub, .gpr(6), .immediate(20)),  // 1
      .set(.add, .gpr(5), .gpr(6)),  // 801
      .playPlaylist(.gpr(5)),
    ]).run(.firstPlay)
    #expect(run.playlists == [801])
    let reach = run.reaches.first
    #expect(reach?.operandRegister == 5)
    #expect(reach?.path.last == HDMVLocation(object: 0, command: 6))
    #expect(reach?.feedingRegisters.contains { $0.register == 5 && $0.value == 801 } == true)
  }

  @Test("arithmetic saturates and divides as libbluray does")
  func arithmetic() {
    let run = Self.machine([
      .set(.move, .gpr(1), .immediate(0xFFFF_FFF0)),
      .set(.add, .gpr(1), .immediate(0x100)),  // saturates at 0xFFFFFFFF
      .set(.move, .gpr(2), .immediate(5)),
      .set(.sub, .gpr(2), .immediate(9)),  // 0
      .set(.move, .gpr(3), .immediate(0x10000)),
      .set(.mul, .gpr(3), .immediate(0x10000)),  // saturates
      .set(.move, .gpr(4), .immediate(7)),
      .set(.div, .gpr(4), .immediate(0)),  // 0xFFFFFFFF
      .set(.move, .gpr(5), .immediate(17)),
      .set(.mod, .gpr(5), .immediate(5)),  // 2
      .set(.move, .gpr(6), .immediate(0b1100)),
      .set(.and, .gpr(6), .immediate(0b1010)),  // 8
      .set(.or, .gpr(6), .immediate(1)),  // 9
      .set(.xor, .gpr(6), .immediate(0b1111)),  // 6
      .set(.bitSet, .gpr(7), .immediate(4)),  // 16
      .set(.bitClear, .gpr(7), .immediate(4)),  // 0
      .set(.move, .gpr(8), .immediate(3)),
      .set(.shiftLeft, .gpr(8), .immediate(4)),  // 48
      .set(.shiftRight, .gpr(8), .immediate(1)),  // 24
      .set(.move, .gpr(9), .immediate(1)),
      .set(.move, .gpr(10), .immediate(2)),
      .set(.swap, .gpr(9), .gpr(10)),
      .set(.div, .gpr(11), .immediate(3)),  // 0 / 3 = 0
    ]).run(.firstPlay)
    let r = run.finalState.registers
    #expect(r.general(1) == 0xFFFF_FFFF)
    #expect(r.general(2) == 0)
    #expect(r.general(3) == 0xFFFF_FFFF)
    #expect(r.general(4) == 0xFFFF_FFFF)
    #expect(r.general(5) == 2)
    #expect(r.general(6) == 6)
    #expect(r.general(7) == 0)
    #expect(r.general(8) == 24)
    #expect(r.general(9) == 2 && r.general(10) == 1)
    #expect(r.general(11) == 0)
    #expect(run.ending == .finished)
  }

  @Test("a false comparison skips the next command; goto and break")
  func comparisons() {
    // GPR0 = 3; each comparison guards a PlayPL of a distinct number.
    let run = Self.machine([
      .set(.move, .gpr(0), .immediate(3)),
      .compare(.eq, .gpr(0), .immediate(3)), .playPlaylist(.immediate(1)),  // true
      .compare(.ne, .gpr(0), .immediate(3)), .playPlaylist(.immediate(2)),  // false
      .compare(.ge, .gpr(0), .immediate(4)), .playPlaylist(.immediate(3)),  // false
      .compare(.gt, .gpr(0), .immediate(2)), .playPlaylist(.immediate(4)),  // true
      .compare(.le, .gpr(0), .immediate(3)), .playPlaylist(.immediate(5)),  // true
      .compare(.lt, .gpr(0), .immediate(3)), .playPlaylist(.immediate(6)),  // false
      .compare(.bc, .gpr(0), .immediate(1)), .playPlaylist(.immediate(7)),  // 3 & ~1 != 0: false
      .compare(.bc, .gpr(0), .immediate(7)), .playPlaylist(.immediate(8)),  // true
      .goto(.immediate(20)),  // 17
      .playPlaylist(.immediate(9)),  // 18: skipped
      .playPlaylist(.immediate(10)),  // 19: skipped
      .playPlaylist(.immediate(11)),  // 20
      .breakObject,
      .playPlaylist(.immediate(12)),  // never
    ]).run(.firstPlay)
    #expect(run.playlists == [1, 4, 5, 8, 11])
  }

  @Test("PSR defaults are libbluray's, PSRs cannot be stored to, invalid registers read 0")
  func registers() {
    let registers = HDMVRegisters()
    #expect(registers.player(0) == 1 && registers.player(1) == 0xFF)
    #expect(registers.player(2) == 0x0FFF_0FFF && registers.player(4) == 0xFFFF)
    #expect(registers.player(20) == 2 && registers.player(31) == 0x03_0200)
    #expect(registers.player(48) == 0xFFFF_FFFF && registers.player(62) == 0)
    let run = Self.machine([
      .set(.move, .psr(4), .immediate(9)),  // refused
      .set(.move, .gpr(1), .psr(4)),  // title number: 0xFFFF during first play
      // Move 5 to an invalid GPR reference (bit 13 set): it reads 0, the store is refused.
      C(instruction: 0x5040_0001, destination: 0x2000, source: 5),
      .set(.move, .gpr(2), .immediate(0xABCD)),
      C(instruction: 0x5000_0001, destination: 3, source: 0x8000_0F00),  // invalid PSR reads 0
    ]).run(.firstPlay)
    let r = run.finalState.registers
    #expect(r.player(4) == 0xFFFF)
    #expect(r.general(1) == 0xFFFF)
    #expect(r.general(2) == 0xABCD)
    #expect(r.general(3) == 0)
    #expect(run.warnings.count == 2)
  }

  @Test("the whole disc's exploration is bounded: runs after the disc budget end with a warning")
  func exploreBudget() {
    // 200 titles whose object spins: without a disc-wide budget, 200 x stepBudget commands.
    var spin = Self.machine(
      [.set(.add, .gpr(0), .immediate(1)), .goto(.immediate(0))], titles: 200)
    spin.stepBudget = 1000
    spin.exploreStepBudget = 10_500
    let runs = spin.explore()
    #expect(runs.count == 202)  // First Play, Top Menu, 200 titles
    #expect(runs.reduce(0) { $0 + $1.steps } == 10_500)
    // First Play and 9 titles spend 1000 each (the Top Menu is none), the 11th run gets the
    // last 500, every run after it is skipped with a warning.
    #expect(runs.filter { $0.steps == 1000 }.count == 10)
    #expect(runs.filter { $0.steps == 500 }.count == 1)
    let skipped = runs.filter { $0.warnings.contains { $0.contains("were spent") } }
    #expect(skipped.count == 202 - 12)
    #expect(skipped.allSatisfy { $0.steps == 0 && $0.ending == .stepBudget(0) })
  }

  /// GPR storage is sparse: writing a value and writing zero back leaves a register file equal
  /// (and hashing equal) to a fresh one, so loop detection sees the states as the same.
  @Test("register files that hold the same values are equal, however they got there")
  func registerEquality() {
    var a = HDMVRegisters()
    a.setGeneral(4095, 7)
    #expect(a != HDMVRegisters() && a.general(4095) == 7 && a.nonZeroGeneral == [4095: 7])
    let stored = a.store(4095, 0)
    #expect(stored)
    #expect(a == HDMVRegisters() && a.hashValue == HDMVRegisters().hashValue)
    a.setGeneral(4096, 1)  // out of range: ignored
    #expect(a == HDMVRegisters() && a.general(4096) == 0)
  }

  @Test("loops end: a replayed playlist with the same state, and the step budget")
  func loops() {
    let menu = Self.machine([.playPlaylist(.immediate(5)), .goto(.immediate(0))]).run(.firstPlay)
    #expect(menu.playlists == [5])
    #expect(menu.ending == .loop(HDMVLocation(object: 0, command: 0)))

    var spin = Self.machine([.set(.add, .gpr(0), .immediate(1)), .goto(.immediate(0))])
    spin.stepBudget = 1000
    let run = spin.run(.firstPlay)
    #expect(run.ending == .stepBudget(1000))
    #expect(run.warnings.contains { $0.contains("budget") })

    // A counter loop playing a different playlist each time stops at the playlist budget.
    var counter = Self.machine([
      .set(.add, .gpr(0), .immediate(1)), .playPlaylist(.gpr(0)), .goto(.immediate(0)),
    ])
    counter.playlistBudget = 50
    let counted = counter.run(.firstPlay)
    #expect(counted.playlists == Array(1...50))
    #expect(counted.ending == .playlistBudget(50))
  }

  @Test("out-of-range objects and titles are refused and the program goes on")
  func outOfRange() {
    let run = Self.machine(
      [
        .jumpObject(.immediate(99)), .jumpTitle(.immediate(42)), .callObject(.immediate(7)),
        .jumpTitle(.immediate(0)),  // no top menu
        .playPlaylist(.immediate(3)),
      ], titles: 2
    ).run(.firstPlay)
    #expect(run.playlists == [3])
    #expect(run.warnings.count == 4)
  }

  @Test("jumps, calls and resume follow titles and objects")
  func calls() {
    // object 0: title 1 entry → CallObject 1, then plays GPR1 (set by object 1) and 900
    // object 1: Move GPR1 601; PlayPL 600; Resume
    // object 2: title 2 entry → JumpTitle 1
    let objects: [[C]] = [
      [.callObject(.immediate(1)), .playPlaylist(.gpr(1)), .playPlaylist(.immediate(900))],
      [.set(.move, .gpr(1), .immediate(601)), .playPlaylist(.immediate(600)), .resume],
      [.jumpTitle(.immediate(1))],
    ]
    let index = BDMVIndex(
      firstPlay: .hdmv(movieObject: 2, playbackType: 0), topMenu: .none,
      titles: [
        .init(object: .hdmv(movieObject: 0, playbackType: 0)),
        .init(object: .hdmv(movieObject: 2, playbackType: 0)),
      ])
    let machine = HDMVMachine(
      index: index, movieObjects: MovieObjectFile(objects: objects.map { .init(commands: $0) }))
    let run = machine.run(.title(2))
    #expect(run.playlists == [600, 601, 900])
    #expect(run.titlesEntered == [2, 1])
    #expect(run.reaches.map(\.title) == [1, 1, 1])
    #expect(run.reaches[1].isComputed)
    #expect(run.reaches[0].path.map(\.object) == [2, 0, 1])
    // libbluray 1.3 resumes one command late (its trace: "resuming object 0 at 1", then the
    // program counter advances again): the command after the call is skipped.
    var quirk = machine
    quirk.libblurayResume = true
    #expect(quirk.run(.title(2)).playlists == [600, 900])
  }

  @Test("a BD-J title ends the run; Rnd is deterministic with the fixed seed")
  func bdjAndRandom() {
    let index = BDMVIndex(
      firstPlay: .hdmv(movieObject: 0, playbackType: 0), topMenu: .none,
      titles: [.init(object: .bdj(name: "00000", playbackType: 2))])
    let objects = MovieObjectFile(objects: [
      .init(commands: [
        .set(.rnd, .gpr(0), .immediate(1000)), .playPlaylist(.gpr(0)), .jumpTitle(.immediate(1)),
      ])
    ])
    let machine = HDMVMachine(index: index, movieObjects: objects)
    let first = machine.run(.firstPlay)
    #expect(first.ending == .bdjTitle(1))
    // libbluray's generator from seed 1: state = 1 * 6364136223846793005 + 1; value = high
    // 32 bits % 1000 + 1.
    let state = UInt64(1) &* 6_364_136_223_846_793_005 &+ 1
    #expect(first.playlists == [Int(UInt32(truncatingIfNeeded: state >> 32) % 1000 + 1)])
    #expect(machine.run(.firstPlay).playlists == first.playlists)
  }

  @Test(
    "menu buttons run from the menu's state: PlayPL recorded, JumpTitle followed, TerminatePL resumes"
  )
  func buttons() throws {
    // object 0 (top menu): Move GPR3 802; PlayPL 100 (the menu); PlayPL GPR3
    // object 1 (title 1): PlayPL 801
    let objects: [[C]] = [
      [
        .set(.move, .gpr(3), .immediate(802)), .playPlaylist(.immediate(100)),
        .playPlaylist(.gpr(3)),
      ],
      [.playPlaylist(.immediate(801))],
    ]
    let index = BDMVIndex(
      firstPlay: .none, topMenu: .hdmv(movieObject: 0, playbackType: 1),
      titles: [.init(object: .hdmv(movieObject: 1, playbackType: 0))])
    let machine = HDMVMachine(
      index: index, movieObjects: MovieObjectFile(objects: objects.map { .init(commands: $0) }))
    let menu = machine.run(.topMenu)
    let reach = try #require(menu.reaches.first { $0.playlist == 100 })
    #expect(reach.state.registers.general(3) == 802)
    let play = machine.runButton([.jumpTitle(.immediate(1))], page: 0, button: 1, menu: reach)
    #expect(play.playlists == [801])
    let refused = machine.runButton([.playPlaylist(.immediate(5))], page: 0, button: 2, menu: reach)
    #expect(refused.playlists == [5] && refused.warnings.count == 1)
    #expect(refused.ending == .buttonDone)
    let phantom = machine.runButton([.nop], page: 0, button: 3, menu: reach)
    #expect(phantom.playlists.isEmpty && phantom.ending == .buttonDone)
    let terminate = machine.runButton([.terminatePlaylist], page: 0, button: 4, menu: reach)
    #expect(terminate.playlists == [802])
    let page = machine.runButton(
      [.setSystem(3, .immediate(0x8000_0002), .immediate(0)), .jumpTitle(.immediate(1))], page: 0,
      button: 5, menu: reach)
    #expect(page.playlists.isEmpty && page.ending == .buttonDone)
  }

  @Test("random command words never trap and stay within the budget", arguments: 0..<4)
  func randomPrograms(seed: Int) {
    var generator = SeededRandom(seed: UInt64(seed) &+ 0x9E37)
    let objects = (0..<4).map { _ in
      MovieObjectFile.MovieObject(
        commands: (0..<24).map { _ in
          C(
            instruction: UInt32.random(in: 0...UInt32.max, using: &generator),
            destination: UInt32.random(in: 0...0x1010, using: &generator)
              | (Bool.random(using: &generator) ? 0x8000_0000 : 0),
            source: UInt32.random(in: 0...0x1010, using: &generator))
        })
    }
    let index = BDMVIndex(
      firstPlay: .hdmv(movieObject: 0, playbackType: 0),
      topMenu: .hdmv(movieObject: 1, playbackType: 0),
      titles: (0..<3).map { .init(object: .hdmv(movieObject: UInt16($0 + 1), playbackType: 0)) })
    var machine = HDMVMachine(index: index, movieObjects: MovieObjectFile(objects: objects))
    machine.stepBudget = 5000
    for run in machine.explore() {
      #expect(run.steps <= 5000)
      #expect(run.reaches.count <= machine.playlistBudget)
    }
  }

  @Test("byte-flipped movie objects and indexes run in bounded time without a trap")
  func byteFlips() throws {
    var seeds: [([UInt8], [UInt8])] = []
    if let root = Fixtures.realData?.appendingPathComponent("bluray") {
      for name in ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
        .prefix(6)
      {
        let dir = root.appendingPathComponent("\(name)/BDMV")
        if let m = try? Data(contentsOf: dir.appendingPathComponent("MovieObject.bdmv")),
          let i = try? Data(contentsOf: dir.appendingPathComponent("index.bdmv"))
        {
          seeds.append(([UInt8](i), [UInt8](m)))
        }
      }
    }
    let objects = MovieObjectFile(objects: [
      .init(commands: [
        .set(.move, .gpr(1), .immediate(800)), .playPlaylist(.gpr(1)), .jumpTitle(.immediate(1)),
      ]),
      .init(commands: [.callObject(.immediate(0)), .resume, .goto(.immediate(0))]),
    ])
    let index = BDMVIndex(
      firstPlay: .hdmv(movieObject: 0, playbackType: 0),
      topMenu: .hdmv(movieObject: 1, playbackType: 1),
      titles: [.init(object: .hdmv(movieObject: 1, playbackType: 0))])
    seeds.append((index.serialize(), objects.serialize()))
    var rng = SeededRandom(seed: 0x4D0B)
    for round in 0..<400 {
      var (i, m) = seeds[round % seeds.count]
      for _ in 0..<Int.random(in: 1...6, using: &rng) {
        if Bool.random(using: &rng), !m.isEmpty {
          m[Int.random(in: 0..<m.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
        } else if !i.isEmpty {
          i[Int.random(in: 0..<i.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
        }
      }
      guard let file = try? MovieObjectFile(bytes: m) else { continue }
      for run in file.navigationRuns(index: try? BDMVIndex(bytes: i), stepBudget: 2000) {
        #expect(run.playlists.count <= 512)
      }
    }
  }
}
