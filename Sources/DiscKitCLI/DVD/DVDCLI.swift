import DiscKit
import Foundation

/// The DVD side of `disckit titles` and `disckit extract`.
enum DVDCLI {
  /// JSON of `disckit titles --json` on a DVD (schema in docs/dvd.md).
  struct Listing: Encodable {
    var kind = "dvd"
    var selection: String
    var mainTitle: Int?
    var reason: String
    var titles: [TitleJSON]
  }

  struct ChapterJSON: Encodable {
    var chapter: Int
    var start90k: Int64
    var duration90k: Int64
    var firstCell: Int
  }

  struct StreamJSON: Encodable {
    var codec: String
    var language: String?
    var channels: Int?
    var streamId: Int
  }

  struct VideoJSON: Encodable {
    var format: String
    var aspect: String
    var width: Int
    var height: Int
  }

  struct TitleJSON: Encodable {
    var title: Int
    var vts: Int
    var ttn: Int
    var duration90k: Int64?
    var lsdvdLengthMs: Int?
    var chapters: [ChapterJSON]
    var cells: Int
    var angles: Int
    var audio: [StreamJSON]
    var subtitles: [StreamJSON]
    var video: VideoJSON?
    var sizeBytes: Int64?
    var main: Bool
    var reason: String?
    var error: String?
  }

  /// The bytes a player reads for the title's first angle: the cells' sector ranges, except in an
  /// interleaved angle block, where only that angle's interleaved units count (needs the VOBs;
  /// without them the whole block's range is counted).
  static func playedSize(_ disc: DVDDisc, _ title: DVDTitle) -> Int64 {
    guard title.cells(angle: 1).contains(where: \.isInterleavedAngleCell),
      let source = try? disc.byteSource(title: title.number)
    else { return title.sizeBytes }
    return source.size
  }

  static func selection(_ disc: DVDDisc, _ mode: TitleSelection) -> (Int?, String, [Int: String]) {
    switch mode {
    case .lsdvd:
      let report = LsdvdTitleSelector.report(disc)
      let listed = Set(report.tracks.map(\.number))
      var aside: [Int: String] = [:]
      for n in 1...max(1, disc.titles.count) where n <= disc.titles.count && !listed.contains(n) {
        aside[n] = "lsdvd skips it (title set or first PGC unreadable)"
      }
      let main = report.longestTrack == 0 ? nil : report.longestTrack
      return (
        main, "lsdvd's longest track: first title with the greatest first-PGC playback time", aside
      )
    case .smart, .libbluray:
      let s = DVDSmartTitleSelector.select(disc)
      return (s.title, s.reason, s.setAside)
    }
  }

  static func titles(disc image: DiscImage, options: TitlesOptions) throws {
    let disc = try DVDDisc(fileSystem: image.fileSystem)
    let list = listing(disc, options: options)
    let (main, reason, rows) = (list.mainTitle, list.reason, list.titles)
    if options.output.json {
      Output.line(try Output.json(list))
      return
    }
    printText(rows, main: main, reason: reason, options: options)
  }

  /// The document of `disckit titles --json` on a DVD.
  static func listing(_ disc: DVDDisc, options: TitlesOptions) -> Listing {
    let (main, reason, aside) = selection(disc, options.select)
    var rows: [TitleJSON] = []
    for (index, result) in disc.titles.enumerated() {
      let number = index + 1
      let entry = disc.videoManager.titles.titles[index]
      let isMain = number == main
      if !options.all && !isMain && aside[number] != nil { continue }
      switch result {
      case .success(let t):
        if let min = options.minLength, Double(t.duration90k) / 90_000 < min, !isMain { continue }
        rows.append(
          TitleJSON(
            title: number, vts: t.titleSet, ttn: t.titleInSet, duration90k: t.duration90k,
            lsdvdLengthMs: t.lsdvdMilliseconds,
            chapters: t.chapters.map {
              ChapterJSON(
                chapter: $0.number, start90k: $0.start90k, duration90k: $0.duration90k,
                firstCell: $0.firstCell)
            },
            cells: t.cells(angle: 1).count, angles: t.angleCount,
            audio: t.audio.map {
              StreamJSON(
                codec: $0.codec, language: $0.language, channels: $0.channels, streamId: $0.streamID
              )
            },
            subtitles: t.subpictures.map {
              StreamJSON(
                codec: $0.codec, language: $0.language, channels: nil, streamId: $0.streamID)
            },
            video: VideoJSON(
              format: t.video.formatName, aspect: t.video.aspectName, width: t.video.width,
              height: t.video.height),
            sizeBytes: playedSize(disc, t), main: isMain, reason: aside[number], error: nil))
      case .failure(let error):
        rows.append(
          TitleJSON(
            title: number, vts: entry.titleSet, ttn: entry.titleInSet, duration90k: nil,
            lsdvdLengthMs: nil, chapters: [],
            cells: 0, angles: entry.angleCount, audio: [], subtitles: [], video: nil,
            sizeBytes: nil, main: isMain,
            reason: aside[number], error: "\(error)"))
      }
    }
    return Listing(
      selection: options.select.rawValue, mainTitle: main, reason: reason, titles: rows)
  }

  static func printText(
    _ rows: [TitleJSON], main: Int?, reason: String, options: TitlesOptions
  ) {
    for row in rows {
      var line = "title \(row.title)\(row.main ? " (main)" : ""): vts \(row.vts) ttn \(row.ttn)"
      if let d = row.duration90k {
        line +=
          ", \(DVDSmartTitleSelector.format(d)), \(row.chapters.count) chapters, \(row.cells) cells, \(row.angles) angle\(row.angles == 1 ? "" : "s")"
      }
      if let v = row.video { line += ", \(v.format) \(v.aspect)" }
      if !row.audio.isEmpty {
        line +=
          ", audio "
          + row.audio.map { "\($0.codec)/\($0.channels ?? 0)ch/\($0.language ?? "und")" }.joined(
            separator: " ")
      }
      if !row.subtitles.isEmpty {
        line += ", subtitles " + row.subtitles.map { $0.language ?? "und" }.joined(separator: " ")
      }
      if let size = row.sizeBytes { line += ", \(size) bytes" }
      if let error = row.error { line += ", error: \(error)" }
      if let why = row.reason { line += " [set aside: \(why)]" }
      Output.line(line)
    }
    Output.line(
      "main title: \(main.map(String.init) ?? "none") (\(options.select.rawValue): \(reason))")
  }

  static func extract(disc image: DiscImage, options: ExtractOptions) throws {
    if options.playlist != nil {
      throw DiscKitError(
        .invalidArgument, image.path, at: nil, "--playlist applies to Blu-ray; use --title on a DVD"
      )
    }
    let disc = try DVDDisc(fileSystem: image.fileSystem)
    let number: Int
    if let title = options.title {
      number = title
    } else {
      let (main, _, _) = selection(disc, options.select)
      guard let main else {
        throw DiscKitError(.notFound, image.path, at: nil, "no main title found")
      }
      number = main
    }
    let chapters = try options.chapters.map { try ExtractOptions.parseChapters($0) }
    let source = try disc.byteSource(title: number, angle: options.angle, chapters: chapters)
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
