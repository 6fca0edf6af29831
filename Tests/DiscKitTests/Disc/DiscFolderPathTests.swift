@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// A path to the disc's own `BDMV` or `VIDEO_TS` folder opens the disc holding it (as lsdvd,
/// libdvdread and VLC accept it), in any case.
@Suite("A BDMV or VIDEO_TS folder opens its disc", .toolThreads)
struct DiscFolderPathTests {
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
  static let hasSample = FileManager.default.fileExists(atPath: sample)

  /// Copies every file of the sample disc into `folder` (the test's own disc folder).
  static func copySample(to folder: URL) throws {
    let image = try DiscImage.open(path: sample)
    for entry in try image.fileSystem.recursiveContents() where !entry.isDirectory {
      let target = folder.appendingPathComponent(String(entry.path.dropFirst()))
      try FileManager.default.createDirectory(
        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(try image.fileSystem.readFile(atPath: entry.path)).write(to: target)
    }
  }

  static func keys(_ disc: Disc) throws -> [String] {
    try disc.titleList().entries.map(\.key)
  }

  @Test(.enabled(if: hasSample, "TestImages/sample-bluray.iso is missing"))
  func bdmvFolderOpensItsDisc() throws {
    let directory = try TemporaryDirectory()
    let root = directory.url.appendingPathComponent("Movie")
    try Self.copySample(to: root)
    let whole = try Disc.open(path: root.path)
    #expect(whole.kind == .bluray)
    for path in [root.path + "/BDMV", root.path + "/BDMV/"] {
      let disc = try Disc.open(path: path)
      #expect(disc.kind == .bluray)
      #expect(disc.image.path == path)
      #expect(disc.label == "Movie")
      #expect(try Self.keys(disc) == Self.keys(whole))
    }
    // Any case.
    try FileManager.default.moveItem(
      atPath: root.path + "/BDMV", toPath: root.path + "/bdmv")
    let lower = try Disc.open(path: root.path + "/bdmv")
    #expect(lower.kind == .bluray)
    #expect(try Self.keys(lower) == Self.keys(whole))
  }

  @Test func videoTSFolderOpensItsDisc() throws {
    for name in ["VIDEO_TS", "video_ts", "Video_TS"] {
      let directory = try TemporaryDirectory()
      let folder = directory.url.appendingPathComponent("Film/" + name)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(DVDTestDisc.videoManager(titles: [], titleSetCount: 0)).write(
        to: folder.appendingPathComponent("VIDEO_TS.IFO"))
      let whole = try Disc.open(path: folder.deletingLastPathComponent().path)
      #expect(whole.kind == .dvd)
      let disc = try Disc.open(path: folder.path)
      #expect(disc.kind == .dvd, "\(name)")
      #expect(disc.label == "Film")
      guard case .dvd(let dvd) = disc.navigation, case .dvd(let expected) = whole.navigation else {
        Issue.record("not opened as a DVD")
        continue
      }
      #expect(dvd.titles.count == expected.titles.count)
    }
  }

  @Test func otherFoldersAreNotReRooted() throws {
    let directory = try TemporaryDirectory()
    // A folder named BDMV that holds a disc tree itself stays the disc.
    let outer = directory.url.appendingPathComponent("BDMV/VIDEO_TS")
    try FileManager.default.createDirectory(at: outer, withIntermediateDirectories: true)
    try Data(DVDTestDisc.videoManager(titles: [], titleSetCount: 0)).write(
      to: outer.appendingPathComponent("VIDEO_TS.IFO"))
    let disc = try Disc.open(path: directory.url.appendingPathComponent("BDMV").path)
    #expect(disc.kind == .dvd)
    #expect(disc.label == "BDMV")
    // A folder of another name holding no disc is not a disc.
    let plain = directory.url.appendingPathComponent("STREAM")
    try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
    let error = #expect(throws: DiscKitError.self) { try Disc.open(path: plain.path) }
    #expect(error?.code == .unsupported)
  }
}
