import DiscKit

/// What `disckit info` was asked to do, independent of how the command line was parsed
/// (``InfoCommand`` through ArgumentParser, or ``FastCommandLine``).
package struct InfoRequest: Equatable, Sendable {
  /// The disc image or folder.
  package var image: String
  /// `--json`.
  package var json = false

  package init(image: String) {
    self.image = image
  }

  /// Runs the command: prints the report; throws `ExitCode` on failure.
  package func run() throws {
    try reportingErrors {
      let disc = try DiscImage.open(path: image)
      let report = InfoDocument(image: disc)
      if json {
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
