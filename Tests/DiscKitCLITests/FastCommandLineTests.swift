import ArgumentParser
import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitCLI

/// The fast path for `titles`, `info`, `scan` and `--version` (``FastCommandLine``) against
/// ArgumentParser, the parser it stands in for: the same request for every command line it
/// accepts, and, as processes, the same stdout, stderr and exit status for every command line
/// (accepted or left to ArgumentParser).
@Suite("Fast command line vs ArgumentParser", .toolThreads)
struct FastCommandLineTests {
  static let sample = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
  static let stream = Fixtures.generated("ts/h264-ac3.m2ts")
  static let dvd = Fixtures.generated("dvd-pal")

  /// Command lines built from the pieces each command knows, in random order, with attached
  /// (`=`) and separate values, repeats, bad values, unknown options and help requests mixed in.
  static func commandLines(count: Int, seed: UInt64) -> [[String]] {
    var random = SeededRandom(seed: seed)
    let sources = [sample, dvd, stream, "/nonexistent/disc.iso", "", "help", "-", "--"]
    let titlesPieces: [[String]] = [
      ["--all"], ["--json"], ["--select", "smart"], ["--select", "libbluray"],
      ["--select", "lsdvd"],
      ["--select", "bogus"], ["--select=lsdvd"], ["--min-length", "10"], ["--min-length=1e1"],
      ["--min-length", "-5"], ["--min-length=-5"], ["--min-length", "nan"], ["--min-length", "x"],
      ["--batch", "/nonexistent/root"], ["--batch=/nonexistent/root"], ["--jobs", "1"],
      ["--jobs=0"], ["--jobs", "two"], ["--bogus"], ["-h"], ["--help"], ["--version"],
      ["--json=true"], ["--all=1"], ["-all"], ["--batch="], ["--select="], ["--min-length="],
      ["--jobs=+2"], ["--min-length", "0x1p3"], ["--batch", ""], ["--select", ""],
      ["--follow-links"], ["--follow-links=1"],
    ]
    let scanPieces: [[String]] = [
      ["--json"], ["--offset", "188"], ["--offset=1K"], ["--offset", "12Q"], ["--bytes", "64K"],
      ["--bytes=1M"], ["--bytes", "-1"], ["--payload-bound", "512"], ["--payload-bound=-1"],
      ["--title", "1"], ["--title", "2"], ["--title=x"], ["--playlist", "00000"],
      ["--playlist=99999"], ["--at", "1.5"], ["--at=0"], ["--at", "inf"], ["--jobs", "3"],
      ["--batch", "/nonexistent/root"], ["--bogus"], ["-h"], ["--offset="], ["--playlist="],
      ["--at="], ["--title", "+1"], ["--bytes", "1k"], ["--offset", ""], ["--playlist", " "],
      ["--timeline", "original"], ["--timeline=continuous"], ["--timeline", "bogus"],
      ["--timeline="], ["--follow-links"],
    ]
    let infoPieces: [[String]] = [["--json"], ["--json=false"], ["--bogus"], ["-h"], ["--help"]]
    var lines: [[String]] = [
      ["--version"], ["--version", "titles"], ["titles"], ["info"], ["scan"], ["help", "titles"],
    ]
    while lines.count < count {
      let command = ["titles", "info", "scan"][Int(random.next() % 3)]
      let pieces = command == "titles" ? titlesPieces : command == "scan" ? scanPieces : infoPieces
      var words: [[String]] = []
      let sourceCount = [0, 1, 1, 1, 1, 1, 2][Int(random.next() % 7)]
      for _ in 0..<sourceCount {
        // Mostly real inputs, sometimes an odd word.
        let index = Int(random.next() % 8)
        words.append([index < 4 ? sources[index % 3] : sources[index]])
      }
      for _ in 0..<Int(random.next() % 4) {
        words.append(pieces[Int(random.next() % UInt64(pieces.count))])
      }
      words.shuffle(using: &random)
      lines.append([command] + words.flatMap { $0 })
    }
    return lines
  }

  /// Every command line the fast path accepts parses to the same request with ArgumentParser.
  @Test func sameRequestsAsArgumentParser() throws {
    var accepted = 0
    for line in Self.commandLines(count: 3000, seed: 11) {
      guard let fast = FastCommandLine.parse(line[...]) else { continue }
      accepted += 1
      if fast == .version {
        // ArgumentParser answers --version with a clean exit carrying the version text.
        do {
          _ = try DiscKitCommand.parseAsRoot(line)
          Issue.record("--version parsed as a command: \(line)")
        } catch {
          #expect(DiscKitCommand.fullMessage(for: error) == DiscKitVersion.string)
          #expect(DiscKitCommand.exitCode(for: error) == .success)
        }
        continue
      }
      let parsed = try DiscKitCommand.parseAsRoot(line)
      switch fast {
      case .version:
        break
      case .titles(let request):
        #expect(Self.same((parsed as? TitlesCommand)?.request, request), "\(line)")
      case .info(let request):
        #expect(Self.same((parsed as? InfoCommand)?.request, request), "\(line)")
      case .scan(let request):
        #expect(Self.same((parsed as? ScanCommand)?.request, request), "\(line)")
      }
    }
    // The generator is biased towards good command lines: most of them take the fast path.
    #expect(accepted > 400, "only \(accepted) command lines took the fast path")
  }

