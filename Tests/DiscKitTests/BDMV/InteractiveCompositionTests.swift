@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The IG composition parser on the real menus of ../shared/realdata (ICS segments extracted by
/// yxbh/bdpl), on compositions the test writes, and on damaged input.
@Suite("Interactive graphics", .toolThreads)
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

}
