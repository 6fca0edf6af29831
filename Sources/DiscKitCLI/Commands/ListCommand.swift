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

  /// The JSON shape of `disckit ls --json`.
  struct Listing: Codable, Equatable {
    struct Entry: Codable, Equatable {
      var path: String
      var size: Int64
      var isDirectory: Bool
    }
    var entries: [Entry]
  }

  static func listing(of disc: DiscImage, path: String, recursive: Bool) throws(DiscKitError)
    -> Listing
  {
    let fs = disc.fileSystem
    let entry = try fs.entry(atPath: path)
    let entries: [DiscFileEntry]
    if !entry.isDirectory {
      entries = [entry]
    } else if recursive {
      entries = try fs.recursiveContents(atPath: entry.path)
    } else {
      entries = try fs.contentsOfDirectory(atPath: entry.path)
    }
    return Listing(
      entries: entries.map { .init(path: $0.path, size: $0.size, isDirectory: $0.isDirectory) })
  }

  func run() throws {
    try reportingErrors {
      let disc = try image.open()
      let listing = try Self.listing(of: disc, path: path, recursive: recursive)
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
