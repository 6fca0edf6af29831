import ArgumentParser
import DiscKit

/// The text format of `disckit extract --subtitles`.
public enum SubtitleFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// WebVTT.
  case vtt
  /// SubRip.
  case srt
}

/// `disckit extract --subtitles vtt|srt -o DIR`: the title's subtitle streams recognised as text
/// by the helper program `disckit-subtitles` (the only program linking libtesseract), one file
/// per stream in DIR.
///
/// `disckit` itself has no ``handler``: it replaces itself with `disckit-subtitles`, which sets
/// one and runs the same command line.
public struct SubtitleExtraction: Sendable {
  /// The title, at its angle.
  public var title: DiscTitle
  /// The text format.
  public var format: SubtitleFormat
  /// The folder the files go to (created when missing).
  public var directory: String
  /// Whether existing files may be replaced.
  public var force: Bool
  /// The timeline the cue times are on.
  public var timeline: TitleTimeline

  /// Writes the files; returns the lines to print (one per stream: file or why none). Set by the
  /// `disckit-subtitles` helper before it runs the command line.
  nonisolated(unsafe) public static var handler: ((SubtitleExtraction) throws -> [String])?

  /// The helper program that recognises subtitles.
  public static let helperProgram = "disckit-subtitles"

  /// Runs `--subtitles` for `options` on `image`: in `disckit`, execs the helper (exit 69 when
  /// it is missing); in the helper, resolves the title and calls ``handler``.
  static func run(image: ImageArgument, options: ExtractOptions, format: SubtitleFormat) throws {
    guard let handler else {
      HelperProgram.exec(
        helperProgram, arguments: Array(CommandLine.arguments.dropFirst()),
        purpose: "`disckit extract --subtitles`")
      throw ExitCode(HelperProgram.unavailableExitCode)
    }
    try reportingErrors {
      let title = try options.chosenTitle(in: try Disc(image: try image.open()))
      let request = SubtitleExtraction(
        title: title, format: format, directory: options.output, force: options.force,
        timeline: options.timeline)
      for line in try handler(request) { Output.line(line) }
    }
  }
}
