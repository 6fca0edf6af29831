@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// The DVD timer and random menu discs against libdvdnav.
@Suite(.toolThreads)
struct DVDTimerRandomGroupReferenceTests {
  static let discs = ["dvd-menu-timer", "dvd-menu-timer-cut", "dvd-menu-random", "dvd-menu-decoy"]

  static let haveDiscs = discs.allSatisfy(DVDMenuDiscs.has)
  static let missing = DVDMenuDiscs.missing
  static func open(_ name: String) throws -> DVDDisc { try DVDMenuDiscs.open(name) }

  /// libdvdnav does not count the timer down: after the button it plays title 1 to its end and
  /// is back at the menu (title 1's post command) without title 2, where DiscKit's search goes
  /// on to title 2 after 2 s. The button paths themselves agree (DVDVirtualMachineTests compares
  /// them); on dvd-menu-timer libdvdnav steps over title 1's still into title 2 (its post
  /// command) and never reaches title 4.
  @Test(.enabled(if: haveDiscs, missing))
  func libdvdnavIgnoresTheTimer() throws {
    let cut = try Reference.DVDNav.titlesPlayed(
      path: Fixtures.generated("dvd-menu-timer-cut"), buttons: [1])
    #expect(cut == [1])
    let still = try Reference.DVDNav.titlesPlayed(
      path: Fixtures.generated("dvd-menu-timer"), buttons: [1])
    #expect(still == [1, 2])
    let ours = DVDMainFeatureSearch.run(try Self.open("dvd-menu-timer-cut"))
    #expect(Set(ours.plays.map(\.title)) == [1, 2])
  }

  /// dvd-menu-random: button 1 jumps to title random(4) (the authoring): the search reaches
  /// titles 1-4, each by its outcome, never title 5, and picks title 4; the outcome libdvdnav
  /// happens to draw (rand()) is among them. Two runs give the same result. Button 2 draws
  /// random(20), which is sampled with a warning carried into the evidence.
  @Test(.enabled(if: haveDiscs, missing))
  func randomDiscIsExploredCompletely() throws {
    let disc = try Self.open("dvd-menu-random")
    let result = DVDMainFeatureSearch.run(disc)
    #expect(Set(result.plays.map(\.title)) == [1, 2, 3, 4])
    for play in result.plays where play.title != 1 {
      #expect(play.path.joined().contains("rnd GPRM1 = \(play.title) of 1…4"), "\(play.path)")
    }
    #expect(result.best?.title == 4)
    #expect(DVDMainFeatureSearch.run(disc) == result)
    // Button 2's random(20) is over the bound: sampled, and the evidence says so.
    #expect(result.warnings.contains { $0.contains("GPRM2 = rnd 1…20 was sampled") })
    let selection = DVDSmartTitleSelector.select(disc)
    #expect(selection.title == 4)
    #expect(
      selection.evidence.contains { $0.detail.contains("not every rnd outcome explored") },
      "\(selection.evidence)")
    let theirs = try Reference.DVDNav.follow(
      path: Fixtures.generated("dvd-menu-random"), buttons: [1])
    guard case .title(let title, _, _) = theirs else {
      Issue.record("libdvdnav reached \(theirs)")
      return
    }
    #expect((1...4).contains(title))
  }
}
