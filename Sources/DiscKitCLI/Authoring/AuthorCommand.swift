import ArgumentParser
import DiscKit
import DiscKitAuthoring

extension UDFImageWriter.Revision: ExpressibleByArgument {}

/// `disckit author FOLDER -o disc.iso`: wraps a folder (a BDMV tree, or anything) into a UDF image.
struct AuthorCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "author",
    abstract: "Write a folder (a BDMV tree, or anything) as a UDF 2.50/2.60 disc image.",
    discussion: """
      The image uses the Blu-ray layout: a read-only physical partition holding the file data, and \
      a Metadata Partition (with its mirror) holding the file set, the directories and the file \
      entries. Files larger than 1 GiB are recorded in several extents. Holes in sparse source \
      files stay holes in the image. Directory entries are sorted by name.

      The image is written to a temporary file beside the output and renamed at the end: on any \
      failure (an unreadable or vanished source file, a name longer than UDF's 255 bytes, a volume \
      past 8 TiB) nothing is left behind.
      """)

  @Argument(help: "The folder to record, e.g. a disc folder holding BDMV/ and CERTIFICATE/.")
  var folder: String

  @Option(name: .shortAndLong, help: "The image file to write.")
  var output: String

  @Option(name: .long, help: "UDF revision: 2.50 (as BD-ROM) or 2.60.")
  var udf: UDFImageWriter.Revision = .udf250

  @Option(name: .long, help: "Volume label (default: the folder's name).")
  var label: String?

  @Flag(name: .long, help: "Overwrite the output file if it exists.")
  var force = false

  @OptionGroup var format: JSONFlag

  /// The summary printed after writing.
  struct Summary: Codable, Equatable {
    var image: String
    var udfRevision: String
    var volumeLabel: String
    var files: Int
    var directories: Int
    var dataBytes: Int64
    var imageBytes: Int64
  }

  func run() throws {
    try reportingErrors {
      let summary = try Self.author(
        folder: folder, output: output, revision: udf, label: label, force: force,
        showProgress: true)
      if format.json {
        Output.line(try Output.json(summary))
      } else {
        Output.line(
          "\(summary.image): UDF \(summary.udfRevision) \"\(summary.volumeLabel)\", \(summary.files) files, "
            + "\(summary.directories) directories, \(summary.imageBytes) bytes")
      }
    }
  }

  /// Plans and writes the image; shared with the tests.
  static func author(
    folder: String, output: String, revision: UDFImageWriter.Revision, label: String?, force: Bool,
    showProgress: Bool = false
  ) throws(DiscKitError) -> Summary {
    let writer = try UDFImageWriter(
      folder: folder, options: .init(revision: revision, volumeLabel: label))
    let bar = showProgress ? ProgressBar(total: writer.dataBytes, label: "author") : nil
    defer { bar?.finish() }
    try writer.write(to: output, overwrite: force) { done, _ in bar?.update(done) }
    return Summary(
      image: output, udfRevision: revision.rawValue, volumeLabel: writer.volumeLabel,
      files: writer.fileCount,
      directories: writer.directoryCount, dataBytes: writer.dataBytes, imageBytes: writer.imageSize)
  }
}
