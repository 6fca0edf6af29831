@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// `Disc.open(path:limits:)` applies its limits to the navigation files too, not only to the file
/// system: a navigation file over `maxMetadataFileBytes` is a typed `limitExceeded` error.
@Suite("Parsing limits reach the navigation parsers", .toolThreads)
struct DiscLimitsTests {
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
  static let hasSample = FileManager.default.fileExists(atPath: sample)

  /// The limits with every metadata file capped at `bytes`.
  static func limits(maxMetadataFileBytes bytes: Int) -> ParsingLimits {
    var limits = ParsingLimits()
    limits.maxMetadataFileBytes = bytes
    return limits
  }

  /// A BDMV folder holding the sample disc's `00000.mpls` (a valid playlist) and nothing else.
  static func playlistFolder(_ directory: TemporaryDirectory) throws -> (path: String, size: Int) {
    let image = try DiscImage.open(path: sample)
    let bytes = try image.fileSystem.readFile(atPath: "/BDMV/PLAYLIST/00000.mpls")
    let folder = directory.url.appendingPathComponent("BDMV/PLAYLIST")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(bytes).write(to: folder.appendingPathComponent("00000.mpls"))
    return (directory.path, bytes.count)
  }

  @Test(.enabled(if: hasSample, "TestImages/sample-bluray.iso is missing"))
  func blurayPlaylistOverTheLimitIsATypedError() throws {
    let directory = try TemporaryDirectory()
    let (path, size) = try Self.playlistFolder(directory)
    // The playlist the test wrote parses under the default limits (the file itself is valid) ...
    let open = try Disc.open(path: path)
    guard case .bluray(let bluray) = open.navigation else {
      Issue.record("a BDMV folder opened as \(open.kind)")
      return
    }
    #expect(bluray.playlists.first?.playlist != nil)
    // ... and is refused, with the typed error, one byte under its size.
    let tight = try Disc.open(path: path, limits: Self.limits(maxMetadataFileBytes: size - 1))
    guard case .bluray(let limited) = tight.navigation else {
      Issue.record("a BDMV folder opened as \(tight.kind)")
      return
    }
    #expect(limited.playlists.first?.error?.code == .limitExceeded)
    let error = #expect(throws: DiscKitError.self) { try tight.title(key: "00000") }
    #expect(error?.code == .limitExceeded)
    #expect(error?.structure.hasSuffix("00000.mpls") == true)
  }

  @Test func dvdVideoManagerOverTheLimitIsATypedError() throws {
    let directory = try TemporaryDirectory()
    let folder = directory.url.appendingPathComponent("VIDEO_TS")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(count: 8192).write(to: folder.appendingPathComponent("VIDEO_TS.IFO"))
    // Under the default limits the zero-filled IFO is read and refused by the IFO parser ...
    let parsed = #expect(throws: DiscKitError.self) { try Disc.open(path: directory.path) }
    #expect(parsed?.code != .limitExceeded)
    // ... under a limit below its size it is never read: the limit's typed error.
    let limited = #expect(throws: DiscKitError.self) {
      try Disc.open(path: directory.path, limits: Self.limits(maxMetadataFileBytes: 4096))
    }
    #expect(limited?.code == .limitExceeded)
    #expect(limited?.structure.hasSuffix("VIDEO_TS.IFO") == true)
  }

  @Test(.enabled(if: hasSample, "TestImages/sample-bluray.iso is missing"))
  func imageKeepsItsLimits() throws {
    let limits = Self.limits(maxMetadataFileBytes: 1 << 20)
    let image = try DiscImage.open(path: Self.sample, limits: limits)
    #expect(image.limits == limits)
    #expect(try Disc(image: image).image.limits == limits)
  }
}
