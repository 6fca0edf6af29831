@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// An angle block made by marking cells 1-2 of the generated disc's title 1 as a two-angle block.
@Suite(.toolThreads) struct DVDAngleTests {
  static var haveGenerated: Bool {
    FileManager.default.fileExists(atPath: Fixtures.generated("dvd-ntsc"))
  }

  @Test(.enabled(if: haveGenerated, "run TestImages/scripts/make-all.sh"))
  func twoAngleBlock() throws {
    let dir = try TemporaryDirectory("dvd-angles")
    try FileManager.default.copyItem(
      atPath: Fixtures.generated("dvd-ntsc") + "/VIDEO_TS", toPath: dir.path + "/VIDEO_TS")
    let original = try DVDDisc(fileSystem: try FolderFileSystem(root: dir.path))
    let cells = try #require(try original.title(1).firstProgramChain.cellPlayback)
    for name in ["VTS_01_0.IFO", "VTS_01_0.BUP"] {
      let path = dir.path + "/VIDEO_TS/" + name
      var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      bytes[Int(cells[0].offset)] = (bytes[Int(cells[0].offset)] & 0x0f) | 0x50  // first cell, angle block
      bytes[Int(cells[1].offset)] = (bytes[Int(cells[1].offset)] & 0x0f) | 0xD0  // last cell, angle block
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
    for name in ["VIDEO_TS.IFO", "VIDEO_TS.BUP"] {
      let path = dir.path + "/VIDEO_TS/" + name
      var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      let entry = try #require(try DVDVideoManagerInfo(bytes: bytes).titles.titles.first)
      bytes[Int(entry.offset) + 1] = 2  // two angles
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
    let disc = try DVDDisc(fileSystem: try FolderFileSystem(root: dir.path))
    let title = try disc.title(1)
    #expect(title.angleCount == 2)
    #expect(title.cells(angle: 1).map(\.cell) == [1, 3])
    #expect(title.cells(angle: 2).map(\.cell) == [2, 3])
    #expect(title.duration90k == cells[0].playbackTime.ticks90k + cells[2].playbackTime.ticks90k)
    #expect(throws: DiscKitError.self) { try disc.byteSource(title: 1, angle: 3) }
    let reference = try Reference.DVDReader(path: dir.path)
    for angle in 1...2 {
      let chosen = title.cells(angle: angle)
      let expected = try reference.readTitleVOBs(
        titleSet: 1, ranges: chosen.map { ($0.playback.firstSector, $0.playback.lastSector) })
      let source = try disc.byteSource(title: 1, angle: angle)
      #expect(try source.bytes(at: 0, count: Int(source.size)) == expected, "angle \(angle)")
    }
    if Tool.has("lsdvd") { try LsdvdOracle.compare(dir.path) }
  }
}
