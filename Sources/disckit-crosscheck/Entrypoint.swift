import DiscKitCrosscheck

/// `disckit-crosscheck`: the helper program behind `disckit crosscheck` (see `HelperProgram`).
@main
struct Entrypoint {
  static func main() {
    CrosscheckCommand.main()
  }
}
