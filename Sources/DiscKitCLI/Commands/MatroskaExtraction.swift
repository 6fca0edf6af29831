import ArgumentParser
import DiscKit

/// The output format of `disckit extract`.
enum ExtractFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// The title's bytes as on the disc (Blu-ray M2TS, DVD MPEG program stream).
  case m2ts
  /// A lossless Matroska file, written by the helper program `disckit-mkv`.
  case mkv
}

/// `disckit extract --format mkv`: the title chosen by the usual options, handed to a Matroska
/// writer that lives in the helper program `disckit-mkv` (the only program linking libavformat).
///
/// `disckit` itself has no ``handler``: it replaces itself with `disckit-mkv`, which sets one
/// and runs the same command line.
public struct MatroskaExtraction: Sendable {
  /// The title to write, at its angle.
  public var title: DiscTitle
  /// The output path (`-` for standard output).
  public var output: String
  /// Whether an existing file may be replaced.
  public var force: Bool
  /// Only these chapters (1-based, inclusive; `--chapters A-B`); `nil`: the whole title.
  public var chapters: ClosedRange<Int>?
  /// Whether the subtitle streams' recognised text goes in as text tracks (`--text-subtitles`).
  public var textSubtitles = false

  /// Writes one extraction; the second argument reports `(bytes read, total)` for the progress
  /// bar. Set by the `disckit-mkv` helper before it runs the command line.
  nonisolated(unsafe) public static var handler:
    ((MatroskaExtraction, _ progress: @escaping (Int64, Int64) -> Void) throws -> Void)?

  /// The helper program that writes Matroska.
  public static let helperProgram = "disckit-mkv"

  /// Runs `--format mkv` for `options` on `image`: in `disckit`, execs the helper (exit 69 when
  /// it is missing); in the helper, resolves the title and calls ``handler``.
  static func run(image: ImageArgument, options: ExtractOptions) throws {
    guard let handler else {
      HelperProgram.exec(
        helperProgram, arguments: Array(CommandLine.arguments.dropFirst()),
        purpose: "`disckit extract --format mkv`")
      throw ExitCode(HelperProgram.unavailableExitCode)
    }
    try reportingErrors {
      let title = try options.chosenTitle(in: try Disc(image: try image.open()))
      let request = MatroskaExtraction(
        title: title, output: options.output, force: options.force,
        chapters: try options.chapters.map { try ExtractOptions.parseChapters($0) },
        textSubtitles: options.textSubtitles)
      let bar = ProgressBar(
        total: options.output == "-" ? 0 : 1, label: "mkv title \(title.key)")
      do {
        // The title's bytes read so far, of its size.
        try handler(request) { done, total in bar.update(done, of: total) }
        bar.finish()
      } catch {
        bar.finish()
        throw error
      }
    }
  }
}
