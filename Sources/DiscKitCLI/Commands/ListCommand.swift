import ArgumentParser
import DiscKit

/// `disckit ls IMAGE [PATH]`.
struct ListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ls",
    abstract: "List the files of a disc image or folder.",
    discussion: "Paths are absolute from the image root. Directories end with / in text output.")

  @OptionGroup var image: ImageArgument
  @Argument(help: "The directory to list (default /).") var path: String = "/"
  @Flag(name: [.short, .long], help: "List every file and directory below PATH.") var recursive =
    false
  @OptionGroup var output: JSONFlag

  func run() throws {
    try reportingErrors {
      let disc = try image.open()
      let listing = try ListingDocument(image: disc, path: path, recursive: recursive)
      if output.json {
        Output.line(try Output.json(listing))
      } else {
        for entry in listing.entries {
          let size = entry.isDirectory ? "" : String(entry.size)
          Output.line(
            String(repeating: " ", count: max(0, 14 - size.count)) + size + "  " + entry.path
              + (entry.isDirectory ? "/" : ""))
        }
      }
    }
  }
}
