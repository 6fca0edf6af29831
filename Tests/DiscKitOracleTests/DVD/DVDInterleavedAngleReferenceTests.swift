@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// The interleaved two- and three-angle DVD against libdvdread (navigation packs) and libdvdnav
/// (the blocks each angle plays).
@Suite(.serialized, .toolThreads)
struct DVDInterleavedAngleReferenceTests {
  static var enabled: Bool { InterleavedAngleDisc.toolsAvailable }

  static func disc() throws -> InterleavedAngleDisc { try InterleavedAngleDisc.shared.get() }

  @Test(.enabled(if: enabled, "needs ffmpeg and dvdauthor"))
  func navigationPacksMatchLibdvdread() throws {
    let disc = try Self.disc()
    let vob = try [UInt8](Data(contentsOf: URL(fileURLWithPath: disc.vobPath)))
    let sectors = InterleavedAngleDisc.navSectors(vob)
    let vobus = disc.ilvus.flatMap { $0.flatMap(\.vobuStarts) }
    #expect(sectors.count > vobus.count)
    #expect(Set(vobus).isSubset(of: Set(sectors)))
    for s in sectors {
      let bytes = Array(vob[(s * 2048)..<((s + 1) * 2048)])
      let ours = try DVDNavigationPack(sector: bytes, at: Int64(s) * 2048)
      let theirs = try #require(Reference.DVDNav.navPack(sector: bytes))
      #expect(ours.pciStart == DVDNavigationPack.standardPCIOffset)
      #expect(ours.dsiStart == DVDNavigationPack.standardDSIOffset)
      #expect(ours.pciLogicalBlock == theirs.pciLogicalBlock)
      #expect(ours.vobuStartPTM == theirs.vobuStartPTM)
      #expect(ours.vobuEndPTM == theirs.vobuEndPTM)
      #expect(ours.nonSeamlessAngleDestinations == theirs.nonSeamlessAngleDestinations)
      #expect(ours.systemClockReference == theirs.systemClockReference)
      #expect(ours.logicalBlock == theirs.logicalBlock)
      #expect(ours.logicalBlock == UInt32(s))
      #expect(ours.vobuEndAddress == theirs.vobuEndAddress)
      #expect(ours.vobID == theirs.vobID)
      #expect(ours.cellID == theirs.cellID)
      let t = ours.cellElapsedTime
      #expect([t.hour, t.minute, t.second, t.frameByte] == theirs.cellElapsedTime)
      #expect(ours.seamlessCategory == theirs.seamlessCategory)
      #expect(ours.ilvuEndAddress == theirs.ilvuEndAddress)
      #expect(ours.nextILVUStartAddress == theirs.nextILVUStartAddress)
      #expect(ours.nextILVUSize == theirs.nextILVUSize)
      #expect(ours.seamlessAngles.map(\.address) == theirs.seamlessAngleAddresses)
      #expect(ours.seamlessAngles.map(\.size) == theirs.seamlessAngleSizes)
      #expect(ours.nextVideo == theirs.nextVideo)
      #expect(ours.nextVOBU == theirs.nextVOBU)
      #expect(ours.previousVOBU == theirs.previousVOBU)
      #expect(ours.previousVideo == theirs.previousVideo)
    }
  }

  @Test(.enabled(if: enabled, "needs ffmpeg and dvdauthor"))
  func eachAngleMatchesLibdvdnav() throws {
    let disc = try Self.disc()
    let dvd = try DVDDisc(fileSystem: try FolderFileSystem(root: disc.path))
    let title = try dvd.title(1)
    #expect(title.angleCount == disc.angleCount)
    var sizes: Set<Int64> = []
    for angle in 1...disc.angleCount {
      let cells = title.cells(angle: angle)
      #expect(cells.map(\.cell) == [1, 1 + angle, disc.angleCount + 2])
      #expect(cells[1].isInterleavedAngleCell && cells[1].angle == angle)
      let source = try dvd.byteSource(title: 1, angle: angle)
      let ours = try source.bytes(at: 0, count: Int(source.size))
      let played = try Reference.DVDNav.play(path: disc.path, title: 1, angle: Int32(angle))
      #expect(played.ending != "block limit")
      #expect(played.cells == [1, 1 + angle, disc.angleCount + 2], "cells libdvdnav played")
      #expect(played.bytes.count == ours.count, "angle \(angle)")
      #expect(played.bytes == ours, "angle \(angle)")
      // The angle's ILVUs and nothing else in the block.
      let units = disc.ilvus[angle - 1]
      let expected =
        disc.intro.count + units.reduce(0) { $0 + $1.sectorCount } + disc.outro.count
      #expect(source.size == Int64(expected) * 2048)
      #expect(
        source.cellStarts == [
          0, Int64(disc.intro.count) * 2048, source.size - Int64(disc.outro.count) * 2048,
        ])
      sizes.insert(source.size)
    }
    #expect(sizes.count == disc.angleCount)
  }
}
