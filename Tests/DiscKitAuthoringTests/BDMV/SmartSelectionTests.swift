@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// The smart selector against decoy sets written by the test, where no libbluray comparison is
/// needed (the sets also read by libbluray are in DiscKitOracleTests' suite of the same name).
@Suite("Smart title selection", .toolThreads)
struct SmartSelectionTests {
  func select(_ path: String) throws -> (smart: SmartTitleSelector.Result, disc: BlurayDisc) {
    try SmartSelectionProbe.select(path)
  }

  @Test func withoutNavigationTheInOrderSegmentsWin() throws {
    let disc = try SyntheticBluray()
    let segments = (0..<10).map { String(format: "%05d", 200 + $0) }
    for id in segments { try disc.clip(id, SyntheticBluray.clipInfo(seconds: 400)) }
    let feature = segments.map { SyntheticBluray.item($0, from: 0, to: 300) }
    try disc.playlist(850, MoviePlaylist(playItems: feature))
    for n in 0..<30 {
      try disc.playlist(100 + n, MoviePlaylist(playItems: Array(feature.reversed().shuffled())))
    }
    let (result, _) = try select(disc.path)
    #expect(result.main == "00850.mpls")
    // Nothing on the disc tells the 31 orderings apart: the choice is a guess and says so.
    #expect(result.confidence == .ambiguous)
    #expect(result.candidates.count == 31)
    #expect(result.candidates.contains("00850.mpls"))
    #expect(result.reason.contains("ambiguous"))
  }

  /// A 4-clip feature (2h03) against a single-clip decoy (1h50): the multi-clip feature wins.
  @Test func multiClipFeatureBeatsOneLongClip() throws {
    let disc = try SyntheticBluray()
    for id in ["00010", "00011", "00012", "00013"] {
      try disc.clip(id, SyntheticBluray.clipInfo(seconds: 1900))
    }
    try disc.clip("00020", SyntheticBluray.clipInfo(seconds: 6700))
    let feature = ["00010", "00011", "00012", "00013"].map {
      SyntheticBluray.item($0, from: 0, to: 1845)
    }
    try disc.playlist(
      800,
      MoviePlaylist(playItems: feature, marks: SyntheticBluray.marks(every: 600, items: feature)))
    let single = [SyntheticBluray.item("00020", from: 0, to: 6600)]
    try disc.playlist(
      700, MoviePlaylist(playItems: single, marks: SyntheticBluray.marks(every: 600, items: single))
    )
    let (result, _) = try select(disc.path)
    #expect(result.main == "00800.mpls")
  }
}
