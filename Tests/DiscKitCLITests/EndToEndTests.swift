import DiscKitTestSupport
import Foundation
import Testing

/// Runs the built `disckit` binary (it sits beside the test bundle) and checks the conventions every
/// command follows: JSON shapes, one-line errors, sysexits codes, atomic `-o` with `--force`.
@Suite("disckit end to end", .toolThreads)
struct EndToEndTests {
  static let binary = Fixtures.builtExecutable("disckit")
  static let haveBinary = FileManager.default.isExecutableFile(atPath: binary)
  static let dvd = Fixtures.generated("dvd-pal.iso")
  static let haveImages = FileManager.default.fileExists(atPath: dvd)

  /// Runs `disckit`; a successful `--json` (or `--batch`) output is validated against its JSON
  /// Schema file, so every CLI test that reads JSON also checks the schema.
  static func disckit(_ arguments: [String]) throws -> Tool.Result {
    let result = try Tool.run(binary, arguments)
    if result.status == 0, JSONSchemaValidator.available,
      let schema = JSONSchemaValidator.schema(forCommandLine: arguments)
    {
      let problems = try JSONSchemaValidator.problems(
        result.stdout, schema: schema, lines: arguments.contains("--batch"))
      #expect(problems.isEmpty, "disckit \(arguments.joined(separator: " ")): \(problems)")
    }
    return result
  }

