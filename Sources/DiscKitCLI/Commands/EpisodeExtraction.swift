import ArgumentParser
import DiscKit
import DiscKitOutput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ExtractOptions {
  /// `--episode N` and `--episodes`: a positive number, a directory rather than stdout.
  func validateEpisodes() throws {
    if let episode, episode < 1 { throw ValidationError("--episode is 1-based.") }
    if episodes {
      if output == "-" { throw ValidationError("--episodes writes files into a directory, not -.") }
      if chaptersFile != nil {
        throw ValidationError("--chapters-file applies to one title, not --episodes.")
      }
      if chapters != nil {
        throw ValidationError("--chapters applies to one title, not --episodes.")
      }
    }
  }
}

/// `disckit extract SOURCE --episodes -o DIR`: every episode in a file of its own,
/// `DIR/e01.m2ts` (or `.mkv`), each from 0 with its own chapters, written atomically.
enum EpisodeExtraction {
  static func run(image: ImageArgument, options: ExtractOptions) throws {
    if options.isMatroska || options.format == .mkv, MatroskaExtraction.handler == nil {
      HelperProgram.exec(
        MatroskaExtraction.helperProgram, arguments: Array(CommandLine.arguments.dropFirst()),
        purpose: "`disckit extract --episodes --format mkv`")
      throw ExitCode(HelperProgram.unavailableExitCode)
    }
    try reportingErrors {
      let disc = try Disc(image: try image.open())
      let list = try disc.episodeList()
      guard list.episodic else {
        throw DiscKitError(
          .notFound, "episodes", at: nil, "the disc is not episodic: \(list.reason)")
      }
      let directory =
        options.output.hasSuffix("/") ? String(options.output.dropLast()) : options.output
      if mkdir(directory, 0o755) != 0 && errno != EEXIST {
        throw DiscKitError(
          .cannotCreate, directory, at: nil,
          "cannot create the directory: \(String(cString: strerror(errno)))")
      }
      let matroska = options.format == .mkv
      let width = max(2, String(list.episodes.count).count)
      for episode in list.episodes {
        let digits = String(episode.number)
        let name = "e" + String(repeating: "0", count: max(0, width - digits.count)) + digits
        var one = options
        one.episodes = false
        one.episode = episode.number
        one.output = directory + "/" + name + (matroska ? ".mkv" : ".m2ts")
        let title = try disc.title(episode: episode, angle: options.angle)
        if matroska, let handler = MatroskaExtraction.handler {
          let request = MatroskaExtraction(
            title: title, output: one.output, force: options.force, chapters: nil)
          let bar = ProgressBar(total: 1, label: "mkv episode \(episode.number)")
          do {
            try handler(request) { done, total in bar.update(done, of: total) }
            bar.finish()
          } catch {
            bar.finish()
            throw error
          }
        } else {
          try ExtractCommand.extract(title: title, options: one)
        }
      }
    }
  }
}