  /// Equal requests; NaN (`--min-length nan`) equals NaN here, so compare the descriptions,
  /// which show every field.
  static func same<T>(_ parsed: T?, _ fast: T) -> Bool {
    parsed.map { String(describing: $0) } == String(describing: fast)
  }

  /// The plain forms people type are all on the fast path.
  @Test func commonFormsAreFast() {
    let lines: [[String]] = [
      ["--version"], ["titles", "a.iso"], ["titles", "a.iso", "--json"],
      ["titles", "--all", "--select", "libbluray", "a.iso"],
      ["titles", "--batch=/r", "--jobs", "2"],
      ["info", "a.iso", "--json"], ["scan", "a.m2ts", "--at", "12.5", "--json"],
      ["scan", "a.iso", "--title", "2", "--bytes", "1M"],
    ]
    for line in lines { #expect(FastCommandLine.parse(line[...]) != nil, "\(line)") }
    let slow: [[String]] = [
      ["titles"], ["titles", "-h"], ["titles", "a.iso", "b.iso"],
      ["titles", "a.iso", "--all", "--all"],
      ["titles", "--batch", "-"], ["titles", "a.iso", "--jobs", "0"], ["ls", "a.iso"],
      ["scan", "a.m2ts", "--at", "1", "--offset", "188"], ["--version", "x"], ["help"],
    ]
    for line in slow { #expect(FastCommandLine.parse(line[...]) == nil, "\(line)") }
  }

  /// As processes: the same stdout, stderr and exit status with and without the fast path.
  @Test(
    .enabled(if: EndToEndTests.haveBinary, "needs the built disckit"),
    .enabled(
      if: FileManager.default.fileExists(atPath: stream)
        && FileManager.default.fileExists(atPath: dvd),
      "needs TestImages/generated (make images)"))
  func sameProcessOutput() throws {
    var fastRuns = 0
    for line in Self.commandLines(count: 160, seed: 5) {
      let fast = FastCommandLine.parse(line[...]) != nil
      if fast { fastRuns += 1 }
      let quick = try Tool.run(EndToEndTests.binary, line, stdin: Data())
      let full = try Tool.run(
        EndToEndTests.binary, line, stdin: Data(),
        environment: [FastCommandLine.disablingVariable: "1"])
      #expect(quick.status == full.status, "exit status of \(line)")
      #expect(quick.stdout == full.stdout, "stdout of \(line)")
      #expect(quick.stderr == full.stderr, "stderr of \(line)")
    }
    #expect(fastRuns > 30, "only \(fastRuns) command lines took the fast path")
  }

  /// The fast path's option tables are the commands' own: the long options ArgumentParser
  /// describes for each command (`--experimental-dump-help`), flags and value options alike,
  /// with nothing missing or extra (`--help` and `--version` are ArgumentParser's and not taken).
  @Test(
    .enabled(if: EndToEndTests.haveBinary, "needs the built disckit"),
    arguments: ["titles", "info", "scan"])
  func optionTablesAreArgumentParsersOptions(command: String) throws {
    let dump = try Tool.run(EndToEndTests.binary, [command, "--experimental-dump-help"])
    #expect(dump.status == 0)
    let root = try #require(
      try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
    let info = try #require(root["command"] as? [String: Any])
    let arguments = try #require(info["arguments"] as? [[String: Any]])
    var declared: Set<String> = []
    for argument in arguments {
      let kind = try #require(argument["kind"] as? String)
      let names = (argument["names"] as? [[String: Any]] ?? []).filter {
        $0["kind"] as? String == "long"
      }.compactMap { $0["name"] as? String }
      for name in names where name != "help" && name != "version" {
        declared.insert("--\(name) \(kind == "option" ? "VALUE" : kind)")
      }
    }
    let table: [(String, Bool)] =
      switch command {
      case "titles": FastCommandLine.titlesOptions.map { ($0.name, $0.takesValue) }
      case "info": FastCommandLine.infoOptions.map { ($0.name, $0.takesValue) }
      default: FastCommandLine.scanOptions.map { ($0.name, $0.takesValue) }
      }
    #expect(Set(table.map { "\($0.0) \($0.1 ? "VALUE" : "flag")" }) == declared)
    #expect(Set(table.map(\.0)).count == table.count, "an option listed twice")
  }
}
