import DiscKitTestSupport
import Foundation
import Testing

/// Every file the README, the DocC articles and the code comments point at exists, and the README's
/// library example compiles (it is `ReadmeExampleTests`).
@Suite("Documentation links", .toolThreads)
struct DocumentationLinkTests {
  static let root = Fixtures.packageRoot

  /// Repository-relative paths mentioned in `text`: markdown link targets and backquoted paths
  /// under the top-level folders.
  static func referencedPaths(_ text: String) -> Set<String> {
    var paths: Set<String> = []
    let pattern = #/(?:\]\(|`|\()((?:Sources|Tests|TestImages|Scripts)/[A-Za-z0-9_./+-]+)/#
    for match in text.matches(of: pattern) {
      var path = String(match.1)
      while path.hasSuffix(".") || path.hasSuffix(")") { path.removeLast() }
      paths.insert(path)
    }
    return paths
  }

  /// Folders that scripts make (`make images`, `make fuzz`), not part of the repository.
  static func isGenerated(_ path: String) -> Bool {
    ["TestImages/generated", "Tests/Fuzz/artifacts", "Tests/Fuzz/corpus", "Tests/Fuzz/regressions"]
      .contains { path.hasPrefix($0) }
  }

  /// A path with a placeholder component (`NAME`, `HARNESS`).
  static func isPlaceholder(_ path: String) -> Bool {
    path.split(separator: "/").contains { ["NAME", "HARNESS", "FILE", "OWNER"].contains($0) }
  }

  @Test func everyReferencedFileExists() throws {
    var files = ["README.md"]
    let docc = Self.root.appendingPathComponent("Sources/DiscKit/DiscKit.docc")
    files += try FileManager.default.contentsOfDirectory(atPath: docc.path).map {
      "Sources/DiscKit/DiscKit.docc/" + $0
    }
    let sources = FileManager.default.enumerator(
      atPath: Self.root.appendingPathComponent("Sources").path)
    while let file = sources?.nextObject() as? String {
      if file.hasSuffix(".swift") { files.append("Sources/" + file) }
    }
    var checked = 0
    for file in files {
      let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
      for path in Self.referencedPaths(text) where !path.hasSuffix("-") && !Self.isPlaceholder(path) {
        checked += 1
        let exists = FileManager.default.fileExists(
          atPath: Self.root.appendingPathComponent(path).path)
        #expect(exists || Self.isGenerated(path), "\(file) refers to \(path)")
      }
      #expect(!text.contains("docs/"), "\(file) still points into a docs/ folder")
    }
    #expect(checked > 10)
  }
}
