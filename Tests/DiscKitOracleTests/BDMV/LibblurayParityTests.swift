@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// `--select libbluray` against libbluray itself, disc by disc.
@Suite("libbluray title-list parity", .toolThreads)
struct LibblurayParityTests {
  static var discs: [String] {
    guard let root = Fixtures.realData?.appendingPathComponent("bluray"),
      let names = try? FileManager.default.contentsOfDirectory(atPath: root.path)
    else { return [] }
    return names.sorted().map { root.appendingPathComponent($0).path }.filter {
      FileManager.default.fileExists(atPath: $0 + "/BDMV/PLAYLIST")
    }
  }

  /// libbluray's enumeration order, read from libbluray itself (TITLES_ALL lists every parsable
  /// playlist in readdir order, which a sorted folder listing cannot reproduce).
  static func libblurayOrder(_ bd: Reference.Bluray, disc: BlurayDisc) -> [String] {
    let count = bd.titleCount(flags: 0)
    var used = Set<String>()
    var order: [String] = []
    for i in 0..<count {
      guard let info = bd.titleInfo(i) else { continue }
      if let file = disc.playlists.first(where: {
        $0.number == Int(info.playlist) && !used.contains($0.name)
      }) {
        used.insert(file.name)
        order.append(file.name)
      }
    }
    return order
  }

  @Test(needsRealData, arguments: [UInt8(0), UInt8(3), UInt8(1), UInt8(2)])
  func titleListsMatch(flags: UInt8) throws {
    #expect(Self.discs.count >= 25)
    for path in Self.discs {
      let bd = try Reference.Bluray(path: path)
      let unordered = try BlurayDisc(fileSystem: try FolderFileSystem(root: path))
      let disc = try BlurayDisc(
        fileSystem: try FolderFileSystem(root: path),
        playlistOrder: Self.libblurayOrder(bd, disc: unordered))
      let result = LibblurayTitleSelector.select(
        disc.playlists.map { ($0.name, $0.playlist) },
        flags: LibblurayTitleSelector.Flags(rawValue: flags))
      let count = bd.titleCount(flags: flags)
      #expect(result.titles.count == count, "\(path) flags \(flags)")
      guard result.titles.count == count else { continue }
      if count > 0 {
        #expect(result.mainTitle == bd.mainTitle, "\(path) flags \(flags): main title")
      }
      for (i, name) in result.titles.enumerated() {
        let info = try #require(bd.titleInfo(i))
        let title = try disc.title(playlist: name)
        #expect(Int(info.playlist) == BlurayDisc.atoiForTests(name), "\(path) title \(i)")
        compare(title, info, "\(path) \(name)")
      }
    }
  }

  func compare(_ title: BlurayTitle, _ info: Reference.Bluray.TitleInfo, _ label: String) {
    #expect(title.duration90k == info.duration90k, "\(label): duration")
    #expect(title.angleCount == info.angleCount, "\(label): angles")
    #expect(title.chapters.count == info.chapters.count, "\(label): chapters")
    #expect(title.clips.count == info.clips.count, "\(label): clips")
    for (ours, theirs) in zip(title.clips, info.clips) {
      #expect(ours.clipID == theirs.clipID, "\(label)")
      #expect(UInt64(ours.inTime) * 2 == theirs.inTime90k, "\(label) clip \(ours.index) in")
      #expect(UInt64(ours.outTime) * 2 == theirs.outTime90k, "\(label) clip \(ours.index) out")
      #expect(
        UInt64(ours.titleTime) * 2 == theirs.startTime90k, "\(label) clip \(ours.index) start")
      // Clip information is present on these discs (only the .m2ts are absent): packet counts
      // come from the EP maps.
      #expect(ours.packetCount == theirs.packetCount, "\(label) clip \(ours.index) packets")
      let stn = title.playlist.playItems[ours.index].streams
      #expect(stn.video.count == theirs.videoCount, "\(label)")
      #expect(stn.audio.count == theirs.audioCount, "\(label)")
      #expect(stn.presentationGraphics.count == theirs.pgCount, "\(label)")
      #expect(stn.interactiveGraphics.count == theirs.igCount, "\(label)")
      #expect(stn.secondaryAudio.count == theirs.secondaryAudioCount, "\(label)")
      #expect(stn.secondaryVideo.count == theirs.secondaryVideoCount, "\(label)")
    }
    for (ours, theirs) in zip(title.chapters, info.chapters) {
      #expect(UInt64(ours.titleTime) * 2 == theirs.start90k, "\(label) chapter \(ours.index) start")
      #expect(
        UInt64(ours.duration) * 2 == theirs.duration90k, "\(label) chapter \(ours.index) duration")
      #expect(UInt64(ours.offset) == theirs.offset, "\(label) chapter \(ours.index) offset")
    }
  }

  @Test(needsRealData)
  func titleSizesMatchWithoutStreams() throws {
    // Without .m2ts files libbluray still computes the title size from the EP maps.
    for path in Self.discs {
      let bd = try Reference.Bluray(path: path)
      let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: path))
      for file in disc.playlists where file.playlist != nil {
        guard bd.selectPlaylist(file.number) else { continue }
        let title = try disc.title(playlist: file.name)
        #expect(UInt64(title.size) == bd.titleSize, "\(path) \(file.name)")
      }
    }
  }
}

extension BlurayDisc {
  static func atoiForTests(_ name: String) -> Int { Int(name.prefix(while: \.isNumber)) ?? 0 }
}
