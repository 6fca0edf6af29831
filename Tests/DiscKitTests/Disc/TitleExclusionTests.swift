@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Exclusion reasons as the library reports them on the generated DVDs. (The Blu-ray reasons,
/// against libbluray's title list, are in DiscKitOracleTests' suite of the same name.)
@Suite("Title exclusions and warnings", .toolThreads)
struct TitleExclusionTests {
  /// The DVD reasons the generated discs can produce, typed, with their summary categories.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: Fixtures.generated("dvd-ntsc.iso")),
      "run TestImages/scripts/make-all.sh"))
  func dvdReasonsOnGeneratedDiscs() throws {
    let disc = try Disc.open(path: Fixtures.generated("dvd-ntsc.iso"))
    guard case .dvd(let dvd) = disc.navigation else {
      Issue.record("dvd-ntsc is not a DVD")
      return
    }
    let list = try disc.titleList(selection: .lsdvd, includeExcluded: true)
    let lsdvd = LsdvdTitleSelector.report(dvd)
    let listed = Set(lsdvd.tracks.map(\.number))
    for entry in list.entries {
      let number = try #require(Int(entry.key))
      #expect((entry.excluded == .skippedByLsdvd) == !listed.contains(number))
    }
    let smart = DVDSmartTitleSelector.select(dvd)
    for (number, why) in smart.setAside {
      #expect(!why.description.isEmpty && !why.category.isEmpty, "title \(number)")
    }
  }
}
