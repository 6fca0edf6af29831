import ArgumentParser
import DiscKit

/// `disckit info IMAGE`.
struct InfoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "info",
    abstract: "Show the file system, UDF revision, volume label, size and disc kind.")

  @OptionGroup var image: ImageArgument
  @OptionGroup var output: JSONFlag

  func run() throws {
    try reportingErrors {
      let disc = try image.open()
      let report = InfoDocument(image: disc)
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
