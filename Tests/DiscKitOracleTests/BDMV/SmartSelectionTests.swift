@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// The smart selector against decoy sets written by the test, with libbluray on the same folders.
/// The sets without a libbluray comparison are in DiscKitAuthoringTests' suite of the same name.
@Suite("Smart title selection", .toolThreads)
struct SmartSelectionTests {
  func select(_ path: String) throws -> (smart: SmartTitleSelector.Result, disc: BlurayDisc) {
    try SmartSelectionProbe.select(path)
  }

  /// libbluray's main playlist name on the folder.
  func libblurayMain(_ path: String) throws -> String? {
    let bd = try Reference.Bluray(path: path)
    let n = bd.titleCount(flags: 3)
    guard n > 0, let info = bd.titleInfo(bd.mainTitle) else { return nil }
    return String(format: "%05d.mpls", info.playlist)
  }

  /// 200 obfuscated playlists play the same 20 segments in shuffled orders; index title 1 plays
  /// 00800, the feature. libbluray (and longest-first tools) cannot tell them apart.
  @Test func obfuscatedPlaylistsFollowNavigation() throws {
    let disc = try SyntheticBluray()
    let segments = (0..<20).map { String(format: "%05d", 100 + $0) }
    for id in segments { try disc.clip(id, SyntheticBluray.clipInfo(seconds: 400)) }
    var rng = SeededRandom(seed: 0x0800_0800)
    let feature = segments.map { SyntheticBluray.item($0, from: 0, to: 300) }
    try disc.playlist(
      800,
      MoviePlaylist(playItems: feature, marks: SyntheticBluray.marks(every: 600, items: feature)))
    for n in 0..<200 {
      var shuffled = feature
      repeat { shuffled.shuffle(using: &rng) } while shuffled.map(\.clip.clipID) == segments
      try disc.playlist(
        900 + n,
        MoviePlaylist(
          playItems: shuffled, marks: SyntheticBluray.marks(every: 600, items: shuffled)))
    }
    try disc.navigation(plays: [[800]])
    let (result, _) = try select(disc.path)
    #expect(result.main == "00800.mpls")
    #expect(result.reason.contains("index title 1"))
    // The navigation decided: 00800 is the only one of the 201 twins any title plays.
    #expect(result.confidence == .navigation)
    #expect(result.candidates.isEmpty)
    #expect(
      result.evidence.contains(
        TitleEvidence(kind: .navigation, key: "00800", detail: "played by index title 1")))
    // libbluray: all 201 tie on length, chapters and streams; the last one listed wins.
    let theirs = try libblurayMain(disc.path)
    #expect(theirs != nil && theirs != "00800.mpls")
  }

  /// A decoy a minute longer than the feature (the feature's segments plus one more, reshuffled)
  /// that no navigation plays: the navigation decides, and the evidence names the decoy.
  @Test func aLongerDecoyLosesToTheNavigatedFeature() throws {
    let disc = try SyntheticBluray()
    let segments = (0..<6).map { String(format: "%05d", 300 + $0) }
    for id in segments { try disc.clip(id, SyntheticBluray.clipInfo(seconds: 400)) }
    let feature = segments.dropLast().map { SyntheticBluray.item($0, from: 0, to: 300) }
    try disc.playlist(658, MoviePlaylist(playItems: Array(feature)))
    let decoy = [SyntheticBluray.item(segments[5], from: 0, to: 60)] + feature.reversed()
    try disc.playlist(436, MoviePlaylist(playItems: decoy))
    try disc.navigation(plays: [[658]])
    let (result, _) = try select(disc.path)
    #expect(result.main == "00658.mpls")
    #expect(result.confidence == .navigation)
    #expect(result.evidence.contains { $0.key == "00436" && $0.kind == .navigation })
    // libbluray takes the longer decoy.
    #expect(try libblurayMain(disc.path) == "00436.mpls")
  }

  /// A looping decoy (every segment twice, so libbluray's 3-repeat filter keeps it) is twice as
  /// long as the feature; a wrapped in/out decoy looks 26 h long to libbluray.
  @Test func loopingAndWrappedDecoysAreExcluded() throws {
    let disc = try SyntheticBluray()
    for id in ["00001", "00002", "00003"] {
      try disc.clip(id, SyntheticBluray.clipInfo(seconds: 2400))
    }
    let feature = [
      SyntheticBluray.item("00001", from: 0, to: 2000),
      SyntheticBluray.item("00002", from: 0, to: 2000),
    ]
    try disc.playlist(
      1, MoviePlaylist(playItems: feature, marks: SyntheticBluray.marks(every: 300, items: feature))
    )
    let looping = feature + feature
    try disc.playlist(
      2, MoviePlaylist(playItems: looping, marks: SyntheticBluray.marks(every: 300, items: looping))
    )
    var wrapped = SyntheticBluray.item("00003", from: 10, to: 5)
    wrapped.streams = SyntheticBluray.standardStreams
    try disc.playlist(
      3,
      MoviePlaylist(
        playItems: [wrapped], marks: [PlaylistMark(playItemRef: 0, time: wrapped.inTime)]))
    try disc.playlist(
      4, MoviePlaylist(playItems: feature, marks: SyntheticBluray.marks(every: 300, items: feature))
    )
    try disc.navigation(plays: [])
    let (result, _) = try select(disc.path)
    #expect(result.main == "00001.mpls")
    let excluded = Dictionary(uniqueKeysWithValues: result.entries.map { ($0.name, $0.excluded) })
    #expect(excluded["00002.mpls"] == .repeatedSegments)
    #expect(excluded["00003.mpls"] == .invalidTimes)
    #expect(excluded["00004.mpls"] == .duplicate(of: "00001.mpls"))
    #expect(excluded["00002.mpls"]??.description == "repeated segments")
    #expect(excluded["00003.mpls"]??.description == "invalid in/out times")
    #expect(excluded["00004.mpls"]??.description == "duplicate of 00001.mpls")
    // libbluray picks a decoy.
    let theirs = try libblurayMain(disc.path)
    #expect(theirs == "00002.mpls" || theirs == "00003.mpls")
  }

  /// On the real (unobfuscated) discs with navigation smart selection agrees with libbluray's
  /// main title. (Without index.bdmv they may differ by design: on tchapter_DISC1 libbluray
  /// prefers a 1h11 H.264 playlist to a 2h42 MPEG-2 one; smart keeps only playlists ≥ 80 % of
  /// the longest, see the BluRay article (Sources/DiscKit/DiscKit.docc/BluRay.md).)
  @Test(needsRealData)
  func agreesWithLibblurayOnRealDiscs() throws {
    let withIndex = LibblurayParityTests.discs.filter {
      FileManager.default.fileExists(atPath: $0 + "/BDMV/index.bdmv")
    }
    #expect(withIndex.count >= 20)
    for path in withIndex {
      let (result, _) = try select(path)
      let theirs = try libblurayMain(path)
      #expect(result.main != nil && result.main == theirs, "\(path): \(result.reason)")
    }
  }

  /// The parity selector reproduces libbluray on the synthetic decoy folders too.
  @Test func paritySelectorAgreesWithLibblurayOnDecoys() throws {
    let disc = try SyntheticBluray()
    for id in ["00001", "00002"] { try disc.clip(id, SyntheticBluray.clipInfo(seconds: 2400)) }
    let a = [SyntheticBluray.item("00001", from: 0, to: 2000)]
    let b = [
      SyntheticBluray.item("00001", from: 0, to: 2000),
      SyntheticBluray.item("00002", from: 0, to: 100),
    ]
    try disc.playlist(1, MoviePlaylist(playItems: a + a + a))
    try disc.playlist(2, MoviePlaylist(playItems: b))
    try disc.playlist(3, MoviePlaylist(playItems: b))
    try disc.playlist(
      4, MoviePlaylist(playItems: a, marks: SyntheticBluray.marks(every: 60, items: a)))
    try disc.navigation(plays: [])
    let bd = try Reference.Bluray(path: disc.path)
    let parsed = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
    let order = LibblurayParityTests.libblurayOrder(bd, disc: parsed)
    let ordered = try BlurayDisc(
      fileSystem: try FolderFileSystem(root: disc.path), playlistOrder: order)
    for flags: UInt8 in [0, 1, 2, 3] {
      let ours = LibblurayTitleSelector.select(
        ordered.playlists.map { ($0.name, $0.playlist) }, flags: .init(rawValue: flags))
      let count = bd.titleCount(flags: flags)
      #expect(ours.titles.count == count, "flags \(flags)")
      #expect(ours.mainTitle == bd.mainTitle, "flags \(flags)")
    }
  }
}
