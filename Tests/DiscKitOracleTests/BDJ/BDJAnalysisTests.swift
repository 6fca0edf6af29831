@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// The BD-J analysis over a disc authored with the BDMV builder: the expected playlist is the one
/// the test put into the BDJO and JAR, and libbluray reads the BDJO the same way. The C-free
/// checks are in DiscKitAuthoringTests' suite of the same name.
@Suite("BD-J evidence", .toolThreads)
struct BDJAnalysisTests {
  /// A permutation flood authored with the BDMV builder (ffmpeg clips), named only by BD-J:
  /// the feature is the playlist the test put into the BDJO and the JAR.
  @Test(
    .enabled(if: BDMVTestClips.available, Comment(rawValue: BDMVTestClips.missing)),
    .enabled(if: Javac.available, "javac is not installed"))
  func floodNamedOnlyByBDJOnABuiltDisc() throws {
    let clips = try BDMVTestClips.get()
    let dir = try TemporaryDirectory("disckit-bdj-flood")
    let sources = [clips.file("a.ts"), clips.file("b.ts"), clips.file("c.m2ts")]
    // Title playlist 00000 plays a, b, c; ten decoys play the same clips in other orders.
    var options = BDMVBuilder.Options(decoys: BDMVBuilder.Decoy.obfuscation(title: 0, count: 10))
    let feature = 0
    let classes = try Javac.compile(
      className: "Menu", package: "com.studio",
      literals: ["bd://0.PLAYLIST:\(BDMVBuilder.fiveDigits(feature))"], extra: "", in: dir)
    let index = BDMVIndex(
      firstPlay: .bdj(name: "00001", playbackType: 2),
      topMenu: .bdj(name: "00001", playbackType: 3),
      titles: [.init(object: .bdj(name: "00001", playbackType: 2))])
    options.extraFiles = [
      "BDMV/index.bdmv": index.serialize(),
      "BDMV/BDJO/00001.bdjo": BDJTestObjects.menuObject(feature: BDMVBuilder.fiveDigits(feature))
        .serialize(),
      "BDMV/JAR/00001.jar": StoredZipWriter.archive(classes.map { ($0.key, $0.value) }),
    ]
    let builder = try BDMVBuilder(clips: sources, titles: [.init(clips: sources)], options: options)
    let result = try builder.writeFolder(to: dir.file("folder"))
    #expect(result.titlePlaylists == [feature])
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: dir.file("folder")))
    #expect(disc.playlists.count == 11)
    let analysis = disc.namedEvidence()
    #expect(analysis.warnings.isEmpty, "\(analysis.warnings)")
    #expect(analysis.evidence.first?.playlist == feature)
    #expect(analysis.evidence.first?.trust == .autostartJAR)
    #expect(analysis.evidence.first?.titles == [0, 1, 65535])
    // libbluray reads the BDJO the builder wrote into the disc the same way.
    let path = dir.file("folder") + "/BDMV/BDJO/00001.bdjo"
    let reference = try #require(Reference.readBDJO(path: path))
    #expect(Reference.libblurayView(of: try #require(analysis.objects["00001"])) == reference)
    // The title list takes the BD-J evidence first: the disc names its feature. Without it the
    // same playlist wins by the length rules, and the result says only that.
    let list = try Disc.open(path: dir.file("folder")).titleList()
    #expect(list.mainKey == BDMVBuilder.fiveDigits(feature))
    #expect(list.confidence == .named, "\(list.reason)")
    #expect(list.evidence.contains { $0.kind == .bdj && $0.key == BDMVBuilder.fiveDigits(feature) })
    let unnamed = disc.smartSelection(named: [])
    #expect(unnamed.main == list.mainKey.map { $0 + ".mpls" })
    #expect(unnamed.confidence == .heuristic, "\(unnamed.reason)")
  }
}
