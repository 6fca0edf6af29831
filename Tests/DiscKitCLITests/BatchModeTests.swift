import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitCLI

/// `disckit titles --batch` and `scan --batch`, run as the built binary on a folder mixing good
/// discs, broken images and entries that are not discs.
@Suite("disckit --batch", .toolThreads)
struct BatchModeTests {
  static let binary = EndToEndTests.binary
  static let ready =
    EndToEndTests.haveBinary
    && FileManager.default.fileExists(atPath: Fixtures.generated("bluray/simple.iso"))
    && FileManager.default.fileExists(atPath: Fixtures.generated("dvd-pal.iso"))
  static let notReady = Comment(
    rawValue: "needs the built disckit and TestImages/scripts/make-all.sh output")

  /// A library: good discs (images and folders, one nested), a truncated image, random bytes
  /// named .iso, a data image, and files and folders that are not discs.
  struct Library {
    let dir: TemporaryDirectory
    var root: String { dir.url.path }
    /// The discs DiscKit must find, in the order it must print them.
    let discs: [String]
    let broken: Set<String>

    init() throws {
      dir = try TemporaryDirectory()
      let fm = FileManager.default
      let root = dir.url.path
      func link(_ name: String, _ target: String) throws {
        try fm.createSymbolicLink(atPath: root + "/" + name, withDestinationPath: target)
      }
      try link("a-bluray.iso", Fixtures.generated("bluray/simple.iso"))
      try link("b-bluray-folder", Fixtures.generated("bluray/decoys"))
      try link("c-dvd.iso", Fixtures.generated("dvd-pal.iso"))
      try fm.createDirectory(atPath: root + "/d-nested/deeper", withIntermediateDirectories: true)
      try link("d-nested/deeper/e-dvd-folder", Fixtures.generated("dvd-ntsc"))
      // Broken: the first 64 KiB of a Blu-ray image; seeded random bytes; a data disc.
      let image = try Data(contentsOf: URL(fileURLWithPath: Fixtures.generated("bluray/simple.iso")))
      try image.prefix(65_536).write(to: URL(fileURLWithPath: root + "/f-truncated.ISO"))
      var rng = SeededRandom(seed: 7)
      let noise = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
      try Data(noise).write(to: URL(fileURLWithPath: root + "/g-noise.iso"))
      try link("h-data.iso", Fixtures.generated("iso9660-plain.iso"))
      // Not discs: left out.
      try Data("not a disc\n".utf8).write(to: URL(fileURLWithPath: root + "/notes.txt"))
      try Data(noise.prefix(4096)).write(to: URL(fileURLWithPath: root + "/clip.m2ts"))
      try fm.createDirectory(atPath: root + "/empty", withIntermediateDirectories: true)
      try fm.createDirectory(atPath: root + "/.hidden", withIntermediateDirectories: true)
      try link(".hidden/x.iso", Fixtures.generated("bluray/simple.iso"))
      // A link loop: walked once.
      try link("d-nested/deeper/loop", root + "/d-nested")
      discs = [
        "a-bluray.iso", "b-bluray-folder", "c-dvd.iso", "d-nested/deeper/e-dvd-folder",
        "f-truncated.ISO", "g-noise.iso", "h-data.iso",
      ].map { root + "/" + $0 }
      broken = Set(["f-truncated.ISO", "g-noise.iso", "h-data.iso"].map { root + "/" + $0 })
    }
  }

  /// The NDJSON lines of a batch, each checked against the command's JSON Schema (with
  /// python3-jsonschema, when installed).
  static func lines(_ result: Tool.Result, schema: String = "titles-batch-line") throws
    -> [[String: Any]]
  {
    if JSONSchemaValidator.available {
      #expect(try JSONSchemaValidator.problems(result.stdout, schema: schema, lines: true) == [])
    }
    return try result.text.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  static func single(_ arguments: [String]) throws -> NSDictionary {
    let result = try Tool.run(Self.binary, arguments)
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? NSDictionary)
  }

