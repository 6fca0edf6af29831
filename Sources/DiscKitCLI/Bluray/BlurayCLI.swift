import DiscKit
import Foundation

/// The Blu-ray side of `disckit titles` and `disckit extract`.
enum BlurayCLI {
  // MARK: JSON model (schema in docs/bluray.md)

  struct StreamJSON: Codable {
    var pid: Int
    var codec: String
    var codingType: Int
    var format: String?
    var rate: String?
    var language: String?
  }

  struct StreamsJSON: Codable {
    var video: [StreamJSON]
    var audio: [StreamJSON]
    var pg: [StreamJSON]
    var ig: [StreamJSON]
    var secondaryAudio: Int
    var secondaryVideo: Int
  }

  struct ChapterJSON: Codable {
    var index: Int
    var start90k: UInt64
    var duration90k: UInt64
    var offset: Int64
  }

  struct ClipJSON: Codable {
    var clip: String
    var in90k: UInt64
    var out90k: UInt64
    var start90k: UInt64
    var stc: Int
    var connection: Int
    var startPacket: UInt32
    var endPacket: UInt32
    var size: Int64
    var angles: Int
  }

  struct TitleJSON: Codable {
    var index: Int?
    var playlist: String
    var duration90k: UInt64
    var duration: String
    var chapters: [ChapterJSON]
    var clips: [ClipJSON]
    var angles: Int
    var size: Int64
    var streams: StreamsJSON
    var main: Bool
    var excluded: String?
    var playedByTitles: [Int]
    var warnings: [String]?
  }

  struct ListJSON: Codable {
    var source: String
    var kind: String
    var selection: String
    var main: String?
    var reason: String
    var titles: [TitleJSON]
    var errors: [String]?
  }

  // MARK: Selection

  /// One row of the title list.
  struct Row {
    var file: BlurayDisc.PlaylistFile
    var index: Int?
    var excluded: String?
    var playedBy: [Int]
  }

  struct Listing {
    var rows: [Row]
    var main: String?
    var reason: String
  }

  static func navigationMap(_ disc: BlurayDisc) -> [Int: [Int]] { disc.navigationMap }

  static func listing(_ disc: BlurayDisc, selection: TitleSelection, all: Bool, minLength: Double?)
    throws -> Listing
  {
    let nav = navigationMap(disc)
    switch selection {
    case .libbluray:
      let flags: LibblurayTitleSelector.Flags = all ? .all : .relevant
      let result = LibblurayTitleSelector.select(
        disc.playlists.map { ($0.name, $0.playlist) }, flags: flags,
        minSeconds: UInt32(min(max(minLength.map { $0.isFinite ? $0 : 0 } ?? 0, 0), 4_000_000_000)))
      var rows: [Row] = []
      for (file, entry) in zip(disc.playlists.filter { !$0.name.hasPrefix(".") }, result.entries) {
        let reason: String? =
          switch entry.exclusion {
          case .none: nil
          case .unreadable: "unreadable"
          case .duplicate(let of): "duplicate of \(of)"
          case .repeatedSegments: "repeated segments"
          case .tooShort: "too short"
          }
        if reason != nil && !all { continue }
        rows.append(
          Row(
            file: file, index: entry.titleIndex.map { $0 + 1 }, excluded: reason,
            playedBy: nav[file.number] ?? []))
      }
      let main = result.titles.isEmpty ? nil : result.titles[result.mainTitle]
      return Listing(
        rows: rows, main: main,
        reason:
          "libbluray's main-title guess (nav_get_title_list, flags \(all ? "TITLES_ALL" : "TITLES_RELEVANT"))"
      )
    case .smart:
      let result = SmartTitleSelector.select(
        disc.playlists.map { .init(name: $0.name, number: $0.number, playlist: $0.playlist) },
        navigation: nav,
        minSeconds: minLength ?? 20, relaxMinimum: minLength == nil)
      var rows: [Row] = []
      var n = 0
      for (file, entry) in zip(disc.playlists, result.entries) {
        if entry.excluded == nil {
          n += 1
          rows.append(Row(file: file, index: n, excluded: nil, playedBy: entry.playedByTitles))
        } else if all {
          rows.append(
            Row(file: file, index: nil, excluded: entry.excluded, playedBy: entry.playedByTitles))
        }
      }
      return Listing(rows: rows, main: result.main, reason: result.reason)
    case .lsdvd:
      throw DiscKitError(
        .invalidArgument, "--select", at: nil,
        "lsdvd selection applies to DVDs; use smart or libbluray")
    }
  }

