@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// DVD titles against libdvdread (structure and bytes).
@Suite(.toolThreads)
struct DVDTitleReferenceTests {
  static var haveGenerated: Bool {
    FileManager.default.fileExists(atPath: Fixtures.generated("dvd-ntsc"))
  }

  /// Whether the generated ISO is there (the test then needs the readers to open it: a reader
  /// regression fails the test instead of disabling it).
  static var haveImage: Bool {
    FileManager.default.fileExists(atPath: Fixtures.generated("dvd-ntsc.iso"))
  }

  /// Compares every title's structure with libdvdread and its bytes with DVDReadBlocks over the same cells.
  static func compareWithLibdvdread(_ disc: DVDDisc, path: String) throws {
    let reference = try Reference.DVDReader(path: path)
    let theirs = try reference.titles()
    #expect(theirs.count == disc.titles.count)
    for (index, result) in disc.titles.enumerated() {
      let title = try result.get()
      let ref = try #require(theirs[index])
      #expect(title.titleSet == ref.titleSet && title.titleInSet == ref.titleInSet)
      #expect(title.angleCount == ref.angles && title.declaredChapterCount == ref.chapters)
      let pgc = title.firstProgramChain
      #expect(pgc.programMap?.map(Int.init) == ref.programMap)
      #expect(
        pgc.cellPlayback?.map {
          [Int($0.firstSector), Int($0.lastSector), $0.blockMode, $0.blockType]
        }
          == ref.cells.map {
            [Int($0.firstSector), Int($0.lastSector), $0.blockMode, $0.blockType]
          })
      let t = pgc.playbackTime
      #expect([t.hour, t.minute, t.second, t.frameByte] == ref.playbackTime)
      // Bytes: DiscKit's title source vs DVDReadBlocks over the same cells.
      let source = try disc.byteSource(title: title.number)
      let cells = title.cells(angle: 1)
      let expected = try reference.readTitleVOBs(
        titleSet: title.titleSet,
        ranges: cells.map { ($0.playback.firstSector, $0.playback.lastSector) })
      #expect(source.size == Int64(expected.count))
      #expect(source.size == title.sizeBytes)
      for chunk in [2048, 65536 + 7, 1 << 20] {
        var got: [UInt8] = []
        var offset: Int64 = 0
        while offset < source.size {
          let n = Int(min(Int64(chunk), source.size - offset))
          got += try source.bytes(at: offset, count: n)
          offset += Int64(n)
        }
        #expect(got == expected, "title \(title.number) read in \(chunk)-byte chunks")
      }
      // The stream starts with an MPEG-2 pack header.
      #expect(expected.prefix(4) == [0, 0, 1, 0xBA])
    }
  }

  @Test(
    .enabled(if: haveGenerated, "run TestImages/scripts/make-all.sh"),
    arguments: ["dvd-ntsc", "dvd-pal"])
  func folderAgainstLibdvdread(_ name: String) throws {
    let path = Fixtures.generated(name)
    try Self.compareWithLibdvdread(
      try DVDDisc(fileSystem: try FolderFileSystem(root: path)), path: path)
  }

  @Test(
    .enabled(if: haveImage, "run TestImages/scripts/make-all.sh"),
    arguments: ["dvd-ntsc.iso", "dvd-pal.iso"])
  func imageAgainstLibdvdread(_ name: String) throws {
    let path = Fixtures.generated(name)
    let disc = try DVDDisc.open(path: path)
    try Self.compareWithLibdvdread(disc, path: path)
    // The image and the folder it was made from give the same title bytes.
    let folder = try DVDDisc(
      fileSystem: try FolderFileSystem(root: Fixtures.generated(String(name.dropLast(4)))))
    for n in 1...disc.titles.count {
      let a = try disc.byteSource(title: n)
      let b = try folder.byteSource(title: n)
      #expect(try a.bytes(at: 0, count: Int(a.size)) == b.bytes(at: 0, count: Int(b.size)))
    }
  }
}
