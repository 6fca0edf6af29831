@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Scenario discs modelled on published obfuscation cases (permutation floods, a longer decoy, a
/// loop composite, stream twins, a chapterless long decoy, a flood without evidence, a menu), each
/// written by the test with its navigation program. The expected main playlist is the one the
/// test's own program plays; where libbluray can run the program (metadata without streams), its
/// HDMV VM must reach the same playlists as DiscKit's. The scenarios without a libbluray
/// comparison (a composite larger than the disc, a menu) are in DiscKitAuthoringTests' suite of
/// the same name; the discs are ``BlurayScenarioDiscs``.
@Suite("Navigation scenarios", .toolThreads)
struct NavigationScenarioTests {
  typealias S = BlurayScenarioDiscs

  func open(_ disc: SyntheticBluray) throws -> BlurayDisc {
    try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
  }

  /// The distinct playlists libbluray's VM starts: First Play, or index title `title`.
  static func libbluray(_ path: String, title: Int? = nil) throws -> [Int] {
    let bd = try Reference.Bluray(path: path)
    var seen = Set<Int>()
    return bd.navigationEvents(title: title).compactMap {
      if case .playlist(let n) = $0, seen.insert(n).inserted { return n }
      return nil
    }
  }

  /// DiscKit's VM and libbluray's reach the same playlists from First Play and every title.
  func expectSameReach(_ disc: SyntheticBluray, _ bluray: BlurayDisc, titles: Int) throws {
    var machine = try #require(bluray.hdmvMachine)
    machine.libblurayResume = true
    let theirs = try Self.libbluray(disc.path)
    #expect(theirs == machine.run(.firstPlay).playlists)
    for title in 1...titles {
      let theirs = try Self.libbluray(disc.path, title: title)
      #expect(theirs == machine.run(.title(title)).playlists, "title \(title)")
    }
  }

  @Test("a permutation flood: the order the navigation computes wins, not the lowest or ascending")
  func floodWithComputedNavigation() throws {
    // Title 1 computes 823 = 800 + 23 in GPR10.
    let disc = try S.computedFlood()
    let bluray = try open(disc)
    let result = bluray.smartSelection()
    #expect(result.main == "00823.mpls")
    #expect(result.confidence == .navigation)
    #expect(result.familySize == 40)
    #expect(result.evidence.contains { $0.kind == .navigation && $0.detail.contains("GPR10") })
    #expect(result.evidence.contains { $0.kind == .family && $0.detail.contains("40") })
    #expect(result.candidates.isEmpty)
    try expectSameReach(disc, bluray, titles: 1)
    // Named evidence (a BD-J locator, supplied by the caller) is trusted before the navigation.
    let named = bluray.smartSelection(named: [
      TitleEvidence(kind: .bdj, key: "00805", detail: "the BD-J title's locator names 00805")
    ])
    #expect(named.main == "00805.mpls")
    #expect(named.confidence == .named)
    #expect(named.evidence.first?.kind == .bdj)
  }

  @Test("a flood nothing on the disc resolves is ambiguous, chosen by the lowest number")
  func floodWithoutEvidence() throws {
    let disc = try S.blindFlood()
    let bluray = try open(disc)
    let result = bluray.smartSelection()
    #expect(result.confidence == .ambiguous)
    #expect(result.familySize == 30)
    #expect(result.candidates.count == 30)
    #expect(result.reason.contains("ambiguous"))
    // The stated rule: fewest backward steps in (clip, in-time) order, then the lowest number,
    // computed here from the orders the test wrote.
    func inversions(_ number: Int) -> Int {
      let items = bluray.playlistFile(number: number)?.playlist?.playItems ?? []
      return zip(items, items.dropFirst()).count { $0.clip.clipID > $1.clip.clipID }
    }
    let expected = (800..<830).min { (inversions($0), $0) < (inversions($1), $1) }
    #expect(result.main == expected.map { String(format: "%05d.mpls", $0) })
    try expectSameReach(disc, bluray, titles: 1)
  }

  @Test("a longer decoy (the feature's clips reshuffled plus one) loses to the played feature")
  func longerDecoy() throws {
    // Title 1 calls object 3, which sets GPR1 to 801 and returns; title 1 then plays GPR1.
    let disc = try S.longerDecoy()
    let bluray = try open(disc)
    let heuristic = SmartTitleSelector.select(
      bluray.playlists.map { .init(name: $0.name, number: $0.number, playlist: $0.playlist) })
    #expect(heuristic.main == "00800.mpls", "the decoy is longer: length alone picks it")
    let result = bluray.smartSelection()
    #expect(result.main == "00801.mpls")
    #expect(result.confidence == .navigation)
    try expectSameReach(disc, bluray, titles: 1)
  }

  @Test("a loop composite and stream twins: set aside, the played twin kept")
  func loopCompositeAndTwins() throws {
    let disc = try S.playedFeature(loopComposite: true, richerTwin: true)
    let bluray = try open(disc)
    let result = bluray.smartSelection()
    #expect(result.main == "00801.mpls")
    let fate = Dictionary(uniqueKeysWithValues: result.entries.map { ($0.name, $0.excluded) })
    #expect(fate["00900.mpls"] == .repeatedSegments)
    #expect(fate["00802.mpls"] == .duplicate(of: "00801.mpls"))
    try expectSameReach(disc, bluray, titles: 1)
  }

  @Test("a chapterless long decoy loses to the feature the title plays")
  func chapterlessLongDecoy() throws {
    let disc = try S.chapterlessDecoy()
    let bluray = try open(disc)
    let result = bluray.smartSelection()
    #expect(result.main == "00801.mpls")
    #expect(result.confidence == .navigation)
    try expectSameReach(disc, bluray, titles: 2)
  }
}
