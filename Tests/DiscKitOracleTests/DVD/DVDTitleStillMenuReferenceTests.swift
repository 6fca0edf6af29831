@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Testing

/// A menu authored as a title (`dvd-menu-intitle`) against libdvdnav: at an infinite still in
/// the title domain whose PCI shows buttons, libdvdnav (`dvdnav_button_select_and_activate` at
/// the `DVDNAV_STILL_FRAME` event) and DiscKit's VM press the same button and reach the same
/// title, PGC and cell, also after going round the still again.
@Suite(.toolThreads) struct DVDTitleStillMenuReferenceTests {
  static let name = "dvd-menu-intitle"

  @Test(.enabled(if: DVDMenuDiscs.has(name), DVDMenuDiscs.missing))
  func buttonPathsMatchLibdvdnav() throws {
    let disc = try DVDMenuDiscs.open(Self.name)
    let paths: [[Int]] = [[], [1], [2], [1, 1], [1, 2], [2, 1], [2, 2], [1, 2, 1]]
    var titles: Set<String> = []
    for path in paths {
      let theirs = try Reference.DVDNav.follow(path: Fixtures.generated(Self.name), buttons: path)
      let ours = DVDMainFeatureSearch.follow(disc, buttons: path)
      let said = DVDVirtualMachineReferenceTests.convert(theirs)
      #expect(DVDMenuDiscs.describe(ours) == said, "buttons \(path)")
      titles.insert(said)
    }
    // The presses lead somewhere else than the still itself: libdvdnav pressed them too.
    #expect(titles.count >= 3, "\(titles)")
  }

  /// Pressing only menu-domain buttons (HandBrake's way through libdvdnav: menus pressed, the
  /// longest title reached wins), libdvdnav plays title 1 and nothing else from First Play: the
  /// feature is reached only through the title's still.
  @Test(.enabled(if: DVDMenuDiscs.has(name), DVDMenuDiscs.missing))
  func menuDomainPressesReachOnlyTheStill() throws {
    let played = try Reference.DVDNav.titlesPlayed(
      path: Fixtures.generated(Self.name), buttons: [])
    #expect(played == [1])
  }
}
