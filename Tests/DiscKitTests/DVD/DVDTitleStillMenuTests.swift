@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// A menu authored as a title (`dvd-menu-intitle`, TestImages/scripts/make-dvd-menus.sh): First
/// Play jumps straight to title 1, a one-second clip held by an infinite still whose navigation
/// packs carry two buttons ("Play": title 3, 6 s; "Extras": title 2, 2 s); title 4 (10 s) is
/// the longest and no button reaches it.
///
/// Oracles: the disc's authoring (which title each button plays), lsdvd (the longest title), and
/// the title VOB's navigation packs read byte by byte as the PCI layout gives them.
@Suite(.toolThreads) struct DVDTitleStillMenuTests {
  static let name = "dvd-menu-intitle"
  static let ready = DVDMenuDiscs.has(name)

  /// The search presses the still's buttons in the title domain: title 3 wins through button 1,
  /// title 2 is reached through button 2, the decoy is never played.
  @Test(.enabled(if: ready, DVDMenuDiscs.missing))
  func searchPressesTheTitleStillsButtons() throws {
    let disc = try DVDMenuDiscs.open(Self.name)
    let result = DVDMainFeatureSearch.run(disc)
    #expect(result.sawButtons)
    #expect(result.buttonsPressed >= 2)
    let best = try #require(result.best)
    #expect(best.title == 3, "\(result.plays)")
    #expect(best.path.contains { $0.contains("button 1") }, "\(best.path)")
    #expect(best.played.ticks == best.advertised.ticks, "title 3 plays to its end")
    let reached = Set(result.plays.map(\.title))
    #expect(reached == [1, 2, 3], "\(result.plays.map { ($0.title, $0.path) })")
    let menu = try #require(result.plays.first { $0.title == 1 })
    #expect(menu.ending == "held at its still menu", "\(menu.ending)")
  }

  /// The smart selection follows the buttons; lsdvd (and DiscKit's parity selection) takes the
  /// unreachable decoy, the longest title.
  @Test(.enabled(if: ready && Tool.has("lsdvd"), "needs lsdvd and make-dvd-menus.sh output"))
  func selectionFollowsTheTitleStillMenu() throws {
    let disc = try DVDMenuDiscs.open(Self.name)
    let selection = DVDSmartTitleSelector.select(disc)
    #expect(selection.title == 3, "\(selection.reason)")
    #expect(selection.fromNavigation)
    #expect(selection.reason.contains("button"), "\(selection.reason)")
    let lsdvd = try LsdvdOracle.run(Fixtures.generated(Self.name))
    #expect(lsdvd.longestTrack == 4)
  }

  /// Button paths through the still: each press reaches the title the authoring says, also on a
  /// second visit of the still (every title jumps back to title 1).
  @Test(.enabled(if: ready, DVDMenuDiscs.missing))
  func followPressesAtTheStill() throws {
    let disc = try DVDMenuDiscs.open(Self.name)
    let first = DVDMainFeatureSearch.follow(disc, buttons: [])
    #expect(DVDMenuDiscs.describe(first) == "title 1 PGC 1 cell 1")
    for (path, title) in [([1], 3), ([2], 2), ([1, 2], 2), ([2, 1], 3), ([1, 1], 3)] {
      let outcome = DVDMainFeatureSearch.follow(disc, buttons: path)
      #expect(DVDMenuDiscs.describe(outcome) == "title \(title) PGC \(title) cell 1", "\(path)")
    }
  }

  /// The title VOB's navigation packs: those of title 1's cell carry the two buttons, whose
  /// commands equal the raw PCI bytes (PCI at 0x2D; its highlight general information at
  /// + 0x60, 22 bytes: `hli_ss` in the low bits of its second byte, `btn_ns` at + 0x11; then three
  /// 8-byte colour entries; then the first button group's table at + 0x8E, 18 bytes a button, the
  /// command in the last 8).
  @Test(.enabled(if: ready, DVDMenuDiscs.missing))
  func titleVOBNavigationPacksHoldTheButtons() throws {
    let path = Fixtures.generated(Self.name) + "/VIDEO_TS/VTS_01_1.VOB"
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    var withButtons = 0
    for start in stride(from: 0, to: bytes.count - 2047, by: 2048)
    where bytes[start + 14..<start + 18] == [0, 0, 1, 0xBB]
      && bytes[start + 38..<start + 42] == [0, 0, 1, 0xBF]
    {
      let sector = Array(bytes[start..<start + 2048])
      let pack = try DVDNavigationPack(sector: sector, at: Int64(start))
      let hli = 0x2D + 0x60
      let count = sector[hli + 1] & 3 != 0 ? Int(sector[hli + 0x11]) : 0
      let ours = pack.highlight?.buttons ?? []
      #expect(ours.count == count, "sector \(start / 2048)")
      guard count > 0 else { continue }
      withButtons += 1
      for (k, button) in ours.enumerated() {
        let entry = 0x2D + 0x8E + 18 * k
        let raw = sector[entry + 10..<entry + 18].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(button.command.raw == raw, "button \(k + 1)")
      }
    }
    #expect(withButtons > 0, "title 1's cell has navigation packs with buttons")
  }
}
