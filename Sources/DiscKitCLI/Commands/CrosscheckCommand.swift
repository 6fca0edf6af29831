import ArgumentParser
import DiscKit

/// The arguments of `disckit crosscheck`, shared by the `disckit` entry (help only) and the
/// helper program `disckit-crosscheck` that does the work.
package struct CrosscheckArguments: ParsableArguments {
  package static let abstract =
    "Compare DiscKit's reading of an image with libudfread, libbluray and libdvdread."
  package static let discussion = """
    Prints every difference found (file list, sizes, file bytes; titles on Blu-ray and DVD). \
    Exits 0 when DiscKit and the references agree, 1 when they differ. Runs in the helper \
    program disckit-crosscheck (installed beside disckit), the only one linking the C \
    reference libraries; exit 69 when it is missing.
    """

  @OptionGroup package var image: ImageArgument
  @Flag(name: .long, help: "Do not compare file bytes (listing and sizes only).")
  package var noBytes = false

  package init() {}
}

/// `disckit crosscheck` as `disckit` knows it: listed in the help, while the command line itself
/// is handed to `disckit-crosscheck` before parsing (``HelperProgram/dispatchIfDelegated(_:)``).
/// Reached only when `disckit` is driven without that dispatch (as a library); it then runs the
/// helper the same way.
struct CrosscheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "crosscheck",
    abstract: CrosscheckArguments.abstract,
    discussion: CrosscheckArguments.discussion)

  @OptionGroup var arguments: CrosscheckArguments

  func run() throws {
    var forwarded = [arguments.image.image]
    if arguments.noBytes { forwarded.append("--no-bytes") }
    HelperProgram.exec("disckit-crosscheck", arguments: forwarded, purpose: "`disckit crosscheck`")
    throw ExitCode(HelperProgram.unavailableExitCode)
  }
}
