import ArgumentParser
import DiscKit

/// `disckit crosscheck SOURCE`: compares DiscKit with the C reference libraries.
struct CrosscheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "crosscheck",
    abstract: "Compare DiscKit's reading of an image with libudfread, libbluray and libdvdread.",
    discussion: """
      Prints every difference found (file list, sizes, file bytes; titles on Blu-ray and DVD). \
      Exits 0 when DiscKit and the references agree, 1 when they differ.
      """)

  @OptionGroup var image: ImageArgument
  @Flag(name: .long, help: "Do not compare file bytes (listing and sizes only).") var noBytes =
    false

  func run() throws {
    var differences: [String] = []
    try reportingErrors {
      let disc = try image.open()
      differences += try FileSystemCrosscheck.compare(disc: disc, compareBytes: !noBytes)
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
