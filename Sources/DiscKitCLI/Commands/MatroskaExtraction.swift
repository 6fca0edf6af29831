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
  /// The title to write.
  public enum Source: Sendable {
    /// A Blu-ray title (its chosen angle).
    case bluray(BlurayTitle)
    /// A DVD title and its 1-based angle.
    case dvd(DVDDisc, title: Int, angle: Int)
  }

  /// The title to write.
  public var source: Source
  /// The output path (`-` for standard output).
  public var output: String
  /// Whether an existing file may be replaced.
  public var force: Bool
  /// Only these chapters (1-based, inclusive; `--chapters A-B`); `nil`: the whole title.
  public var chapters: ClosedRange<Int>?

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
      let disc = try image.open()
      let source: Source
      switch disc.kind {
      case .bluray, .uhdBluray, .avchd:
        let bluray = try BlurayDisc(disc: disc)
        let title = try BlurayCLI.chooseTitle(bluray, options)
        if options.angle > title.angleCount {
          throw DiscKitError(
            .invalidArgument, "--angle", at: nil,
            "title \(title.name) has \(title.angleCount) angle(s)")
        }
        source = .bluray(title)
      case .dvd:
        if options.playlist != nil {
          throw DiscKitError(
            .invalidArgument, disc.path, at: nil,
            "--playlist applies to Blu-ray; use --title on a DVD")
        }
        let dvd = try DVDDisc(fileSystem: disc.fileSystem)
        guard let number = try dvd.titleNumber(options.titleChoice, selection: options.select)
        else {
          throw DiscKitError(.notFound, disc.path, at: nil, "no main title found")
        }
        source = .dvd(dvd, title: number, angle: options.angle)
      case .data:
        throw DiscKitError(
          .unsupported, disc.path, at: nil,
          "neither BDMV/index.bdmv nor VIDEO_TS/VIDEO_TS.IFO found")
      }
      let request = MatroskaExtraction(
        source: source, output: options.output, force: options.force,
        chapters: try options.chapters.map { try ExtractOptions.parseChapters($0) })
      let name: String
      switch source {
      case .bluray(let title): name = title.name
      case .dvd(_, let title, _): name = "title \(title)"
      }
      let bar = ProgressBar(
        total: options.output == "-" ? 0 : 1, label: "mkv \(name)")
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