  // MARK: titles

  static func codecName(_ t: UInt8) -> String {
    switch t {
    case 0x01: "MPEG-1 video"
    case 0x02: "MPEG-2 video"
    case 0x1B: "H.264"
    case 0x20: "H.264 MVC"
    case 0x24: "HEVC"
    case 0xEA: "VC-1"
    case 0x03: "MPEG-1 audio"
    case 0x04: "MPEG-2 audio"
    case 0x80: "LPCM"
    case 0x81: "AC-3"
    case 0x82: "DTS"
    case 0x83: "TrueHD"
    case 0x84: "E-AC-3"
    case 0x85: "DTS-HD HRA"
    case 0x86: "DTS-HD MA"
    case 0xA1: "E-AC-3 (secondary)"
    case 0xA2: "DTS-HD (secondary)"
    case 0x90: "PGS"
    case 0x91: "IG"
    case 0x92: "Text subtitles"
    default: String(format: "0x%02X", t)
    }
  }

  static func videoFormat(_ f: UInt8) -> String? {
    ["", "480i", "576i", "480p", "1080i", "720p", "1080p", "576p", "2160p"].indices.contains(Int(f))
      ? ["", "480i", "576i", "480p", "1080i", "720p", "1080p", "576p", "2160p"][Int(f)] : nil
  }

  static func videoRate(_ r: UInt8) -> String? {
    let rates = ["", "23.976", "24", "25", "29.97", "", "50", "59.94"]
    return rates.indices.contains(Int(r)) && !rates[Int(r)].isEmpty ? rates[Int(r)] : nil
  }

  static func audioFormat(_ f: UInt8) -> String? {
    switch f {
    case 1: "mono"
    case 3: "stereo"
    case 6: "multichannel"
    case 12: "stereo+multichannel"
    default: nil
    }
  }

  static func audioRate(_ r: UInt8) -> String? {
    switch r {
    case 1: "48000"
    case 4: "96000"
    case 5: "192000"
    case 12: "48000/192000"
    case 14: "48000/96000"
    default: nil
    }
  }

  static func streamsJSON(_ pl: MoviePlaylist) -> StreamsJSON {
    let stn = pl.playItems.first?.streams ?? StreamNumberTable()
    func s(_ x: PlaylistStream) -> StreamJSON {
      var j = StreamJSON(
        pid: Int(x.pid), codec: codecName(x.codingType), codingType: Int(x.codingType))
      switch x.kind {
      case .video:
        j.format = videoFormat(x.format)
        j.rate = videoRate(x.rate)
      case .audio:
        j.format = audioFormat(x.format)
        j.rate = audioRate(x.rate)
        j.language = x.language
      default:
        j.language = x.language.isEmpty ? nil : x.language
      }
      return j
    }
    return StreamsJSON(
      video: stn.video.map(s), audio: stn.audio.map(s), pg: stn.presentationGraphics.map(s),
      ig: stn.interactiveGraphics.map(s), secondaryAudio: stn.secondaryAudio.count,
      secondaryVideo: stn.secondaryVideo.count)
  }

  static func clock(_ ticks90k: UInt64) -> String {
    let seconds = ticks90k / 90000
    return String(
      format: "%d:%02d:%02d.%03d", seconds / 3600, (seconds / 60) % 60, seconds % 60,
      (ticks90k % 90000) / 90)
  }

