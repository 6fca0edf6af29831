@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// `--playlist P` resolved by the library (``TitleChoice``) as users type it, on a disc the test
/// wrote. The parity numbering against libbluray is in DiscKitOracleTests' suite of the same name.
@Suite("Title choice", .toolThreads)
struct TitleChoiceTests {
  @Test func playlistsAreNamedAsUsersTypeThem() throws {
    let synthetic = try BlurayScenarioDiscs.duplicatedFeature()
    let disc = try Disc.open(path: synthetic.path)
    for text in ["00012.mpls", "00012.MPLS", "00012", "12"] {
      #expect(try disc.title(.playlist(text)).key == "00012", "\(text)")
    }
    #expect(throws: DiscKitError.self) { try disc.title(.playlist("99")) }
    let bluray = try BlurayDisc(fileSystem: try FolderFileSystem(root: synthetic.path))
    #expect(bluray.playlistFile(matching: "12")?.name == "00012.mpls")
    #expect(try bluray.title(.playlist("12")).name == "00012.mpls")
    #expect(TitleChoice(title: 3, playlist: nil) == .number(3))
    #expect(TitleChoice(title: nil, playlist: "800") == .playlist("800"))
    #expect(TitleChoice(title: nil, playlist: nil) == .main)
  }
}
