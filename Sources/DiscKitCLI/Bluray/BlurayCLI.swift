import DiscKit
import Foundation

/// The Blu-ray side of `disckit titles` and `disckit extract`.
enum BlurayCLI {
  // MARK: extract

  static func chooseTitle(_ disc: BlurayDisc, _ options: ExtractOptions) throws -> BlurayTitle {
    try chooseTitle(
      disc, playlist: options.playlist, title: options.title, angle: options.angle,
      select: options.select)
  }

  /// The title named by `--playlist` or `--title` (1-based), else the main title; `angle` is 1-based.
  static func chooseTitle(
    _ disc: BlurayDisc, playlist: String?, title: Int?, angle oneBasedAngle: Int,
    select: TitleSelection
  ) throws -> BlurayTitle {
    let angle = oneBasedAngle - 1
    if let playlist {
      let number = Int(playlist.prefix(while: \.isNumber)) ?? -1
      guard let file = disc.playlistFile(named: playlist) ?? disc.playlistFile(number: number)
      else {
        throw DiscKitError(
          .notFound, "playlist \(playlist)", at: nil, "no such playlist on the disc")
      }
      return try disc.title(playlist: file.name, angle: angle)
    }
    let list = try TitleList(bluray: disc, selection: select)
    if let n = title {
      guard let entry = list.entries.first(where: { $0.number == n }) else {
        throw DiscKitError(.notFound, "title \(n)", at: nil, "no such title (see `disckit titles`)")
      }
      return try disc.title(playlist: entry.key + ".mpls", angle: angle)
    }
    guard let main = list.mainKey else {
      throw DiscKitError(.notFound, "main title", at: nil, "the disc has no titles")
    }
    return try disc.title(playlist: main + ".mpls", angle: angle)
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
