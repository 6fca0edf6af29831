@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// `--select lsdvd` parity: DiscKit's lsdvd report equals `lsdvd -x -Ox` on the same folder.
@Suite(.toolThreads) struct LsdvdParityTests {
  @Test(
    .enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)),
    .enabled(if: Tool.has("lsdvd"), "lsdvd missing"))
  func idiocracy() throws {
    try LsdvdOracle.compare(Fixtures.real("dvd/dvdread_idiocracy"))
  }

  @Test(
    .enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)),
    .enabled(if: Tool.has("lsdvd"), "lsdvd missing"),
    arguments: [
      "dvd/chaptertool_ifo/VTS_05_0.IFO", "dvd/chaptertool_ifo/VTS_33_0.IFO",
      "dvd/tchapter_VTS_05_0.IFO",
    ])
  func standaloneTitleSet(_ relative: String) throws {
    // A lone VTS IFO has no video manager: the test writes one listing every title of the set,
    // so that lsdvd (through libdvdread) and DiscKit read the same disc.
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.real(relative))))
    let vts = try DVDTitleSetInfo(bytes: bytes)
    let dir = try TemporaryDirectory("dvd-standalone")
    try DVDTestDisc.writeFolder(
      at: dir.path, titleSets: [bytes], titlesPerSet: [vts.partsOfTitles.titles.count])
    try LsdvdOracle.compare(dir.path)
  }

  @Test(.enabled(if: Tool.has("lsdvd"), "lsdvd missing"), arguments: ["dvd-ntsc", "dvd-pal"])
  func generated(_ name: String) throws {
    try #require(
      FileManager.default.fileExists(atPath: Fixtures.generated(name)),
      "run TestImages/scripts/make-all.sh")
    try LsdvdOracle.compare(Fixtures.generated(name))
  }
}
