@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Exclusion reasons and warnings as the library reports them, on a synthetic decoy disc (with
/// libbluray's title list on the same folder as the oracle of what is left out) and on real discs.
/// The DVD reasons (no C library) are in DiscKitTests' suite of the same name.
@Suite("Title exclusions and warnings", .toolThreads)
struct TitleExclusionTests {
  /// One playlist per Blu-ray reason: each is set aside with its case, and the titles document
  /// carries the reason's description.
  @Test func everyBlurayReasonOnADecoyDisc() throws {
    let disc = try SyntheticBluray()
    try disc.clip("00001", SyntheticBluray.clipInfo(seconds: 4000))
    try disc.clip("00002", SyntheticBluray.clipInfo(seconds: 100))
    let feature = [SyntheticBluray.item("00001", from: 0, to: 3600)]
    let marks = SyntheticBluray.marks(every: 300, items: feature)
    try disc.playlist(1, MoviePlaylist(playItems: feature, marks: marks))
    try disc.playlist(2, MoviePlaylist(playItems: feature, marks: marks))
    let segment = SyntheticBluray.item("00002", from: 0, to: 50)
    try disc.playlist(3, MoviePlaylist(playItems: [segment, segment, segment]))
    let backwards = SyntheticBluray.item("00002", from: 50, to: 10)
    try disc.playlist(4, MoviePlaylist(playItems: [backwards]))
    try disc.playlist(5, MoviePlaylist(playItems: [SyntheticBluray.item("00002", from: 0, to: 10)]))
    try disc.playlist(6, MoviePlaylist(playItems: []))
    try disc.write("BDMV/PLAYLIST/00007.mpls", Array("MPLS0200 broken".utf8))
    try disc.navigation(plays: [])

    let opened = try Disc.open(path: disc.path)
    let list = try opened.titleList(selection: .smart, includeExcluded: true)
    let reasons = Dictionary(uniqueKeysWithValues: list.entries.map { ($0.key, $0.excluded) })
    let expected: [String: TitleExclusion?] = [
      "00001": nil, "00002": .duplicate(of: "00001.mpls"), "00003": .repeatedSegments,
      "00004": .invalidTimes, "00005": .tooShort, "00006": .empty, "00007": .unreadable(nil),
    ]
    #expect(reasons == expected)
    #expect(list.mainKey == "00001")
    let texts: [String: String] = [
      "00002": "duplicate of 00001.mpls", "00003": "repeated segments",
      "00004": "invalid in/out times", "00005": "too short", "00006": "empty",
      "00007": "unreadable",
    ]
    let document = try TitlesDocument(disc: opened, selection: .smart, includeExcluded: true)
    for row in document.titles {
      #expect(row.excluded == texts[row.key], "\(row.key)")
    }
    // The invalid item also warns, typed and in words.
    let invalid = try opened.title(key: "00004")
    let warning = TitleWarning.invalidTimes(
      playItem: 0, inTime: backwards.inTime, outTime: backwards.outTime)
    #expect(invalid.warnings == [warning])
    #expect(
      document.titles.first { $0.key == "00004" }?.warnings == invalid.warnings.map(\.description))

    // libbluray's parity list: what libbluray leaves out is what the typed reasons leave out.
    let parity = try opened.titleList(selection: .libbluray, includeExcluded: false)
    let reference = try Reference.Bluray(path: disc.path)
    let listed = (0..<reference.titleCount(flags: 3)).compactMap {
      reference.titleInfo($0).map { String(format: "%05d", $0.playlist) }
    }
    #expect(parity.entries.map(\.key).sorted() == listed.sorted())
    let bluray = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
    let raw = LibblurayTitleSelector.select(
      bluray.playlists.map { ($0.name, $0.playlist) }, flags: .relevant)
    let rawReasons = Dictionary(uniqueKeysWithValues: raw.entries.map { ($0.name, $0.exclusion) })
    #expect(rawReasons["00002.mpls"] == .duplicate(of: "00001.mpls"))
    #expect(rawReasons["00003.mpls"] == .repeatedSegments)
    #expect(rawReasons["00007.mpls"] == .unreadable(nil))
  }

  /// Real Blu-ray metadata: libbluray (TITLES_FILTER_DUP_TITLE, then TITLES_RELEVANT) leaves out
  /// exactly the playlists the parity selector gives a duplicate (then a duplicate or repeat) reason.
  @Test(.enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)))
  func libblurayReasonsMatchLibblurayOnRealDiscs() throws {
    let root = Fixtures.real("bluray")
    let names = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
    var checked = 0
    for name in names {
      let path = root + "/" + name
      guard FileManager.default.fileExists(atPath: path + "/BDMV/PLAYLIST"),
        let reference = try? Reference.Bluray(path: path),
        let bluray = try? BlurayDisc(fileSystem: try FolderFileSystem(root: path))
      else { continue }
      // Same enumeration order as libbluray on this folder.
      let playlists = bluray.playlists.map { ($0.name, $0.playlist) }
      for (flags, bits): (LibblurayTitleSelector.Flags, UInt8) in [
        (.duplicateTitles, 1), (.relevant, 3),
      ] {
        let ours = LibblurayTitleSelector.select(playlists, flags: flags)
        let count = reference.titleCount(flags: bits)
        let listed = Set(
          (0..<count).compactMap { reference.titleInfo($0).map { Int($0.playlist) } })
        for (file, entry) in zip(bluray.playlists, ours.entries) {
          let excluded = !listed.contains(file.number)
          #expect((entry.exclusion != nil) == excluded, "\(name) \(file.name) flags \(bits)")
          switch entry.exclusion {
          case .none, .unreadable, .duplicate: break
          case .repeatedSegments: #expect(bits == 3, "\(name) \(file.name)")
          default: Issue.record("\(name) \(file.name): \(String(describing: entry.exclusion))")
          }
        }
      }
      // The smart selector's reasons on the same disc are typed and printed as in the document.
      let disc = try Disc.open(path: path)
      let list = try disc.titleList(selection: .smart, includeExcluded: true)
      let document = try TitlesDocument(disc: disc, selection: .smart, includeExcluded: true)
      for (entry, row) in zip(list.entries, document.titles) {
        #expect(row.excluded == entry.excluded?.description, "\(name) \(entry.key)")
      }
      checked += 1
    }
    #expect(checked > 0)
  }
}
