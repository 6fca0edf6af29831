import ArgumentParser
import DiscKit
import DiscKitCLI

/// `disckit crosscheck SOURCE`, run by the helper program `disckit-crosscheck` (the only program
/// that links the C reference libraries): compares DiscKit with libudfread, libbluray and
/// libdvdread.
public struct CrosscheckCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "disckit crosscheck",
    abstract: CrosscheckArguments.abstract,
    discussion: CrosscheckArguments.discussion)

  @OptionGroup var arguments: CrosscheckArguments

  public init() {}

  public func run() throws {
    var differences: [String] = []
    try reportingErrors {
      let disc = try arguments.image.open()
      differences += try FileSystemCrosscheck.compare(
        disc: disc, compareBytes: !arguments.noBytes)
      switch disc.kind {
      case .bluray, .uhdBluray, .avchd: differences += try BlurayCrosscheck.compare(disc: disc)
      case .dvd: differences += try DVDCrosscheck.compare(disc: disc)
      case .data: break
      }
    }
    for line in differences { Output.line(line) }
    if differences.isEmpty {
      Output.line("crosscheck: no differences")
    } else {
      throw ExitCode.failure
    }
  }
}
