@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// Playlist mentions, project-file records and the whole analysis over discs the tests author:
/// the expected playlists are the ones the test itself put into the BDJO, JAR and project file.
/// The disc authored with the BDMV builder and read by libbluray too is in DiscKitOracleTests'
/// suite of the same name.
@Suite("BD-J evidence", .toolThreads)
struct BDJAnalysisTests {
  @Test func mentionsInStrings() {
    func numbers(_ s: String) -> [Int: PlaylistMention.Form] {
      Dictionary(
        PlaylistMention.mentions(in: s).map { ($0.playlist, $0.form) },
        uniquingKeysWith: { a, _ in a })
    }
    #expect(numbers("bd://0.PLAYLIST:00800") == [800: .locator])
    #expect(numbers("bd://1.PLAYLIST:00658.ITEM:0.MARK:2") == [658: .locator])
    #expect(numbers("bd://0.PLAYLIST:") == [:])
    #expect(numbers("bd://0.PLAYLIST:008001") == [:])
    #expect(numbers("PLAYLIST:00800") == [:])  // no bd:// locator
    #expect(numbers("BDMV/PLAYLIST/00300.MPLS") == [300: .fileName])
    #expect(numbers("100300.mpls") == [:])
    #expect(numbers("featurePlaylistId=800") == [800: .featureKey])
    #expect(numbers("<mainFeature playlist=\"00658\"/>") == [658: .featureKey])
    #expect(numbers("featurette=00123") == [:])
    #expect(numbers("menu=00123") == [:])
  }

