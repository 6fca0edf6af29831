import DiscKitTestSupport
import Foundation
import Testing

/// The server core, the server and the command line (but `disckit author`, which writes parse
/// trees) are built on `DiscKit`'s public façade alone: none of their files imports the
/// `Formats` SPI. The compiler then proves that the façade carries everything they use.
@Suite("Façade-only consumers", .toolThreads)
struct FacadeOnlyTests {
  static let consumers = [
    "Sources/DiscKitStreaming", "Sources/DiscKitServer", "Sources/DiscKitCLI",
  ]
  static let allowed: Set<String> = ["Sources/DiscKitCLI/Authoring/AuthorCommand.swift"]

  @Test func noConsumerImportsTheFormatsSPI() throws {
    var checked = 0
    for folder in Self.consumers {
      let root = Fixtures.packageRoot.appendingPathComponent(folder)
      let files = try #require(FileManager.default.enumerator(atPath: root.path))
      for case let name as String in files where name.hasSuffix(".swift") {
        let path = "\(folder)/\(name)"
        let text = try String(
          contentsOf: root.appendingPathComponent(name), encoding: .utf8)
        checked += 1
        if Self.allowed.contains(path) { continue }
        #expect(!text.contains("@_spi("), "\(path) imports an SPI")
      }
    }
    #expect(checked > 40, "only \(checked) files found")
  }
}
