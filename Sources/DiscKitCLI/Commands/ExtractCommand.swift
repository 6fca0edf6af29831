import ArgumentParser
import DiscKit
import DiscKitOutput

extension TitleTimeline: ExpressibleByArgument {}

/// Options of `disckit extract`.
struct ExtractOptions: ParsableArguments {
  @Flag(name: .long, help: "Extract the main title (the default).") var main = false
  @Option(name: .long, help: "Extract title N (as numbered by `disckit titles`).") var title: Int?
  @Option(name: .long, help: "Extract a Blu-ray playlist by number, e.g. 00800.") var playlist:
    String?
  @Option(name: .long, help: "Extract episode N (as `disckit titles` lists the episodes).")
  var episode: Int?
  @Flag(
    name: .long,
    help: "Extract every episode, one file each, into the directory -o names (made if missing).")
  var episodes = false
  @Option(name: .long, help: "Angle K (1-based) of a multi-angle title.") var angle: Int = 1
  @Option(name: .long, help: "Only chapters A-B (1-based, inclusive), e.g. 3-5 or 4.") var chapters:
    String?
  @Option(name: .shortAndLong, help: "Output file, or - for standard output.") var output: String
  @Flag(name: .long, help: "Overwrite the output file if it exists.") var force = false
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Also write the chapters (FFMETADATA1, times from the extracted stream's start) to FILE.",
      discussion: "Mux them with: ffmpeg -i title.m2ts -i FILE -map_metadata 1 -c copy title.mkv"))
  var chaptersFile: String?
  @Option(name: .long, help: "Main-title selection when extracting the main title.")
  var select: TitleSelection = .smart
  @Option(
    name: .long,
    help: ArgumentHelp(
      "continuous: one timeline for the whole title; original: the disc's timestamps.",
      discussion:
        "continuous rewrites PTS/DTS and PCR (DVD: SCR) so that play items (cells) follow each other; original is the disc's bytes unchanged (libbluray's bd_read)."
    ))
  var timeline: TitleTimeline = .continuous
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Output format: m2ts (the title's bytes as on the disc) or mkv (lossless Matroska).",
      discussion: "mkv is also chosen by an output name ending in .mkv; it needs disckit-mkv."))
  var format: ExtractFormat?
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Write the subtitle streams as text (vtt or srt), one file per stream into the folder -o.",
      discussion:
        "The pictures are read with Tesseract in each stream's language (disckit-subtitles); files are named by language, forced captions apart (eng.forced.vtt)."
    ))
  var subtitles: SubtitleFormat?
  @Flag(
    name: .long,
    help: ArgumentHelp(
      "With --format mkv: add each subtitle stream's recognised text as a track beside its pictures.",
      discussion:
        "S_TEXT/UTF8 tracks named \"(recognised text)\", read with Tesseract (disckit-mkv links it)."
    ))
  var textSubtitles = false

  /// Whether Matroska is asked for (`--format mkv`, or a `.mkv` output name without `--format`).
  var isMatroska: Bool {
    format == .mkv || (format == nil && output.lowercased().hasSuffix(".mkv"))
  }

  func validate() throws {
    let chosen = [main, title != nil, playlist != nil, episode != nil, episodes].filter { $0 }
      .count
    guard chosen <= 1 else {
      throw ValidationError("Choose one of --main, --title, --playlist, --episode and --episodes.")
    }
    try validateEpisodes()
    guard angle >= 1 else { throw ValidationError("--angle is 1-based.") }
    if let chapters { _ = try Self.parseChapters(chapters) }
    if subtitles != nil && (chaptersFile != nil || chapters != nil || output == "-") {
      throw ValidationError("--subtitles writes whole-title text files into the folder -o DIR.")
    }
    if textSubtitles && !isMatroska {
      throw ValidationError("--text-subtitles applies to --format mkv.")
    }
    if isMatroska && chaptersFile != nil {
      throw ValidationError(
        "--chapters-file applies to --format m2ts; a Matroska file holds its chapters.")
    }
  }

  /// Parses `A-B` or `A` into a 1-based inclusive range.
  static func parseChapters(_ text: String) throws -> ClosedRange<Int> {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
    switch parts.count {
    case 1: if let a = parts[0], a >= 1 { return a...a }
    case 2: if let a = parts[0], let b = parts[1], a >= 1, b >= a { return a...b }
    default: break
    }
    throw ValidationError("--chapters takes A-B or A (1-based), e.g. 3-5.")
  }
}

/// `disckit extract SOURCE -o FILE`.
struct ExtractCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "extract",
    abstract:
      "Write a title's bytes (Blu-ray M2TS or DVD MPEG program stream) to a file or stdout.",
    discussion: "The file is written atomically: on failure nothing is left behind.")

  @OptionGroup var image: ImageArgument
  @OptionGroup var options: ExtractOptions

  func run() throws {
    if let format = options.subtitles {
      try SubtitleExtraction.run(image: image, options: options, format: format)
      return
    }
    if options.episodes {
      try EpisodeExtraction.run(image: image, options: options)
      return
    }
    if options.isMatroska {
      try MatroskaExtraction.run(image: image, options: options)
      return
    }
    try reportingErrors {
      try Self.extract(try Disc(image: try image.open()), options: options)
    }
  }

  /// Writes the title the options choose (its chapter range, on its timeline) to the output,
  /// atomically, with a progress bar; and the chapter file when one is asked for.
  static func extract(_ disc: Disc, options: ExtractOptions) throws {
    try extract(title: try options.chosenTitle(in: disc), options: options)
  }

  /// Writes `title` as ``extract(_:options:)`` does.
  static func extract(title: DiscTitle, options: ExtractOptions) throws {
    let chapters = try options.chapters.map { try ExtractOptions.parseChapters($0) }
    let source =
      try chapters.map { try title.byteSource(timeline: options.timeline, chapters: $0) }
      ?? title.byteSource(timeline: options.timeline)
    if let path = options.chaptersFile {
      let list = ChapterFile.rebased(
        starts: title.chapters.map(\.start.ticks), durations: title.chapters.map(\.duration.ticks),
        range: chapters)
      try ChapterFile.write(ChapterFile.ffmetadata(list), to: path, overwrite: options.force)
    }
    let sink = try AtomicFileWriter(destination: options.output, overwrite: options.force)
    let bar = ProgressBar(
      total: sink.isStreaming ? 0 : source.size, label: "extract title \(title.key)")
    do {
      try source.copy(to: sink) { bar.update($0) }
      bar.finish()
      try sink.commit()
    } catch {
      bar.finish()
      sink.abort()
      throw error
    }
  }
}
