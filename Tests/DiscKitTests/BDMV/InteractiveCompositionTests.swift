@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitTestSupport
import Foundation
import Testing

/// The IG composition parser on the real menus of ../shared/realdata (ICS segments extracted by
/// yxbh/bdpl), on compositions the test writes, and on damaged input.
@Suite("Interactive graphics")
struct InteractiveCompositionTests {
  static let samples: [String] = {
    guard let root = Fixtures.realData?.appendingPathComponent("bluray") else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return names.sorted().map { root.appendingPathComponent("\($0)/BDMV/ics_menu.bin").path }
      .filter { FileManager.default.fileExists(atPath: $0) }
  }()

  @Test(
    "every real ICS parses and fills exactly its declared length",
    .enabled(if: Fixtures.hasRealData),
    arguments: samples)
  func realMenus(_ path: String) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let ics = try InteractiveComposition(bytes: bytes, name: path)
    #expect(ics.width == 1920 && ics.height == 1080)
    // The 24-bit length after the sequence descriptor covers the rest of the extracted segment.
    let declared = Int(bytes[9]) << 16 | Int(bytes[10]) << 8 | Int(bytes[11])
    #expect(declared == bytes.count - 12)
    #expect(ics.trailingBytes == 0, "the pages end exactly at the declared length")
    #expect(!ics.pages.isEmpty)
    #expect(ics.buttons.contains { !$0.button.commands.isEmpty })
    // Every command decodes to one of the three command groups.
    #expect(ics.buttons.allSatisfy { $0.button.commands.allSatisfy { $0.group < 3 } })
  }

  /// yxbh/bdpl's published expectations for disc10 (tests/test_disc10_scan.py): the menu's
  /// chapter buttons start the play-all playlist 00002 at marks 0, 6, 12, 18 and 24, and the
  /// commentary buttons lead to playlists 00003-00005. Each button's commands run in the HDMV
  /// machine from the state the Top Menu enters the menu with.
  @Test("disc10's menu buttons lead where bdpl says", .enabled(if: Fixtures.hasRealData))
  func disc10() throws {
    let root = Fixtures.real("bluray/bdpl_disc10")
    let ics = try InteractiveComposition(
      bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/BDMV/ics_menu.bin"))))
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: root))
    let machine = try #require(disc.hdmvMachine)
    let menu = try #require(machine.run(.topMenu).reaches.first)
    var marks = Set<Int>()
    var playlists = Set<Int>()
    for (page, button) in ics.buttons {
      let run = machine.runButton(
        button.commands, page: Int(page.id), button: Int(button.id), menu: menu)
      for reach in run.reaches {
        playlists.insert(reach.playlist)
        if reach.playlist == 2, let mark = reach.mark { marks.insert(mark) }
      }
    }
    #expect(marks.isSuperset(of: [0, 6, 12, 18, 24]))
    #expect(playlists.isSuperset(of: [2, 3, 4, 5]))
  }

  @Test("a written composition reads back, through transport packets and fragments")
  func roundTrip() throws {
    let composition = InteractiveComposition(pages: [
      IGPage(
        id: 0,
        groups: [
          IGButtonOverlapGroup(buttons: [
            IGButton(id: 1, commands: [.jumpTitle(.immediate(1))]),
            IGButton(
              id: 2, commands: [.set(.move, .gpr(1), .immediate(5)), .playPlaylist(.gpr(1))]),
          ])
        ]),
      IGPage(id: 1, groups: [IGButtonOverlapGroup(buttons: [IGButton(id: 3, commands: [])])]),
    ])
    let payload = composition.serialize()
    #expect(try InteractiveComposition(bytes: payload) == composition)
    let ts = IGStreamWriter.transportStream(segments: [(0x18, payload)], pid: 0x1400)
    let es = IGStreamReader.elementaryStream(ts, pid: 0x1400)
    #expect(try IGStreamReader.firstComposition(inElementaryStream: es, name: "ts") == composition)
    // Split into three fragments: first (with the length), middle, last.
    let header = Array(payload[0..<9])
    let body = Array(payload[9...])
    let cut1 = 3 + body.count / 3
    let cut2 = 2 * body.count / 3
    var first = header
    first[8] = 0x80
    var middle = header
    middle[8] = 0x00
    var last = header
    last[8] = 0x40
    let fragments: [[UInt8]] = [
      first + body[0..<cut1], middle + body[cut1..<cut2], last + body[cut2...],
    ]
    #expect(try InteractiveComposition(fragments: fragments) == composition)
    let stream: [UInt8] = fragments.flatMap { fragment -> [UInt8] in
      [0x18, UInt8(fragment.count >> 8), UInt8(fragment.count & 0xFF)] + fragment
    }
    #expect(
      try IGStreamReader.firstComposition(inElementaryStream: stream, name: "es") == composition)
  }

  @Test("truncated and byte-flipped compositions give typed errors, never a trap")
  func damaged() throws {
    var seeds: [[UInt8]] = [
      InteractiveComposition(pages: [
        IGPage(id: 0, groups: [IGButtonOverlapGroup(buttons: [IGButton(id: 1, commands: [.nop])])])
      ]).serialize()
    ]
    for path in Self.samples.prefix(3) {
      if let data = try? Data(contentsOf: URL(fileURLWithPath: path)) {
        seeds.append([UInt8](data))
      }
    }
    for seed in seeds {
      for cut in stride(from: 0, to: seed.count, by: max(1, seed.count / 64)) {
        #expect(throws: DiscKitError.self) {
          try InteractiveComposition(bytes: Array(seed[0..<cut]))
        }
      }
    }
    var rng = SeededRandom(seed: 0x1C5)
    for round in 0..<600 {
      var bytes = seeds[round % seeds.count]
      for _ in 0..<Int.random(in: 1...8, using: &rng) {
        let k = Int.random(in: 0..<bytes.count, using: &rng)
        bytes[k] ^= UInt8.random(in: 1...255, using: &rng)
      }
      if let ics = try? InteractiveComposition(bytes: bytes) {
        #expect(ics.pages.count <= 255)
      }
      _ = try? IGStreamReader.firstComposition(
        inElementaryStream: [0x18, 0, 20] + bytes, name: "flip")
      _ = IGStreamReader.elementaryStream(bytes, pid: 0x1400, packetSize: 188)
    }
  }
}
