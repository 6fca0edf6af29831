import DiscKitCLI

@main
struct Entrypoint {
  static func main() async {
    await DiscKitCommand.main()
  }
}
