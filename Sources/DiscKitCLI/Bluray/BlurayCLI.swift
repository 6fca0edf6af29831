import DiscKit
import DiscKitOutput

/// The Blu-ray side of `disckit titles` and `disckit extract`.
enum BlurayCLI {
  // MARK: extract

  /// The title of `--main`/`--title`/`--playlist` (``TitleChoice``), at `--angle`.
  static func chooseTitle(_ disc: BlurayDisc, _ options: ExtractOptions) throws -> BlurayTitle {
    try disc.title(options.titleChoice, selection: options.select, angle: options.angle - 1)
  }

  static func extract(disc image: DiscImage, options: ExtractOptions) throws {
    let disc = try BlurayDisc(disc: image)
    let title = try chooseTitle(disc, options)
    if options.angle - 1 >= title.angleCount && options.angle > 1 {
      throw DiscKitError(
        .invalidArgument, "--angle", at: nil, "title \(title.name) has \(title.angleCount) angle(s)"
      )
    }
    let source = try title.byteSource(timeline: options.timeline)
    var range: Range<Int64> = 0..<source.size
    if let text = options.chapters {
      let chapters = try ExtractOptions.parseChapters(text)
      guard chapters.upperBound <= title.chapters.count else {
        throw DiscKitError(
          .invalidArgument, "--chapters", at: nil,
          "title \(title.name) has \(title.chapters.count) chapters")
      }
      let start = title.chapters[chapters.lowerBound - 1].offset
      let end =
        chapters.upperBound < title.chapters.count
        ? title.chapters[chapters.upperBound].offset : source.size
      range = min(start, source.size)..<min(max(end, start), source.size)
    }
    if let path = options.chaptersFile {
      let chapters = ChapterFile.rebased(
        starts: title.chapters.map { Int64($0.titleTime) * 2 },
        durations: title.chapters.map { Int64($0.duration) * 2 },
        range: try options.chapters.map { try ExtractOptions.parseChapters($0) })
      try ChapterFile.write(ChapterFile.ffmetadata(chapters), to: path, overwrite: options.force)
    }
    let sink = try AtomicFileWriter(destination: options.output, overwrite: options.force)
    let bar = ProgressBar(
      total: sink.isStreaming ? 0 : Int64(range.count), label: "extract \(title.name)")
    do {
      try source.copy(to: sink, range: range) { bar.update($0) }
      bar.finish()
      try sink.commit()
    } catch {
      bar.finish()
      sink.abort()
      throw error
    }
  }
}
