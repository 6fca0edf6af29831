@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// DiscKit's HDMV machine against libbluray's VM on the real disc metadata trees
/// (../shared/realdata/bluray): no stream files there, so libbluray reports each playlist it
/// starts (BD_EVENT_PLAYLIST), cannot open its clip, skips it and runs on: the playlists it
/// reaches from First Play and from each index title (`bd_play_title`) are its VM's.
@Suite("HDMV machine against libbluray on real discs", .enabled(if: Fixtures.hasRealData), .toolThreads)
struct HDMVReferenceTests {
  /// Trees with index.bdmv and MovieObject.bdmv.
  static let trees: [String] = {
    guard let root = Fixtures.realData?.appendingPathComponent("bluray") else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return names.sorted().filter {
      FileManager.default.fileExists(
        atPath: root.appendingPathComponent("\($0)/BDMV/MovieObject.bdmv").path)
        && FileManager.default.fileExists(
          atPath: root.appendingPathComponent("\($0)/BDMV/index.bdmv").path)
    }.map { root.appendingPathComponent($0).path }
  }()

  /// The playlists libbluray can start: its playlist file and clip information parse.
  static func startable(_ disc: BlurayDisc, _ number: Int) -> Bool {
    guard let playlist = disc.playlistFile(number: number)?.playlist else { return false }
    return playlist.playItems.allSatisfy { disc.clipInformation($0.clip.clipID) != nil }
  }

  static func libbluray(_ path: String, title: Int?) throws -> [Int] {
    let bd = try Reference.Bluray(path: path)
    var seen = Set<Int>()
    return bd.navigationEvents(title: title).compactMap {
      if case .playlist(let n) = $0, seen.insert(n).inserted { return n }
      return nil
    }
  }

  @Test(
    "First Play and every HDMV title reach the playlists libbluray's VM reaches", arguments: trees)
  func sameReach(_ path: String) throws {
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: path))
    var machine = try #require(disc.hdmvMachine)
    machine.libblurayResume = true
    let index = try #require(disc.index)
    let first = machine.run(.firstPlay).playlists.filter { Self.startable(disc, $0) }
    let theirs = try Self.libbluray(path, title: nil)
    #expect(theirs == first, "first play")
    for (k, title) in index.titles.enumerated() where title.object.movieObject != nil {
      let mine = machine.run(.title(k + 1)).playlists.filter { Self.startable(disc, $0) }
      let theirs = try Self.libbluray(path, title: k + 1)
      #expect(theirs == mine, "title \(k + 1)")
    }
  }

  /// With the machine's navigation evidence, the smart selection still agrees with libbluray's
  /// main title on every real disc with an index (their main features are what their titles
  /// play), and says the navigation decided.
  @Test("the evidence-first selection agrees with libbluray's main title", arguments: trees)
  func mainTitle(_ path: String) throws {
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: path))
    let result = disc.smartSelection()
    let bd = try Reference.Bluray(path: path)
    let n = bd.titleCount(flags: 3)
    let info = try #require(n > 0 ? bd.titleInfo(bd.mainTitle) : nil)
    #expect(result.main == String(format: "%05d.mpls", info.playlist), "\(result.reason)")
    #expect(result.confidence == .navigation)
  }
}
