@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// The scenario discs (``BlurayScenarioDiscs``) whose checks need no C library: a loop composite
/// that is larger than the disc and a top menu whose button leads to the feature. The expected
/// main playlist is the one the test's own navigation program plays; the scenarios compared with
/// libbluray's HDMV VM are in DiscKitOracleTests' suite of the same name.
@Suite("Navigation scenarios", .toolThreads)
struct NavigationScenarioTests {
  typealias S = BlurayScenarioDiscs

  func open(_ disc: SyntheticBluray) throws -> BlurayDisc {
    try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
  }

  @Test("a loop composite replaying footage at shifted in-times is larger than the disc")
  func loopCompositeLargerThanTheDisc() throws {
    // Each feature clip four times, from seconds 0, 1, 2 and 3: no (clip, in-time) repeats, so
    // only the byte count gives it away (~4 x the feature, 24 clip plays against 9 clip files).
    let disc = try S.compositeLargerThanTheDisc(titlePlaysFeature: false)
    let bluray = try open(disc)
    let result = bluray.smartSelection()
    let fate = Dictionary(uniqueKeysWithValues: result.entries.map { ($0.name, $0.excluded) })
    let packets: Int64 = 7 * 60 * 1000 + 2 * 30 * 1000
    let capacity: Int64 = packets * 192
    guard case .largerThanDisc(let bytes, let reported)? = fate["00901.mpls"] else {
      Issue.record(
        "00901 is not set aside as larger than the disc: \(String(describing: fate["00901.mpls"]))")
      return
    }
    #expect(reported == capacity)
    #expect(bytes > capacity)
    #expect(result.main == "00801.mpls")
    #expect(result.evidence.contains { $0.kind == .physical && $0.key == "00901" })
  }

  @Test("a menu button leads to the feature; a phantom button is no evidence")
  func menuButton() throws {
    // The menu playlist 50 plays clip 00050, whose stream holds an IG menu on PID 0x1400.
    let composition = InteractiveComposition(pages: [
      IGPage(
        id: 0,
        groups: [
          IGButtonOverlapGroup(buttons: [
            IGButton(
              id: 1, commands: [.set(.move, .gpr(7), .immediate(812)), .jumpObject(.immediate(3))]),
            IGButton(id: 2, commands: [.nop]),
          ])
        ])
    ])
    let disc = try S.menuFlood(composition)
    let bluray = try open(disc)
    let read = try #require(try bluray.menuComposition(playlist: 50))
    #expect(read == composition)
    let result = bluray.smartSelection()
    #expect(result.main == "00812.mpls")
    #expect(result.confidence == .navigation)
    #expect(result.evidence.contains { $0.kind == .menu && $0.detail.contains("button 1") })
    #expect(!result.evidence.contains { $0.detail.contains("button 2") })
  }
}
