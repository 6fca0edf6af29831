@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The real discs' index and movie object files parse, and their navigation plays playlists.
/// (Playlists and clip information against libbluray are in DiscKitOracleTests' suite of the
/// same name.)
@Suite("BDMV parsing on real discs", .toolThreads)
struct BDMVParsingTests {
  static func files(withExtensions exts: [String]) -> [String] {
    Fixtures.realFiles(under: "bluray", withSuffixes: exts)
  }

  @Test(needsRealData)
  func indexAndMovieObjectsParse() throws {
    for path in Self.files(withExtensions: ["index.bdmv"]) {
      let index = try BDMVIndex(
        bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), name: path)
      #expect(!index.titles.isEmpty || index.firstPlay != .none, "\(path)")
    }
    var played = 0
    for path in Self.files(withExtensions: ["movieobject.bdmv"]) {
      let objects = try MovieObjectFile(
        bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), name: path)
      for i in objects.objects.indices {
        played += objects.playlists(reachableFrom: i).playlists.count
      }
    }
    #expect(played > 0)
  }
}
