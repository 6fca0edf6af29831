import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Every `--json` document of the CLI and every library document, on generated and real discs, is
/// valid against its JSON Schema file (checked by python3-jsonschema, not by DiscKit).
@Suite("JSON Schemas", .toolThreads)
struct JSONSchemaTests {
  static let ready = JSONSchemaValidator.available && EndToEndTests.haveBinary

  /// Generated discs, images and folders of both kinds, and stream files.
  static let discs: [String] = [
    "TestImages/sample-bluray.iso", "TestImages/generated/dvd-pal.iso",
    "TestImages/generated/dvd-ntsc", "TestImages/generated/bluray/simple.iso",
    "TestImages/generated/bluray/decoys", "TestImages/generated/bluray/angles.iso",
    "TestImages/generated/bluray/commentary.iso", "TestImages/generated/bluray/feature",
  ].map { Fixtures.packageRoot.appendingPathComponent($0).path }
    .filter { FileManager.default.fileExists(atPath: $0) }

  static func realDiscs() -> [String] {
    guard let root = Fixtures.realData else { return [] }
    var found: [String] = []
    for kind in ["bluray", "dvd"] {
      let dir = root.appendingPathComponent(kind)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
      for name in names.sorted() {
        let path = dir.appendingPathComponent(name).path
        let marker = kind == "bluray" ? "BDMV" : "VIDEO_TS"
        if FileManager.default.fileExists(atPath: path + "/" + marker) { found.append(path) }
      }
    }
    return found
  }

  @Test(.enabled(if: ready, "needs python3-jsonschema and the built disckit"))
  func validatorRejectsWrongDocuments() throws {
    // The oracle must be able to fail: a wrong type, a missing field, an unknown field.
    for bad in [
      #"{"error": 3}"#, #"{}"#, #"{"error": "x", "more": 1}"#,
    ] {
      #expect(try !JSONSchemaValidator.problems(Data(bad.utf8), schema: "error").isEmpty, "\(bad)")
    }
    #expect(
      try JSONSchemaValidator.problems(Data(#"{"error": "x"}"#.utf8), schema: "error").isEmpty)
  }

  @Test(
    .enabled(if: ready, "needs python3-jsonschema and the built disckit"),
    .enabled(if: !discs.isEmpty, "needs TestImages/scripts/make-all.sh output"))
  func everyCommandOnGeneratedDiscs() throws {
    for disc in Self.discs {
      for arguments in [
        ["titles", disc, "--json"], ["titles", disc, "--json", "--all"],
        ["info", disc, "--json"], ["ls", disc, "--recursive", "--json"],
        ["scan", disc, "--json"], ["scan", disc, "--json", "--at", "1"],
      ] {
        // EndToEndTests.disckit validates the output against the command's schema.
        let result = try EndToEndTests.disckit(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
      }
    }
    for selection in ["libbluray", "smart"] {
      let result = try EndToEndTests.disckit([
        "titles", Self.discs[0], "--json", "--all", "--select", selection,
      ])
      #expect(result.status == 0)
    }
    let dvd = Self.discs.first { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix("dvd") }
    if let dvd {
      #expect(
        try EndToEndTests.disckit(["titles", dvd, "--json", "--select", "lsdvd"]).status == 0)
    }
  }

  @Test(.enabled(if: ready, "needs python3-jsonschema and the built disckit"))
  func streamFileScans() throws {
    let dir = Fixtures.generated.appendingPathComponent("ts")
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
      .filter { !$0.hasPrefix("bench") }.sorted()
    try #require(!files.isEmpty, "needs TestImages/scripts/make-all.sh output")
    for file in files {
      let path = dir.appendingPathComponent(file).path
      _ = try EndToEndTests.disckit(["scan", path, "--json"])
      _ = try EndToEndTests.disckit(["scan", path, "--json", "--at", "1"])
    }
  }

  @Test(
    .enabled(if: ready, "needs python3-jsonschema and the built disckit"),
    .enabled(if: Fixtures.hasRealData, "needs ../shared/realdata"))
  func titlesAndInfoOnRealDiscs() throws {
    let discs = Self.realDiscs()
    #expect(discs.count >= 20)
    for disc in discs {
      for arguments in [["titles", disc, "--json", "--all"], ["info", disc, "--json"]] {
        let result = try EndToEndTests.disckit(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
      }
    }
  }

  @Test(
    .enabled(if: JSONSchemaValidator.available, "needs python3-jsonschema"),
    .enabled(if: !discs.isEmpty, "needs TestImages/scripts/make-all.sh output"))
  func libraryDocumentsEncodeToTheirSchemas() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for path in Self.discs {
      let disc = try Disc.open(path: path)
      let titles = try TitlesDocument(disc: disc, includeExcluded: true)
      #expect(try JSONSchemaValidator.problems(encoder.encode(titles), schema: "titles") == [])
      let line = TitlesBatchLine(path: path, titles: titles)
      let failed = TitlesBatchLine(
        path: path, error: DiscKitError(.malformed, "test", at: 12, "a broken disc"))
      let lines = try [line, failed].map { try encoder.encode($0) + Data("\n".utf8) }
        .reduce(Data(), +)
      #expect(
        try JSONSchemaValidator.problems(lines, schema: "titles-batch-line", lines: true) == [])
      let scan = try ScanDocument(title: try disc.mainTitle(), at: MediaTime(seconds: 1))
      #expect(try JSONSchemaValidator.problems(encoder.encode(scan), schema: "scan") == [])
      #expect(
        try JSONSchemaValidator.problems(
          encoder.encode(ErrorDocument(DiscKitError(.notFound, "x", at: nil, "y"))),
          schema: "error") == [])
    }
  }
}