  static func json(_ result: Tool.Result) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
  }

  @Test(
    .enabled(
      if: haveBinary && haveImages,
      "needs the built disckit and TestImages/scripts/make-all.sh output"))
  func infoAndRecursiveListingOfADVDImage() throws {
    let info = try Self.json(try Self.disckit(["info", Self.dvd, "--json"]))
    #expect(info["discKind"] as? String == "dvd")
    #expect(
      info["imageSize"] as? Int
        == Int(try FileManager.default.attributesOfItem(atPath: Self.dvd)[.size] as? Int ?? -1))
    let listing = try Self.json(try Self.disckit(["ls", Self.dvd, "--recursive", "--json"]))
    let entries = try #require(listing["entries"] as? [[String: Any]])
    let paths = entries.compactMap { $0["path"] as? String }
    #expect(paths.contains("/VIDEO_TS/VIDEO_TS.IFO"))
    #expect(Set(paths).count == paths.count, "every entry once")
    #expect(paths.allSatisfy { $0.hasPrefix("/") })
    // The folder the image was made from lists the same files with the same sizes.
    let folder = try Self.json(
      try Self.disckit(["ls", Fixtures.generated("dvd-pal"), "--recursive", "--json"]))
    let folderEntries = try #require(folder["entries"] as? [[String: Any]])
    func sizes(_ list: [[String: Any]]) -> [String: Int] {
      Dictionary(
        uniqueKeysWithValues: list.filter { $0["isDirectory"] as? Bool == false }.compactMap { e in
          (e["path"] as? String).map { ($0.uppercased(), e["size"] as? Int ?? -1) }
        })
    }
    #expect(sizes(entries) == sizes(folderEntries))
  }

  @Test(
    .enabled(
      if: haveBinary && haveImages,
      "needs the built disckit and TestImages/scripts/make-all.sh output"))
  func catWritesAtomicallyAndRefusesToOverwrite() throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("vts.ifo")
    let ok = try Self.disckit(["cat", Self.dvd, "/VIDEO_TS/VTS_01_0.IFO", "-o", out])
    #expect(ok.status == 0)
    let expected = try Data(
      contentsOf: URL(fileURLWithPath: Fixtures.generated("dvd-pal") + "/VIDEO_TS/VTS_01_0.IFO"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == expected)
    let again = try Self.disckit(["cat", Self.dvd, "/VIDEO_TS/VTS_01_0.IFO", "-o", out])
    #expect(again.status == 73)
    #expect(again.stderr.contains("--force"))
    #expect(
      try Self.disckit(["cat", Self.dvd, "/VIDEO_TS/VTS_01_0.IFO", "-o", out, "--force"]).status
        == 0)
    // Nothing but the output is left in the directory (no temporary files).
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["vts.ifo"])
    // Standard output.
    let stdout = try Self.disckit(["cat", Self.dvd, "/VIDEO_TS/VTS_01_0.IFO"])
    #expect(stdout.stdout == expected)
  }

  @Test(
    .enabled(
      if: haveBinary && haveImages,
      "needs the built disckit and TestImages/scripts/make-all.sh output"))
  func extractFailureLeavesNothingBehind() throws {
    let dir = try TemporaryDirectory()
    let full = try Self.disckit(["extract", Self.dvd, "-o", "/dev/full"])
    #expect(full.status == 74)
    #expect(full.stderr.split(separator: "\n").count == 1, "one line: \(full.stderr)")
    let out = dir.file("title.vob")
    let ok = try Self.disckit(["extract", Self.dvd, "--title", "1", "-o", out])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["title.vob"])
    let missing = try Self.disckit([
      "extract", Self.dvd, "--title", "99", "-o", dir.file("none.vob"),
    ])
    #expect(missing.status != 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["title.vob"])
  }

  @Test(.enabled(if: haveBinary, "needs the built disckit"))
  func errorsAreOneLineWithTheirExitCode() throws {
    let missing = try Self.disckit(["info", "/nonexistent/disc.iso"])
    #expect(missing.status == 66)
    #expect(missing.stderr.hasPrefix("disckit: "))
    let usage = try Self.disckit(["ls", "--no-such-flag"])
    #expect(usage.status == 64)
    let dir = try TemporaryDirectory()
    let garbage = dir.file("garbage.iso")
    try Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(
      to: URL(fileURLWithPath: garbage))
    let malformed = try Self.disckit(["info", garbage])
    #expect(malformed.status == 65)
    #expect(malformed.stderr.split(separator: "\n").count == 1)
    #expect(malformed.stderr.contains("at byte 0x"))
  }

  @Test(
    .enabled(
      if: haveBinary && haveImages,
      "needs the built disckit and TestImages/scripts/make-all.sh output"))
  func titlesAndScanOfADVD() throws {
    let titles = try Self.json(try Self.disckit(["titles", Self.dvd, "--json"]))
    let list = try #require(titles["titles"] as? [[String: Any]])
    #expect(list.filter { $0["main"] as? Bool == true }.count == 1)
    let scan = try Self.json(try Self.disckit(["scan", Self.dvd, "--json"]))
    #expect(scan["container"] as? String == "mpeg-ps")
    let video = try #require((scan["video"] as? [[String: Any]])?.first)
    #expect(video["firstIDRPTS"] is NSNumber)
  }

  /// The text form says what decided the main title, as the JSON does: the confidence and one
  /// line per piece of evidence, naming the JSON's main title.
  @Test(
    .enabled(
      if: haveBinary && haveImages,
      "needs the built disckit and TestImages/scripts/make-all.sh output"))
  func titlesTextShowsTheConfidenceAndEvidenceOfTheJSON() throws {
    for disc in [Self.dvd, Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path] {
      let json = try Self.json(try Self.disckit(["titles", disc, "--json"]))
      let confidence = try #require(json["confidence"] as? String)
      let evidence = try #require(json["evidence"] as? [[String: Any]])
      let text = String(decoding: try Self.disckit(["titles", disc]).stdout, as: UTF8.self)
      let lines = text.split(separator: "\n").map(String.init)
      #expect(lines.contains { $0.hasPrefix("Confidence: \(confidence)") }, "\(text)")
      let evidenceLines = lines.filter { $0.hasPrefix("  evidence: ") }
      #expect(evidenceLines.count == evidence.count, "\(text)")
      for (line, item) in zip(evidenceLines, evidence) {
        #expect(
          line.hasSuffix(": \(item["kind"] as? String ?? "?"): \(item["detail"] as? String ?? "?")")
        )
      }
    }
  }

  static let transportStream = Fixtures.generated("ts/h264-ac3.m2ts")

  @Test(
    .enabled(
      if: haveBinary && FileManager.default.fileExists(atPath: transportStream),
      "needs the built disckit and TestImages/scripts/make-all.sh output"))
  func scanOfATransportStreamFile() throws {
    let stream = Self.transportStream
    let report = try Self.json(try Self.disckit(["scan", stream, "--json"]))
    #expect(report["packetSize"] as? Int == 192)
    #expect((report["video"] as? [[String: Any]])?.first?["codec"] as? String == "h264")
  }
}
