import DiscKitCLI
import DiscKitTestSupport
import Foundation
import Testing

/// `make install` lays out the programs, the bash/zsh/fish completions and the disckit(1) man
/// page, all generated from the command tree, so every command is in each of them.
@Suite("make install", .toolThreads)
struct InstallTests {
  static let binary = EndToEndTests.binary
  static let binaryDirectory = URL(fileURLWithPath: binary).deletingLastPathComponent().path
  static let helpers = ["disckit-crosscheck", "disckit-mkv", "disckit-serve", "disckit-subtitles"]
  static let haveAll =
    EndToEndTests.haveBinary
    && helpers.allSatisfy {
      FileManager.default.isExecutableFile(atPath: binaryDirectory + "/" + $0)
    }
  /// The commands a user can type (ArgumentParser's own `help` is in the scripts too).
  static let commands = DiscKitCommand.configuration.subcommands.map {
    $0.configuration.commandName ?? ""
  }

  /// Whether `word` stands alone in `text` (not inside a longer name such as `titles` in
  /// `subtitles`).
  static func containsWord(_ text: String, _ word: String) -> Bool {
    let separators = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_-")).inverted
    return text.components(separatedBy: separators).contains(word)
  }

  @Test(.enabled(if: EndToEndTests.haveBinary, "needs the built disckit"))
  func completionScriptsNameEveryCommand() throws {
    #expect(Self.commands.contains("serve") && Self.commands.count >= 10)
    for shell in ["bash", "zsh", "fish"] {
      let script = try Tool.run(Self.binary, ["--generate-completion-script", shell])
      #expect(script.status == 0, "\(shell): \(script.stderr)")
      for command in Self.commands {
        #expect(Self.containsWord(script.text, command), "\(shell) completion lacks \(command)")
      }
    }
  }

  @Test(
    .enabled(
      if: haveAll && Tool.has("make") && Tool.has("python3"),
      "needs make, python3, the built disckit and its helper programs"))
  func installLaysOutProgramsCompletionsAndManPage() throws {
    let destination = try TemporaryDirectory()
    let run = try Tool.run(
      "make",
      [
        "-C", Fixtures.packageRoot.path, "install-files", "DESTDIR=" + destination.path,
        "PREFIX=/usr", "BIN=" + Self.binaryDirectory,
      ])
    #expect(run.status == 0, "\(run.stderr)")
    let usr = destination.path + "/usr"
    for program in ["disckit"] + Self.helpers {
      #expect(FileManager.default.isExecutableFile(atPath: usr + "/bin/" + program), "\(program)")
    }
    let scripts = [
      usr + "/share/bash-completion/completions/disckit",
      usr + "/share/zsh/site-functions/_disckit",
      usr + "/share/fish/vendor_completions.d/disckit.fish",
    ]
    for path in scripts {
      let text = try String(contentsOfFile: path, encoding: .utf8)
      for command in Self.commands {
        #expect(Self.containsWord(text, command), "\(path) lacks \(command)")
      }
    }
    if Tool.has("bash") {
      #expect(try Tool.run("bash", ["-n", scripts[0]]).status == 0, "bash syntax")
    }
    let page = try String(contentsOfFile: usr + "/share/man/man1/disckit.1", encoding: .utf8)
    #expect(page.hasPrefix(".TH \"DISCKIT\" \"1\""))
    for command in Self.commands where command != "help" {
      #expect(page.contains(".SS \"disckit \(command)\""), "man page lacks \(command)")
    }
    // Every option of every command, as --help shows it, is in the page.
    for command in Self.commands where command != "help" {
      let help = try Tool.run(Self.binary, ["help", command]).text
      let options = help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," })
        .filter { $0.hasPrefix("--") && $0.count > 2 && !["--help", "--version"].contains($0) }
      for option in Set(options) {
        let escaped = option.replacingOccurrences(of: "-", with: "\\-")
        #expect(page.contains(escaped), "man page lacks \(command) \(option)")
      }
    }
  }
}
