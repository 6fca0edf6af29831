@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// `--main`, `--title N` and `--playlist P` resolved by the library (``TitleChoice``), with
/// libbluray's title list on the same folder as the oracle of the parity numbering. The playlist
/// names as users type them and the DVD title numbers are checked in DiscKitAuthoringTests' and
/// DiscKitTests' suites of the same name.
@Suite("Title choice", .toolThreads)
struct TitleChoiceTests {
  /// The parity selection lists the titles libbluray lists and picks its main title. (The
  /// numbers follow the enumeration order, which on a folder is the file system's `readdir`
  /// order for libbluray: only the set is compared.)
  @Test func numbersAndMainFollowLibblurayInParityMode() throws {
    let synthetic = try BlurayScenarioDiscs.duplicatedFeature()
    let disc = try Disc.open(path: synthetic.path)
    let reference = try Reference.Bluray(path: synthetic.path)
    let count = reference.titleCount(flags: 3)
    #expect(count == 2)
    var theirs: Set<String> = []
    var ours: Set<String> = []
    for index in 0..<count {
      let info = try #require(reference.titleInfo(index))
      theirs.insert(String(format: "%05d", info.playlist))
      let title = try disc.title(.number(index + 1), selection: .libbluray)
      ours.insert(title.key)
      #expect(title.number == index + 1)
    }
    #expect(ours == theirs)
    let main = try #require(reference.titleInfo(reference.mainTitle))
    #expect(
      try disc.title(.main, selection: .libbluray).key == String(format: "%05d", main.playlist))
    // The smart list numbers the same two titles (the duplicate 00030 is set aside).
    let list = try disc.titleList(selection: .smart)
    for entry in list.entries {
      let number = try #require(entry.number)
      #expect(try disc.title(.number(number)).key == entry.key)
    }
    #expect(throws: DiscKitError.self) { try disc.title(.number(3)) }
  }
}