  static func titleJSON(_ disc: BlurayDisc, _ row: Row, main: String?) -> TitleJSON? {
    guard let pl = row.file.playlist else {
      return TitleJSON(
        index: nil, playlist: row.file.name, duration90k: 0, duration: clock(0), chapters: [],
        clips: [], angles: 0,
        size: 0,
        streams: StreamsJSON(
          video: [], audio: [], pg: [], ig: [], secondaryAudio: 0, secondaryVideo: 0),
        main: false, excluded: row.excluded ?? "unreadable", playedByTitles: row.playedBy,
        warnings: row.file.error.map { ["\($0)"] })
    }
    let title: BlurayTitle
    do {
      title = try BlurayTitle(disc: disc, name: row.file.name, playlist: pl)
    } catch {
      return TitleJSON(
        index: row.index, playlist: row.file.name, duration90k: UInt64(pl.duration45k) * 2,
        duration: clock(UInt64(pl.duration45k) * 2), chapters: [], clips: [], angles: pl.angleCount,
        size: 0,
        streams: streamsJSON(pl), main: row.file.name == main, excluded: row.excluded,
        playedByTitles: row.playedBy,
        warnings: ["\(error)"])
    }
    return TitleJSON(
      index: row.index, playlist: row.file.name, duration90k: title.duration90k,
      duration: clock(title.duration90k),
      chapters: title.chapters.map {
        ChapterJSON(
          index: $0.index + 1, start90k: UInt64($0.titleTime) * 2,
          duration90k: UInt64($0.duration) * 2, offset: $0.offset)
      },
      clips: title.clips.map {
        ClipJSON(
          clip: $0.clipID, in90k: UInt64($0.inTime) * 2, out90k: UInt64($0.outTime) * 2,
          start90k: UInt64($0.titleTime) * 2, stc: Int($0.stcID),
          connection: Int($0.connectionCondition),
          startPacket: $0.startPacket, endPacket: $0.endPacket, size: $0.byteCount,
          angles: pl.playItems[$0.index].angleCount)
      },
      angles: title.angleCount, size: title.size, streams: streamsJSON(pl),
      main: row.file.name == main,
      excluded: row.excluded, playedByTitles: row.playedBy,
      warnings: title.warnings.isEmpty ? nil : title.warnings)
  }

  static func titles(disc image: DiscImage, options: TitlesOptions) throws {
    let disc = try BlurayDisc(disc: image)
    let list = try listing(
      disc, selection: options.select, all: options.all, minLength: options.minLength)
    let titles = list.rows.compactMap { titleJSON(disc, $0, main: list.main) }
    if options.output.json {
      let errors = disc.warnings
      Output.line(
        try Output.json(
          ListJSON(
            source: image.path, kind: image.kind.rawValue, selection: options.select.rawValue,
            main: list.main,
            reason: list.reason, titles: titles, errors: errors.isEmpty ? nil : errors)))
      return
    }
    Output.line("Main title: \(list.main ?? "none") (\(list.reason))")
    for t in titles {
      let a = t.streams
      var line = String(
        format: "%@ %@  %@  chapters %3d  clips %3d  angles %d  %8.1f MiB  V:%d A:%d PG:%d IG:%d",
        t.index.map { String(format: "%3d", $0) } ?? "  -", t.playlist, t.duration,
        t.chapters.count, t.clips.count,
        t.angles, Double(t.size) / 1_048_576, a.video.count, a.audio.count, a.pg.count, a.ig.count)
      if t.main { line += "  [main]" }
      if !t.playedByTitles.isEmpty {
        let names = t.playedByTitles.map { $0 == 0 ? "first play" : "title \($0)" }
        line += "  played by " + names.joined(separator: ", ")
      }
      if let excluded = t.excluded { line += "  (\(excluded))" }
      Output.line(line)
    }
  }

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
    let list = try listing(disc, selection: select, all: false, minLength: nil)
    if let n = title {
      guard let row = list.rows.first(where: { $0.index == n }) else {
        throw DiscKitError(.notFound, "title \(n)", at: nil, "no such title (see `disckit titles`)")
      }
      return try disc.title(playlist: row.file.name, angle: angle)
    }
    guard let main = list.main else {
      throw DiscKitError(.notFound, "main title", at: nil, "the disc has no titles")
    }
    return try disc.title(playlist: main, angle: angle)
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
