import ArgumentParser
import DiscKit

/// The `disckit` command tree.
public struct DiscKitCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "disckit",
    abstract: "Read Blu-ray and DVD disc images: list, inspect, scan and extract.",
    discussion: """
      IMAGE is an .iso image (UDF or ISO9660) or a folder holding BDMV/ or VIDEO_TS/.

      Errors are one line on stderr naming the structure and byte offset. Exit codes follow \
      sysexits(3): 0 ok, 64 usage, 65 malformed input, 66 cannot open input, 73 cannot create \
      output, 74 I/O error.
      """,
    version: DiscKitVersion.string,
    subcommands: [
      InfoCommand.self,
      ListCommand.self,
      CatCommand.self,
      TitlesCommand.self,
      ExtractCommand.self,
      ScanCommand.self,
      SegmentCommand.self,
      AuthorCommand.self,
      CrosscheckCommand.self,
      ServeCommand.self,
    ]
  )

  public init() {}
}

/// The version `disckit --version` prints.
public enum DiscKitVersion {
  public static let string = "0.1.0"
}
