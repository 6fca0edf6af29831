import ArgumentParser
import DiscKit
import DiscKitOutput

/// `disckit cat IMAGE PATH [-o FILE]`.
struct CatCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cat",
    abstract: "Write one file of a disc image to standard output or to a file.")

  @OptionGroup var image: ImageArgument
  @Argument(help: "The file inside the image, e.g. /BDMV/index.bdmv.") var path: String
  @Option(name: .shortAndLong, help: "Write to FILE (atomically) instead of standard output.")
  var output: String = "-"
  @Flag(name: .long, help: "Overwrite FILE if it exists.") var force = false

  func run() throws {
    try reportingErrors {
      let disc = try image.open()
      let file = try disc.fileSystem.openFile(atPath: path)
      let writer = try AtomicFileWriter(destination: output, overwrite: force)
      let bar = ProgressBar(total: writer.isStandardOutput ? 0 : file.size, label: "cat")
      try file.copy(to: writer) { bar.update($0) }
      try writer.commit()
      bar.finish()
    }
  }
}
