import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// `disckit` accepts a path to the disc's own `BDMV` or `VIDEO_TS` folder as its disc, in any
/// case, and lists the same titles as for the disc's folder.
@Suite("disckit on a BDMV or VIDEO_TS folder", .toolThreads)
struct DiscFolderPathCLITests {
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
  static let dvdFolder = Fixtures.generated("dvd-pal")
  static let haveBluray =
    EndToEndTests.haveBinary && FileManager.default.fileExists(atPath: sample)
  static let haveDVD =
    EndToEndTests.haveBinary
    && FileManager.default.fileExists(atPath: dvdFolder + "/VIDEO_TS/VIDEO_TS.IFO")

  static func titles(_ path: String) throws -> [[String: Any]] {
    let run = try EndToEndTests.disckit(["titles", path, "--json"])
    #expect(run.status == 0, "disckit titles \(path): \(run.stderr)")
    let document = try EndToEndTests.json(run)
    return try #require(document["titles"] as? [[String: Any]])
  }

  static func keys(_ titles: [[String: Any]]) -> [String] {
    titles.compactMap { $0["key"] as? String }
  }

  @Test(.enabled(if: haveBluray, "needs the built disckit and TestImages/sample-bluray.iso"))
  func bdmvFolder() throws {
    let directory = try TemporaryDirectory()
    let root = directory.url.appendingPathComponent("Movie")
    let image = try DiscImage.open(path: Self.sample)
    for entry in try image.fileSystem.recursiveContents() where !entry.isDirectory {
      let target = root.appendingPathComponent(String(entry.path.dropFirst()))
      try FileManager.default.createDirectory(
        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(try image.fileSystem.readFile(atPath: entry.path)).write(to: target)
    }
    let expected = Self.keys(try Self.titles(root.path))
    #expect(!expected.isEmpty)
    #expect(Self.keys(try Self.titles(root.path + "/BDMV")) == expected)
    try FileManager.default.moveItem(atPath: root.path + "/BDMV", toPath: root.path + "/bdmv")
    #expect(Self.keys(try Self.titles(root.path + "/bdmv/")) == expected)
    let info = try EndToEndTests.disckit(["info", root.path + "/bdmv", "--json"])
    #expect(info.status == 0)
    #expect(try EndToEndTests.json(info)["discKind"] as? String == "bluray")
  }

  @Test(.enabled(if: haveDVD, "needs the built disckit and TestImages/scripts/make-all.sh output"))
  func videoTSFolder() throws {
    let expected = Self.keys(try Self.titles(Self.dvdFolder))
    #expect(!expected.isEmpty)
    #expect(Self.keys(try Self.titles(Self.dvdFolder + "/VIDEO_TS")) == expected)
    // Lower case, through a link named video_ts in a disc folder of the test's own.
    let directory = try TemporaryDirectory()
    let disc = directory.url.appendingPathComponent("Film")
    try FileManager.default.createDirectory(at: disc, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: disc.path + "/video_ts", withDestinationPath: Self.dvdFolder + "/VIDEO_TS")
    #expect(Self.keys(try Self.titles(disc.path + "/video_ts")) == expected)
  }
}
