import DiscKit
import DiscKitOutput
import DiscKitCLI
import DiscKitMedia

/// `disckit-mkv`: the helper program behind `disckit extract --format mkv` (see
/// `HelperProgram`). It is the only program that links libavformat; it runs the same command
/// line as `disckit`, with the Matroska writer plugged in.
@main
struct Entrypoint {
  static func main() {
    // Named temporary output files are removed on SIGINT/SIGTERM/SIGHUP.
    TemporaryFileCleanup.enableSignalHandlers()
    MatroskaExtraction.handler = { request, progress in
      var title = try MatroskaTitle(title: request.title)
      if let chapters = request.chapters { title = try title.chapters(chapters) }
      try MatroskaWriter.write(
        title, toPath: request.output, overwrite: request.force, progress: progress)
    }
    DiscKitCommand.main()
  }
}
