@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// The DVD virtual machine against libdvdnav: button paths and highlight information.
@Suite(.toolThreads)
struct DVDVirtualMachineReferenceTests {
  static let menuDiscs = DVDMenuDiscs.names
  static func has(_ name: String) -> Bool { DVDMenuDiscs.has(name) }
  static let haveDiscs = DVDMenuDiscs.present
  static let missing = DVDMenuDiscs.missing
  static func open(_ name: String) throws -> DVDDisc { try DVDMenuDiscs.open(name) }
  static func convert(_ o: DVDMainFeatureSearch.Outcome) -> String { DVDMenuDiscs.describe(o) }

  static func convert(_ o: Reference.DVDNav.Outcome) -> String {
    switch o {
    case .title(let t, let p, let c): return "title \(t) PGC \(p) cell \(c)"
    case .menu(let n): return "menu with \(n) buttons"
    case .stop: return "stop"
    case .limit: return "limit"
    }
  }

  static func same(_ a: DVDButton, _ b: Reference.DVDNav.Button) -> Bool {
    a.x == b.x && a.y == b.y && a.command.raw == b.command && a.up == b.up && a.down == b.down
      && a.left == b.left && a.right == b.right && a.autoAction == b.autoAction
  }

  /// Every button path (breadth-first, up to three presses) reaches the same place in DiscKit's
  /// VM as in libdvdnav. The damaged disc is left out: libdvdnav cannot open a disc whose
  /// title set is listed but missing (it is checked against the authoring below). The timer
  /// discs are compared too: neither libdvdnav nor `follow` runs the navigation timer (see
  /// DVDTimerRandomGroupTests). The random disc is not: libdvdnav draws with rand().
  @Test(
    .enabled(if: haveDiscs, missing),
    arguments: [
      "dvd-menu-clean", "dvd-menu-decoy", "dvd-menu-lying", "dvd-menu-register", "dvd-menu-99",
      "dvd-menu-timer", "dvd-menu-timer-cut",
    ])
  func buttonPathsMatchLibdvdnav(_ name: String) throws {
    let disc = try Self.open(name)
    var queue: [[Int]] = [[]]
    var compared = 0
    while let path = queue.first, compared < 40 {
      queue.removeFirst()
      let theirs = try Reference.DVDNav.follow(path: Fixtures.generated(name), buttons: path)
      let ours = DVDMainFeatureSearch.follow(disc, buttons: path)
      #expect(Self.convert(ours) == Self.convert(theirs), "\(name) buttons \(path)")
      compared += 1
      if case .menu(let n) = theirs, path.count < 3 {
        for b in 1...n { queue.append(path + [b]) }
      }
    }
    #expect(compared > 1, "\(name): libdvdnav reached no menu")
  }

  /// Every navigation pack of every menu VOB: DiscKit's buttons equal libdvdread's, and so do
  /// the button groups (`btngr_ns`, `btngrN_dsp_ty`, group g's buttons in slots
  /// 36/n·g ..< 36/n·g + btn_ns).
  @Test(.enabled(if: haveDiscs, missing))
  func buttonsMatchNavReadPCI() throws {
    var packs = 0
    var multiGroup = 0
    for name in Self.menuDiscs {
      let dir = Fixtures.generated(name) + "/VIDEO_TS/"
      for file in try FileManager.default.contentsOfDirectory(atPath: dir)
      where file.hasSuffix("_0.VOB") || file == "VIDEO_TS.VOB" {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + file)))
        for start in stride(from: 0, to: bytes.count - 2047, by: 2048) {
          let sector = Array(bytes[start..<start + 2048])
          // A navigation pack by its layout alone (pack header, system header 0xBB, PCI packet
          // 0xBF at byte 38), so that no pack the parser rejects is skipped unnoticed.
          let isNavigationPack =
            sector[14..<18] == [0, 0, 1, 0xBB] && sector[38..<42] == [0, 0, 1, 0xBF]
          guard let pack = try? DVDNavigationPack(sector: sector, at: Int64(start)) else {
            #expect(!isNavigationPack, "\(file) @\(start): a navigation pack DiscKit rejects")
            continue
          }
          #expect(isNavigationPack, "\(file) @\(start): parsed, but not a navigation pack")
          let theirs = try #require(Reference.DVDNav.buttons(sector: sector))
          let ours = pack.highlight?.buttons ?? []
          #expect(
            ours.count == (theirs.status == 0 ? 0 : theirs.buttons.count), "\(file) @\(start)")
          for (a, b) in zip(ours, theirs.buttons) {
            #expect(Self.same(a, b), "\(file) @\(start): \(a) vs \(b)")
          }
          let groups = try #require(Reference.DVDNav.buttonGroups(sector: sector))
          if let hli = pack.highlight {
            #expect(hli.groupCount == groups.count, "\(file) @\(start)")
            for (index, group) in hli.groups.enumerated() {
              #expect(group.displayType == groups.types[index], "\(file) @\(start) group \(index)")
              let base = 36 / max(1, groups.count) * index
              #expect(group.buttons.count == min(groups.buttonCount, 36 / max(1, groups.count)))
              for (j, button) in group.buttons.enumerated() {
                #expect(
                  button.number == j + 1 && Self.same(button, groups.slots[base + j]),
                  "\(file) @\(start) group \(index) button \(j + 1)")
              }
            }
            if hli.groups.count > 1 { multiGroup += 1 }
          }
          packs += 1
        }
      }
    }
    #expect(packs > 0)
    #expect(multiGroup > 0, "dvdauthor writes three groups for a 16:9 menu")
  }
}
