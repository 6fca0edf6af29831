import ArgumentParser
import DiscKit

/// `disckit info IMAGE`.
struct InfoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "info",
    abstract: "Show the file system, UDF revision, volume label, size and disc kind.")

  @OptionGroup var image: ImageArgument
  @OptionGroup var output: JSONFlag

  /// The JSON shape of `disckit info --json`.
  struct Report: Codable, Equatable {
    var path: String
    var fileSystem: String
    var udfRevision: String?
    var volumeLabel: String
    var imageSize: Int64?
    var discKind: String
    var notes: [String]?
  }

  static func report(for disc: DiscImage) -> Report {
    // Lenient UDF reads (deviations libudfread tolerates) are found by opening every file entry.
    let notes = disc.notes + ((disc.fileSystem as? UDFFileSystem)?.checkDeviations() ?? [])
    return Report(
      path: disc.path, fileSystem: disc.fileSystem.kind.rawValue,
      udfRevision: disc.fileSystem.revision,
      volumeLabel: disc.fileSystem.volumeLabel, imageSize: disc.source?.size,
      discKind: disc.kind.rawValue, notes: notes.isEmpty ? nil : notes)
  }

  func run() throws {
    try reportingErrors {
      let disc = try image.open()
      let report = Self.report(for: disc)
      if output.json {
        Output.line(try Output.json(report))
      } else {
        Output.line(
          "File system:  \(report.fileSystem)\(report.udfRevision.map { " \($0)" } ?? "")")
        Output.line("Volume label: \(report.volumeLabel)")
        if let size = report.imageSize { Output.line("Image size:   \(size) bytes") }
        Output.line("Disc kind:    \(report.discKind)")
        for note in report.notes ?? [] { Output.line("Note:         \(note)") }
      }
    }
  }
}
