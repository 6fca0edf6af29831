@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// A disc whose playlists are all shorter than the default minimum (the committed sample, made by
/// TestImages/scripts/sample-bluray.sh: feature = first `--title` a.ts,b.ts → 00000.mpls, plus one
/// shuffled decoy of it → the last playlist) still has a main title; an explicit minimum stays
/// strict. libbluray, whose ties go to the later playlist, takes the equally long decoy.
@Suite("Smart selection on a disc of short clips", .toolThreads)
struct ShortDiscSelectionTests {
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path

  @Test func shortPlaylistsCountWhenNothingElseSurvives() throws {
    let disc = try BlurayDisc(disc: try DiscImage.open(path: Self.sample))
    let candidates = disc.playlists.map {
      SmartTitleSelector.Candidate(name: $0.name, number: $0.number, playlist: $0.playlist)
    }
    let relaxed = SmartTitleSelector.select(candidates, minSeconds: 20)
    let bd = try Reference.Bluray(path: Self.sample)
    let count = bd.titleCount(flags: 3)
    #expect(count > 0)
    let libblurayMain = try #require(bd.titleInfo(bd.mainTitle)).playlist
    #expect(relaxed.main == "00000.mpls")
    #expect(Int(libblurayMain) == disc.playlists.map(\.number).max())
    #expect(relaxed.reason.contains("shorter than 20 s"))
    let strict = SmartTitleSelector.select(candidates, minSeconds: 20, relaxMinimum: false)
    #expect(strict.main == nil)
  }
}
