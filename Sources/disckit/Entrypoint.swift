import DiscKitCLI

@main
struct Entrypoint {
  static func main() async {
    // Subcommands served by a helper program (see HelperProgram) never reach the parser.
    HelperProgram.dispatchIfDelegated()
    await DiscKitCommand.main()
  }
}