  /// A record laid out as the format description says (see ``BlurayProjectFile``).
  static func projectRecord(
    _ name: String, playlist: UInt16, seconds: Float, frameRate: Float = 23.976, marker: UInt16 = 2
  ) -> [UInt8] {
    func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    func u32(_ v: UInt32) -> [UInt8] { u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) }
    return u16(UInt16(name.utf8.count)) + Array(name.utf8) + u32(0) + u16(playlist) + u16(marker)
      + Array("2D".utf8) + u32(frameRate.bitPattern) + u32(seconds.bitPattern) + u32(7)
  }

  @Test func projectRecordsBetweenJunk() {
    let bytes: [UInt8] =
      [0xDE, 0xAD] + Self.projectRecord("FPL_MainFeature", playlist: 800, seconds: 7668.5)
      + [0, 0, 0xFF] + Self.projectRecord("EPL_01", playlist: 801, seconds: 60)
      + Self.projectRecord("Bad", playlist: 802, seconds: 60, marker: 3)
      + Self.projectRecord("Bad", playlist: 803, seconds: 60, frameRate: .nan)
    let file = BlurayProjectFile(bytes: bytes)
    #expect(file.records.map(\.playlist) == [800, 801])
    #expect(file.records.map(\.name) == ["FPL_MainFeature", "EPL_01"])
    #expect(file.records[0].namesFeature && !file.records[1].namesFeature)
    #expect(file.records[0].offset == 2)
    #expect(file.records[0].matches(duration: MediaTime(seconds: 7670)))
    #expect(!file.records[0].matches(duration: MediaTime(seconds: 7671)))
    var random = SeededRandom(seed: 0xB10)
    for _ in 0..<2000 {
      var copy = bytes
      copy[Int.random(in: 0..<copy.count, using: &random)] = UInt8.random(
        in: 0...255, using: &random)
      for record in BlurayProjectFile(bytes: copy).records {
        #expect(record.name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F })
      }
    }
  }

  /// Writes a BD-J folder: index (title 1 → BDJO 00001), BDJO, JAR 00001 (a class naming the
  /// feature by locator, a properties file), JAR 00009 (not loaded by anyone, naming a decoy),
  /// a JAR directory with a project file.
  static func writeBDJFolder(
    _ root: String, feature: Int, decoy: Int, featureSeconds: Float, classes: [String: [UInt8]]
  ) throws {
    let fm = FileManager.default
    for d in ["BDMV/BDJO", "BDMV/JAR/00002", "BDMV/PLAYLIST"] {
      try fm.createDirectory(atPath: root + "/" + d, withIntermediateDirectories: true)
    }
    func write(_ path: String, _ bytes: [UInt8]) throws {
      try Data(bytes).write(to: URL(fileURLWithPath: root + "/" + path))
    }
    let index = BDMVIndex(
      firstPlay: .bdj(name: "00001", playbackType: 2),
      topMenu: .bdj(name: "00001", playbackType: 3),
      titles: [.init(object: .bdj(name: "00001", playbackType: 2))])
    try write("BDMV/index.bdmv", index.serialize())
    try write(
      "BDMV/BDJO/00001.bdjo",
      BDJTestObjects.menuObject(feature: BDMVBuilder.fiveDigits(feature)).serialize())
    var members = classes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    members.append(("com/studio/menu.properties", Array("# menu\nfont=00005\n".utf8)))
    try write("BDMV/JAR/00001.jar", StoredZipWriter.archive(members))
    try write(
      "BDMV/JAR/00009.jar",
      StoredZipWriter.archive([
        ("d.txt", Array("bd://0.PLAYLIST:\(BDMVBuilder.fiveDigits(decoy))".utf8))
      ]))
    try write(
      "BDMV/JAR/00002/bluray_project.bin",
      [1, 2, 3]
        + Self.projectRecord("FPL_MainFeature", playlist: UInt16(feature), seconds: featureSeconds)
        + Self.projectRecord("FPL_MainFeature", playlist: UInt16(decoy), seconds: 5))
  }

  @Test(.enabled(if: Javac.available, "javac is not installed"))
  func namesTheFeatureFromEveryKindOfEvidence() throws {
    let dir = try TemporaryDirectory("disckit-bdj-folder")
    let classes = try Javac.compile(
      className: "Menu", package: "com.studio",
      literals: ["bd://0.PLAYLIST:00658", "bd://0.PLAYLIST:00010", "menu.png"], extra: "",
      in: dir)
    let root = dir.file("disc")
    try Self.writeBDJFolder(root, feature: 658, decoy: 436, featureSeconds: 7668, classes: classes)
    let durations: [Int: MediaTime] = [
      10: MediaTime(seconds: 30), 658: MediaTime(seconds: 7668.4), 436: MediaTime(seconds: 7728),
    ]
    let analysis = BDJAnalysis(
      fileSystem: try FolderFileSystem(root: root), index: nil, playlistDurations: durations)
    #expect(analysis.warnings.isEmpty, "\(analysis.warnings)")
    #expect(analysis.objects["00001"] == BDJTestObjects.menuObject(feature: "00658"))
    let named = Dictionary(
      analysis.namedPlaylists.map { ($0.playlist, $0.evidence) }, uniquingKeysWith: { a, _ in a })
    // The feature: a project record with a matching duration, and a locator in the autostart JAR.
    let feature = try #require(named[658])
    #expect(feature.map(\.trust) == [.projectRecord, .autostartJAR])
    #expect(feature[1].autostart && feature[1].accessible && feature[1].bdjo == ["00001"])
    // Menu.class names the feature and the menu background playlist.
    #expect(feature[1].playlistsNamedBySameSource == 2)
    #expect(feature[0].playlistsNamedBySameSource == 1)
    if case .jar(let path, let member, let className, let mention) = feature[1].source {
      #expect(path == "/BDMV/JAR/00001.jar")
      #expect(member == "com/studio/Menu.class")
      #expect(className == "com/studio/Menu")
      #expect(
        mention == PlaylistMention(playlist: 658, form: .locator, text: "bd://0.PLAYLIST:00658"))
    } else {
      Issue.record("not JAR evidence: \(feature[1])")
    }
    // The decoy: only a JAR nobody loads (its project record's duration does not match).
    #expect(named[436]?.map(\.trust) == [.otherJAR])
    // The menu background: the table's autostart entry and a locator.
    #expect(Set(named[10]?.map(\.trust) ?? []) == [.listed, .autostartJAR])
    #expect(analysis.evidence.first?.playlist == 658)
    // As the selector takes it: the project record first, then BD-J; bare listings left out.
    let forSelector = analysis.titleEvidence()
    #expect(forSelector.first?.kind == .projectFile && forSelector.first?.key == "00658")
    #expect(forSelector.filter { $0.key == "00010" }.map(\.kind) == [.bdj])
    #expect(!forSelector.contains { $0.detail.hasPrefix("listed") })
  }

  @Test func brokenFilesAreWarnings() throws {
    let dir = try TemporaryDirectory("disckit-bdj-broken")
    let root = dir.file("disc")
    try Self.writeBDJFolder(root, feature: 800, decoy: 801, featureSeconds: 100, classes: [:])
    let bad = root + "/BDMV/JAR/00003.jar"
    try Data([0x50, 0x4B, 3, 4, 1, 2, 3]).write(to: URL(fileURLWithPath: bad))
    try Data("BDJO0200".utf8).write(to: URL(fileURLWithPath: root + "/BDMV/BDJO/00002.bdjo"))
    let badClass = StoredZipWriter.archive([
      ("X.class", [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0xFF, 0xFF])
    ])
    try Data(badClass).write(to: URL(fileURLWithPath: root + "/BDMV/JAR/00004.jar"))
    let analysis = BDJAnalysis(
      fileSystem: try FolderFileSystem(root: root), index: nil,
      playlistDurations: [800: MediaTime(seconds: 100), 801: MediaTime(seconds: 1)])
    #expect(analysis.warnings.count == 3, "\(analysis.warnings)")
    #expect(analysis.evidence.first?.playlist == 800)
  }
}
