import DiscKitCLI
import DiscKitTestSupport
import Foundation
import Testing

/// Every command, the helper-run ones included, is in `disckit --help`, and `disckit help NAME`
/// prints that command's own help.
@Suite("disckit help", .toolThreads)
struct HelpTests {
  static let haveBinary = EndToEndTests.haveBinary
  static let serveHelper = URL(fileURLWithPath: EndToEndTests.binary).deletingLastPathComponent()
    .appendingPathComponent("disckit-serve").path
  static let haveServe = FileManager.default.isExecutableFile(atPath: serveHelper)

  @Test(.enabled(if: haveBinary, "needs the built disckit"))
  func topLevelHelpListsEveryCommand() throws {
    let help = try Tool.run(EndToEndTests.binary, ["--help"])
    #expect(help.status == 0)
    let commands = DiscKitCommand.configuration.subcommands.map { $0.configuration.commandName }
    #expect(commands.contains("serve") && commands.contains("crosscheck"))
    let listed = help.text.split(separator: "\n").compactMap { line -> String? in
      let words = line.split(separator: " ")
      return line.hasPrefix("  ") && !line.hasPrefix("   ") ? words.first.map(String.init) : nil
    }
    for case let command? in commands { #expect(listed.contains(command), "\(command) in --help") }
    for (command, _) in HelperProgram.programs { #expect(listed.contains(command)) }
  }

  @Test(.enabled(if: haveBinary, "needs the built disckit"))
  func helpServePrintsServesHelp() throws {
    let top = try Tool.run(EndToEndTests.binary, ["--help"])
    let serve = try Tool.run(EndToEndTests.binary, ["help", "serve"])
    #expect(serve.status == 0, "\(serve.stderr)")
    #expect(serve.text != top.text)
    #expect(serve.text.contains("USAGE: disckit serve"))
    let words = serve.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(words.contains(ServeArguments.abstract))
    for option in [
      "--host", "--port", "--token", "--max-streams", "--idle-timeout", "--cache-discs",
      "--subtitle-wait", "--max-transcodes",
    ] {
      #expect(serve.text.contains(option), "\(option)")
    }
    #expect(serve.text.contains("index.m3u8") && serve.text.contains("stream.ts"))
  }

  @Test(.enabled(if: haveBinary && haveServe, "needs the built disckit and disckit-serve"))
  func serveHelpThroughTheHelperMatches() throws {
    let inTree = try Tool.run(EndToEndTests.binary, ["help", "serve"])
    let helper = try Tool.run(EndToEndTests.binary, ["serve", "--help"])
    #expect(helper.status == 0, "\(helper.stderr)")
    // The same arguments and text: the helper prints what the tree prints (but `--version`, which
    // the tree's subcommands inherit from `disckit`).
    func lines(_ text: String) -> [Substring] {
      text.split(separator: "\n").filter { !$0.contains("--version") }
    }
    #expect(lines(helper.text) == lines(inTree.text))
  }
}
