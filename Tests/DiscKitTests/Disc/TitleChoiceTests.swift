@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// `--title N` and `--main` resolved by the library (``TitleChoice``) on a generated DVD: the
/// disc's own title numbers. (The Blu-ray cases are in DiscKitAuthoringTests' and
/// DiscKitOracleTests' suites of the same name.)
@Suite("Title choice", .toolThreads)
struct TitleChoiceTests {
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: Fixtures.generated("dvd-ntsc.iso")),
      "run TestImages/scripts/make-all.sh"))
  func dvdTitlesAreTheDiscsOwnNumbers() throws {
    let disc = try Disc.open(path: Fixtures.generated("dvd-ntsc.iso"))
    guard case .dvd(let dvd) = disc.navigation else {
      Issue.record("dvd-ntsc is not a DVD")
      return
    }
    for number in 1...dvd.titles.count {
      #expect(try disc.title(.number(number)).key == String(number))
      #expect(try dvd.titleNumber(.number(number)) == number)
    }
    #expect(try dvd.titleNumber(.main, selection: .lsdvd) == LsdvdTitleSelector.select(dvd))
    #expect(throws: DiscKitError.self) { try disc.title(.playlist("1")) }
  }
}
