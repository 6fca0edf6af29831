import DiscKitTestSupport
import Foundation
import Testing

/// The library speaks its own terms: no string literal in `Sources/DiscKit` names a command-line
/// option (`--force`) or a `disckit` command (`disckit titles`). The CLI adds those hints when it
/// prints an error (`DiscKitError.commandLineHint`, tested in `DiscKitCLITests`). Comments and
/// documentation may mention the CLI; only the text a program can show is checked.
@Suite("Library text has no CLI words", .toolThreads)
struct LibraryTextTests {
  static let sources = Fixtures.packageRoot.appendingPathComponent("Sources/DiscKit")

  /// The contents of every string literal in Swift `source` (plain and multi-line; interpolations
  /// are kept as text), comments skipped, each with its 1-based line.
  static func stringLiterals(_ source: String) -> [(line: Int, text: String)] {
    let chars = Array(source)
    var result: [(Int, String)] = []
    var line = 1
    var i = 0
    func starts(_ token: String, at index: Int) -> Bool {
      let t = Array(token)
      return index + t.count <= chars.count && Array(chars[index..<index + t.count]) == t
    }
    while i < chars.count {
      let c = chars[i]
      if c == "\n" {
        line += 1
        i += 1
      } else if starts("//", at: i) {
        while i < chars.count && chars[i] != "\n" { i += 1 }
      } else if starts("/*", at: i) {
        i += 2
        while i < chars.count && !starts("*/", at: i) {
          if chars[i] == "\n" { line += 1 }
          i += 1
        }
        i += 2
      } else if c == "\"" {
        let multiline = starts("\"\"\"", at: i)
        let close = multiline ? "\"\"\"" : "\""
        i += multiline ? 3 : 1
        let startLine = line
        var text = ""
        while i < chars.count && !starts(close, at: i) {
          if chars[i] == "\\" && i + 1 < chars.count {
            text.append(chars[i])
            text.append(chars[i + 1])
            i += 2
            continue
          }
          if chars[i] == "\n" {
            if !multiline { break }
            line += 1
          }
          text.append(chars[i])
          i += 1
        }
        i += close.count
        result.append((startLine, text))
      } else {
        i += 1
      }
    }
    return result
  }

  static let commands = [
    "info", "ls", "cat", "titles", "extract", "scan", "segment", "author", "crosscheck", "serve",
    "help",
  ]

  /// The CLI words in one literal: `--name` options and `disckit COMMAND`.
  static func cliWords(_ text: String) -> [String] {
    var words: [String] = []
    let chars = Array(text)
    for index in chars.indices where index + 2 < chars.count {
      let before = index == 0 ? " " : chars[index - 1]
      guard chars[index] == "-", chars[index + 1] == "-", chars[index + 2].isLetter,
        chars[index + 2].isLowercase, !before.isLetter, !before.isNumber, before != "-"
      else { continue }
      let name = chars[index...].prefix { $0 == "-" || ($0.isLetter && $0.isLowercase) }
      words.append(String(name))
    }
    for command in commands where text.contains("disckit " + command) {
      words.append("disckit " + command)
    }
    return words
  }

  @Test func theScannerFindsWhatItLooksFor() {
    let sample = """
      /// Use --force or `disckit titles` (a comment: allowed).
      let a = "already exists (use --force to overwrite)"  // --comment
      let b = "no such title (see `disckit titles`)"
      let c = "ranges 0--9, x--y, \\(n)--, \\"--quoted\\" --"
      let d = ".NAME.disckit-partial-PID"
      """
    let found = Self.stringLiterals(sample).flatMap { literal in
      Self.cliWords(literal.text).map { "\(literal.line): \($0)" }
    }
    #expect(found == ["2: --force", "3: disckit titles", "4: --quoted"])
  }

  @Test func libraryStringsNameNoOptionOrCommand() throws {
    let files = try FileManager.default.subpathsOfDirectory(atPath: Self.sources.path)
      .filter { $0.hasSuffix(".swift") }.sorted()
    #expect(files.count > 50, "the library's sources were found")
    var found: [String] = []
    for file in files {
      let text = try String(
        contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
      for literal in Self.stringLiterals(text) {
        for word in Self.cliWords(literal.text) { found.append("\(file):\(literal.line): \(word)") }
      }
    }
    #expect(found == [], "CLI words in Sources/DiscKit strings")
  }
}
