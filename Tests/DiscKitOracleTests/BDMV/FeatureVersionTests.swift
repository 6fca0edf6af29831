@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Two cuts of one feature behind two index titles: First Play jumps to title 1, which plays the
/// theatrical cut (801); title 2 plays an alternate cut (802) 2 s longer (one clip replaced by a
/// longer one) with one more audio track. Length, chapters and streams all favour the alternate;
/// the disc's own default is what First Play plays, and libbluray's HDMV VM says which that is.
@Suite("Feature versions: the cut the default navigation plays, the others named as versions", .toolThreads)
struct FeatureVersionTests {
  typealias S = BlurayScenarioDiscs

  static func disc() throws -> SyntheticBluray {
    let disc = try S.baseDisc()
    try disc.clip("00108", SyntheticBluray.clipInfo(seconds: 62))
    try disc.playlist(801, S.playlist(S.featureOrder))
    var richer = SyntheticBluray.standardStreams
    richer.audio.append(
      PlaylistStream(pid: 0x1101, codingType: 0x81, format: 3, rate: 1, language: "eng"))
    var alternate = S.featureOrder
    alternate[3] = "00108"
    var items = alternate.map {
      SyntheticBluray.item($0, from: 0, to: $0 == "00108" ? 62 : 60)
    }
    for k in items.indices { items[k].streams = richer }
    try disc.playlist(
      802, MoviePlaylist(playItems: items, marks: SyntheticBluray.marks(every: 60, items: items)))
    try S.navigation(
      disc,
      [
        [.jumpTitle(.immediate(1))], S.menuLoop,
        [.playPlaylist(.immediate(801)), .jumpTitle(.immediate(0))],
        [.playPlaylist(.immediate(802)), .jumpTitle(.immediate(0))],
      ], titles: 2)
    return disc
  }

  @Test("the main title is the cut First Play plays (libbluray's VM), the other a version")
  func defaultCut() throws {
    let disc = try Self.disc()
    // libbluray's HDMV VM: the first playlist First Play starts.
    let bd = try Reference.Bluray(path: disc.path)
    let firstPlay = bd.navigationEvents(title: nil, reads: 8).compactMap {
      if case .playlist(let n) = $0 { return n }
      return nil
    }.first
    #expect(firstPlay == 801)
    let bluray = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
    // Both cuts have navigation evidence; the longest-with-evidence rule alone takes the
    // alternate (longer, one more stream).
    var plain = bluray.selectionEvidence(named: [], runs: bluray.navigationRuns())
    plain.defaultOrder = [:]
    let longest = SmartTitleSelector.select(
      bluray.playlists.map { .init(name: $0.name, number: $0.number, playlist: $0.playlist) },
      navigation: BlurayDisc.navigationMap(bluray.navigationRuns()), evidence: plain)
    #expect(longest.main == "00802.mpls")
    let result = bluray.smartSelection()
    #expect(result.main == firstPlay.map { String(format: "%05d.mpls", $0) })
    #expect(result.confidence == .navigation)
    #expect(result.evidence.contains { $0.kind == .navigation && $0.detail.contains("First Play") })
    let version = try #require(result.versions.first)
    #expect(result.versions.count == 1)
    #expect(version.name == "00802.mpls")
    #expect(version.kind == .alternate)
    #expect(version.durationDifference45k == 2 * 45000)
    #expect(version.audioDifference == 1)
    // The document and its text name it.
    let document = try TitlesDocument(disc: try Disc.open(path: disc.path))
    #expect(document.main == "00801")
    #expect(document.versions?.map(\.key) == ["00802"])
    #expect(document.versions?.first?.kind == "alternate")
    #expect(document.versions?.first?.detail.contains("1 more audio stream") == true)
  }

  @Test("versions: cuts sharing most footage, not a play-all of episodes, not a trailer")
  func versionRule() throws {
    func playlist(_ clips: [(String, Int)]) -> MoviePlaylist {
      MoviePlaylist(playItems: clips.map { SyntheticBluray.item($0.0, from: 0, to: $0.1) })
    }
    let theatrical = playlist([("00001", 600), ("00002", 600), ("00003", 600)])
    let extended = playlist([("00001", 600), ("00002", 600), ("00009", 120), ("00003", 600)])
    let episodes = playlist([
      ("00001", 600), ("00011", 600), ("00012", 600), ("00013", 600), ("00014", 600),
    ])
    let trailer = playlist([("00001", 90)])
    #expect(FeatureVersions.areVersions(theatrical, extended))
    #expect(!FeatureVersions.areVersions(theatrical, episodes))
    #expect(!FeatureVersions.areVersions(theatrical, trailer))
    let described = FeatureVersions.describe(
      extended, name: "00002.mpls", against: theatrical, sameSegments: false)
    #expect(described.kind == .extended)
    #expect(described.durationDifference45k == 120 * 45000)
  }
}
