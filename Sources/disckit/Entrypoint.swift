import DiscKit
import DiscKitOutput
import DiscKitCLI

@main
struct Entrypoint {
  /// Synchronous: no command but `--batch` needs the concurrency runtime, whose threads would
  /// cost startup time (see `BlockingTask`).
  static func main() {
    // Named temporary output files are removed on SIGINT/SIGTERM/SIGHUP (installed lazily, by the
    // first such file: no system call at startup).
    TemporaryFileCleanup.enableSignalHandlers()
    // Subcommands served by a helper program (see HelperProgram) never reach the parser.
    HelperProgram.dispatchIfDelegated()
    // `titles`, `info`, `scan` and `--version` skip ArgumentParser when their arguments are plain.
    FastCommandLine.runIfUnderstood()
    DiscKitCommand.main()
  }
}
