import DiscKit
import DiscKitOutput

/// The DVD side of `disckit titles` and `disckit extract`.
enum DVDCLI {
  static func extract(disc image: DiscImage, options: ExtractOptions) throws {
    if options.playlist != nil {
      throw DiscKitError(
        .invalidArgument, image.path, at: nil, "--playlist applies to Blu-ray; use --title on a DVD"
      )
    }
    let disc = try DVDDisc(fileSystem: image.fileSystem)
    guard let number = try disc.titleNumber(options.titleChoice, selection: options.select) else {
      throw DiscKitError(.notFound, image.path, at: nil, "no main title found")
    }
    let chapters = try options.chapters.map { try ExtractOptions.parseChapters($0) }
    let source = try disc.byteSource(
      title: number, angle: options.angle, chapters: chapters, timeline: options.timeline)
    if let path = options.chaptersFile {
      let title = try disc.title(number)
      let list = ChapterFile.rebased(
        starts: title.chapters.map(\.start90k), durations: title.chapters.map(\.duration90k),
        range: chapters)
      try ChapterFile.write(ChapterFile.ffmetadata(list), to: path, overwrite: options.force)
    }
    let writer = try AtomicFileWriter(destination: options.output, overwrite: options.force)
    let progress = ProgressBar(total: source.size, label: "title \(number)")
    do {
      try source.copy(to: writer, progress: { progress.update($0) })
      try writer.commit()
    } catch {
      writer.abort()
      progress.finish()
      throw error
    }
    progress.finish()
  }
}