  @Test("the finder lists images and disc folders in name order, once, and nothing else",
    .enabled(if: ready, notReady))
  func finder() throws {
    let library = try Library()
    // The library's discs are links to the generated images, outside its root: listed when
    // links are followed anywhere; by default (serve's rule) only the files inside the root.
    #expect(
      try DiscFinder.discs(under: library.root, options: .init(confined: false)) == library.discs)
    #expect(
      try DiscFinder.discs(under: library.root)
        == ["f-truncated.ISO", "g-noise.iso"].map { library.root + "/" + $0 })
    // A root that is itself a disc is that one disc.
    #expect(try DiscFinder.discs(under: library.discs[0]) == [library.discs[0]])
    #expect(throws: DiscKitError.self) { try DiscFinder.discs(under: library.root + "/missing") }
  }

  @Test("titles --batch: one JSON line per disc in order, errors as lines, exit 1",
    .enabled(if: ready, notReady))
  func titlesBatch() throws {
    let library = try Library()
    let result = try Tool.run(Self.binary, ["titles", "--batch", library.root, "--follow-links"])
    #expect(result.status == 1, "a failed disc makes the exit status 1")
    let lines = try Self.lines(result)
    #expect(lines.map { $0["path"] as? String } == library.discs)
    for line in lines {
      let path = try #require(line["path"] as? String)
      if library.broken.contains(path) {
        #expect(line["titles"] == nil)
        let error = try #require(line["error"] as? String, "\(path)")
        #expect(!error.isEmpty && !error.contains("\n"))
      } else {
        #expect(line["error"] == nil, "\(path): \(line["error"] ?? "")")
        // The line carries exactly the document `disckit titles PATH --json` prints.
        let titles = try #require(line["titles"] as? NSDictionary)
        #expect(titles == (try Self.single(["titles", path, "--json"])), "\(path)")
      }
    }
    // Options apply to every disc; one disc at a time gives the same lines.
    let all = try Tool.run(
      Self.binary, ["titles", "--batch", library.root, "--all", "--jobs", "1", "--follow-links"])
    let allLines = try Self.lines(all)
    let first = try #require(allLines.first?["titles"] as? NSDictionary)
    #expect(first == (try Self.single(["titles", library.discs[0], "--json", "--all"])))
    let sequential = try Tool.run(
      Self.binary, ["titles", "--batch", library.root, "--jobs", "1", "--follow-links"])
    #expect(sequential.stdout == result.stdout)
  }

  @Test("titles --batch -: paths from standard input, in that order", .enabled(if: ready, notReady))
  func fromStandardInput() throws {
    let library = try Library()
    let paths = [library.discs[2], "/nonexistent/disc.iso", library.discs[0], library.discs[2]]
    let input = Data((paths.joined(separator: "\n") + "\n\n").utf8)
    let result = try Tool.run(Self.binary, ["titles", "--batch", "-"], stdin: input)
    #expect(result.status == 1)
    let lines = try Self.lines(result)
    #expect(lines.map { $0["path"] as? String } == paths)
    #expect((lines[1]["error"] as? String)?.contains("cannot open") == true)
    // Only good discs: exit 0.
    let good = Data((library.discs[0] + "\n" + library.discs[1] + "\n").utf8)
    let ok = try Tool.run(Self.binary, ["titles", "--batch", "-"], stdin: good)
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(try Self.lines(ok).count == 2)
  }

  @Test("scan --batch: the main title's scan report per disc", .enabled(if: ready, notReady))
  func scanBatch() throws {
    let library = try Library()
    let result = try Tool.run(Self.binary, ["scan", "--batch", library.root, "--bytes", "2M", "--follow-links"])
    #expect(result.status == 1)
    let lines = try Self.lines(result, schema: "scan-batch-line")
    #expect(lines.map { $0["path"] as? String } == library.discs)
    for line in lines {
      let path = try #require(line["path"] as? String)
      if library.broken.contains(path) {
        #expect(line["error"] != nil, "\(path)")
      } else {
        let scan = try #require(line["scan"] as? NSDictionary, "\(path): \(line)")
        #expect(scan == (try Self.single(["scan", path, "--bytes", "2M", "--json"])), "\(path)")
      }
    }
  }

  @Test("usage: IMAGE and --batch are exclusive; the root must exist", .enabled(if: ready, notReady))
  func usage() throws {
    #expect(try Tool.run(Self.binary, ["titles"]).status == 64)
    #expect(try Tool.run(Self.binary, ["titles", "x.iso", "--batch", "/tmp"]).status == 64)
    #expect(try Tool.run(Self.binary, ["titles", "--batch", "/tmp", "--jobs", "0"]).status == 64)
    let missing = try Tool.run(Self.binary, ["titles", "--batch", "/nonexistent/library"])
    #expect(missing.status == 66)
    #expect(missing.stderr.hasPrefix("disckit: ") && missing.stderr.split(separator: "\n").count == 1)
  }
}
