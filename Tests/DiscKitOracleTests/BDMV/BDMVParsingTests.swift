@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Every real playlist and clip information file parses exactly when libbluray parses it. The
/// index and movie object files (no libbluray comparison) are in DiscKitTests' suite of the same
/// name.
@Suite("BDMV parsing on real discs", .toolThreads)
struct BDMVParsingTests {
  static func files(withExtensions exts: [String]) -> [String] {
    Fixtures.realFiles(under: "bluray", withSuffixes: exts)
  }

  @Test(needsRealData)
  func everyPlaylistParsesLikeLibbluray() throws {
    let paths = Self.files(withExtensions: [".mpls"])
    #expect(paths.count > 200)
    for path in paths {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      let ours = Result { () throws(DiscKitError) in try MoviePlaylist(bytes: bytes, name: path) }
      let theirs = Reference.Bluray.parsesPlaylist(atPath: path)
      switch ours {
      case .success(let pl):
        #expect(theirs, "\(path): DiscKit parses it, libbluray does not")
        // Round trip through the serializer keeps the main path and marks.
        let again = try MoviePlaylist(bytes: pl.serialize())
        #expect(again.playItems.map(\.clips) == pl.playItems.map(\.clips), "\(path)")
        #expect(again.playItems.map(\.streams) == pl.playItems.map(\.streams), "\(path)")
        #expect(again.marks == pl.marks, "\(path)")
      case .failure(let error):
        // libbluray reads past the end of a file as zeros, so it "parses" garbage (a text file
        // named .mpls) into an empty playlist; DiscKit rejects it with a typed error instead.
        let items = try Self.libblurayClipCount(playlistAt: path)
        #expect(items == 0, "\(path): libbluray parses it, DiscKit says \(error)")
      }
    }
  }

  /// The clips libbluray finds in a lone playlist (via a temporary BDMV folder holding it).
  static func libblurayClipCount(playlistAt path: String) throws -> Int {
    let dir = try TemporaryDirectory()
    let playlists = dir.url.appendingPathComponent("BDMV/PLAYLIST")
    try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: path, toPath: playlists.appendingPathComponent("00001.mpls").path)
    guard let bd = try? Reference.Bluray(path: dir.path), bd.titleCount(flags: 0) > 0 else {
      return 0
    }
    return bd.titleInfo(0)?.clips.count ?? 0
  }

  @Test(needsRealData)
  func everyClipInformationParsesLikeLibbluray() throws {
    let paths = Self.files(withExtensions: [".clpi"])
    #expect(paths.count > 400)
    for path in paths {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      let theirs = Reference.Bluray.clipInformation(atPath: path)
      do {
        let info = try ClipInformation(bytes: bytes, name: path)
        let ref = try #require(theirs, "\(path): libbluray cannot parse it")
        #expect(info.sourcePacketCount == ref.packets, "\(path)")
        #expect((info.epMap?.streams.first?.coarse.count ?? 0) == ref.coarse, "\(path)")
        #expect((info.epMap?.streams.first?.fine.count ?? 0) == ref.fine, "\(path)")
        let again = try ClipInformation(bytes: info.serialize())
        #expect(again.epMap == info.epMap && again.sequence == info.sequence, "\(path)")
        #expect(again.sourcePacketCount == info.sourcePacketCount, "\(path)")
      } catch {
        #expect(theirs == nil, "\(path): libbluray parses it, DiscKit says \(error)")
      }
    }
  }
}
