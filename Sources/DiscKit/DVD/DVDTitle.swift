/// A title of a DVD: its chapters, cells, streams and durations, built from the video manager's
/// title entry and its title set's IFO.
///
/// The cells are those of the chapters in part-of-title order: chapter *k* starts at the entry
/// cell of its program and runs to the entry cell of the next chapter when that one is a later
/// program of the same PGC, otherwise to the end of the PGC. All cells of angle blocks are kept
/// here; ``cells(angle:)`` picks one angle.
@_spi(Formats)
public struct DVDTitle: Sendable {
  /// 1-based title number on the disc.
  public var number: Int
  /// The title set (VTS) and the title's number within it.
  public var titleSet: Int
  /// The title's number within its title set (1-based).
  public var titleInSet: Int
  /// Angles declared in the title search table.
  public var angleCount: Int
  /// Chapters declared in the title search table.
  public var declaredChapterCount: Int
  /// The distinct PGCs the chapters use, in order.
  public var programChains: [Int]
  /// The first chapter's PGC (the one lsdvd measures).
  public var firstProgramChain: DVDProgramChain
  /// The chapters.
  package var chapters: [DVDChapter]
  /// Every cell in playback order (all angles).
  public var cells: [DVDTitleCell]
  /// Video attributes of the title set.
  public var video: DVDVideoAttributes
  /// Audio and subpicture streams enabled by the first PGC.
  public var audio: [DVDStream]
  /// Subpicture streams enabled by the first PGC.
  public var subpictures: [DVDStream]
  /// Duration as lsdvd measures it: the first PGC's BCD playback time, in lsdvd's milliseconds.
  public var lsdvdMilliseconds: Int
  /// Duration as the sum of the PGCs' playback times, in 90 kHz ticks.
  public var programChainDuration90k: Int64
  /// Duration as the sum of the cells (first angle of angle blocks), in 90 kHz ticks.
  public var duration90k: Int64

  /// Builds title `number` from its title search entry and its title set.
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` when the part-of-title table has no such title,
  ///   a chapter names a missing PGC or program, or a program map points past the cell table.
  public init(number: Int, entry: DVDTitleSearchTable.Entry, titleSet vts: DVDTitleSetInfo)
    throws(DiscKitError)
  {
    self.number = number
    titleSet = entry.titleSet
    titleInSet = entry.titleInSet
    angleCount = entry.angleCount
    declaredChapterCount = entry.partCount
    let pttName = vts.fileName + " VTS_PTT_SRPT"
    guard entry.titleInSet >= 1, entry.titleInSet <= vts.partsOfTitles.titles.count else {
      throw DiscKitError(
        .malformed, "VIDEO_TS.IFO TT_SRPT", at: entry.offset,
        "title \(number) is title \(entry.titleInSet) of VTS \(entry.titleSet), which has \(vts.partsOfTitles.titles.count) titles"
      )
    }
    let parts = vts.partsOfTitles.titles[entry.titleInSet - 1]
    guard let firstPart = parts.first else {
      throw DiscKitError(
        .malformed, pttName, at: nil, "title \(entry.titleInSet) of the set has no chapters")
    }
    firstProgramChain = try vts.programChains.programChain(firstPart.programChain)
    var chapters: [DVDChapter] = []
    var cells: [DVDTitleCell] = []
    var pgcs: [Int] = []
    var start: Int64 = 0
    for (index, part) in parts.enumerated() {
      let pgc = try vts.programChains.programChain(part.programChain)
      if !pgcs.contains(part.programChain) { pgcs.append(part.programChain) }
      guard let map = pgc.programMap, let playback = pgc.cellPlayback else {
        throw DiscKitError(
          .malformed, pttName, at: pgc.offset,
          "chapter \(index + 1) uses PGC \(part.programChain), which has no program map or cell table"
        )
      }
      guard part.program >= 1, part.program <= map.count else {
        throw DiscKitError(
          .malformed, pttName, at: pgc.offset,
          "chapter \(index + 1) starts at program \(part.program) of PGC \(part.programChain), which has \(map.count) programs"
        )
      }
      let first = Int(map[part.program - 1])
      guard first >= 1, first <= playback.count else {
        throw DiscKitError(
          .malformed, vts.fileName + " program map",
          at: (pgc.programMapOffset ?? pgc.offset) + Int64(part.program - 1),
          "program \(part.program) of PGC \(part.programChain) enters at cell \(first), past the \(playback.count)-cell table"
        )
      }
      var end = playback.count + 1
      if index + 1 < parts.count, parts[index + 1].programChain == part.programChain,
        parts[index + 1].program > part.program, parts[index + 1].program <= map.count
      {
        end = min(playback.count + 1, max(first + 1, Int(map[parts[index + 1].program - 1])))
      }
      let lower = cells.count
      var duration: Int64 = 0
      for c in first..<end {
        let cell = playback[c - 1]
        cells.append(
          DVDTitleCell(programChain: part.programChain, cell: c, chapter: index + 1, playback: cell)
        )
        if cell.countsForDuration { duration += cell.playbackTime.ticks90k }
      }
      chapters.append(
        DVDChapter(
          number: index + 1, programChain: part.programChain, program: part.program,
          firstCell: first,
          start90k: start, duration90k: duration, cellRange: lower..<cells.count))
      start += duration
    }
    self.chapters = chapters
    self.cells = cells
    programChains = pgcs
    duration90k = start
    var pgcTotal: Int64 = 0
    for n in pgcs {
      pgcTotal += (try? vts.programChains.programChain(n).playbackTime.ticks90k) ?? 0
    }
    programChainDuration90k = pgcTotal
    lsdvdMilliseconds = firstProgramChain.playbackTime.lsdvdMilliseconds
    video = vts.video
    let pgc = firstProgramChain
    audio = pgc.enabledAudioStreams.map { slot in
      let a = vts.audio[slot]
      var stream = DVDStream(
        kind: .audio, slot: slot, streamID: a.baseStreamID + Int((pgc.audioControl[slot] >> 8) & 7),
        codec: a.codec,
        channels: a.channels, rawLanguage: a.languageCode, codeExtension: Int(a.codeExtension))
      stream.sampleRate = a.sampleRate
      stream.bitDepth = a.bitDepth
      return stream
    }
    let shift: UInt32 = vts.video.displayAspectRatio == 0 ? 24 : 8
    subpictures = pgc.enabledSubpictureStreams.map { slot in
      let s = vts.subpictures[slot]
      return DVDStream(
        kind: .subpicture, slot: slot,
        streamID: 0x20 + Int((pgc.subpictureControl[slot] >> shift) & 0x1f),
        codec: "vobsub", channels: nil, rawLanguage: s.languageCode,
        codeExtension: Int(s.codeExtension))
    }
  }

  /// The cells played for `angle` (1-based): outside angle blocks every cell, inside an angle
  /// block the block's `angle`-th cell (its first when the block has fewer cells).
  public func cells(angle: Int) -> [DVDTitleCell] {
    cells(angle: angle, in: 0..<cells.count)
  }

  /// The cells played for `angle` among `range` (indices into ``cells``).
  public func cells(angle: Int, in range: Range<Int>) -> [DVDTitleCell] {
    var result: [DVDTitleCell] = []
    var i = range.lowerBound
    while i < range.upperBound {
      let cell = cells[i]
      guard cell.playback.isInAngleBlock else {
        result.append(cell)
        i += 1
        continue
      }
      var block: [DVDTitleCell] = [cell]
      block[0].angle = 1
      var j = i + 1
      if cell.playback.blockMode != 3 {
        while j < range.upperBound, cells[j].playback.isInAngleBlock,
          cells[j].playback.blockMode != 1
        {
          var member = cells[j]
          member.angle = block.count + 1
          block.append(member)
          j += 1
          if block.last?.playback.blockMode == 3 { break }
        }
      }
      result.append(angle >= 1 && angle <= block.count ? block[angle - 1] : block[0])
      i = j
    }
    return result
  }

  /// The cells of chapters `chapters` (1-based, inclusive) for `angle`.
  ///
  /// - Throws: ``DiscKitError/Code/invalidArgument`` for chapters or an angle the title lacks.
  public func cells(angle: Int, chapters range: ClosedRange<Int>?) throws(DiscKitError)
    -> [DVDTitleCell]
  {
    guard angle >= 1, angle <= max(1, angleCount) else {
      throw DiscKitError(
        .invalidArgument, "title \(number)", at: nil,
        "angle \(angle) requested, the title has \(angleCount)")
    }
    guard let range else { return cells(angle: angle) }
    guard range.lowerBound >= 1, range.upperBound <= chapters.count else {
      throw DiscKitError(
        .invalidArgument, "title \(number)", at: nil,
        "chapters \(range.lowerBound)-\(range.upperBound) requested, the title has \(chapters.count)"
      )
    }
    let lower = chapters[range.lowerBound - 1].cellRange.lowerBound
    let upper = chapters[range.upperBound - 1].cellRange.upperBound
    return cells(angle: angle, in: lower..<max(lower, upper))
  }

  /// Chapters `range` (1-based, inclusive) as a title of their own: their cells, the chapters
  /// numbered from 1 and starting at 0, the duration theirs (an episode that is a chapter range
  /// of the title). The title keeps its number and title set; ``lsdvdMilliseconds`` is the
  /// range's length.
  ///
  /// - Throws: ``DiscKitError/Code/invalidArgument`` for chapters the title lacks.
  package func cut(chapters range: ClosedRange<Int>) throws(DiscKitError) -> DVDTitle {
    guard range.lowerBound >= 1, range.upperBound <= chapters.count else {
      throw DiscKitError(
        .invalidArgument, "title \(number)", at: nil,
        "chapters \(range.lowerBound)-\(range.upperBound) requested, the title has \(chapters.count)"
      )
    }
    var copy = self
    let lower = chapters[range.lowerBound - 1].cellRange.lowerBound
    let upper = max(lower, chapters[range.upperBound - 1].cellRange.upperBound)
    copy.cells = cells[lower..<upper].map {
      var cell = $0
      cell.chapter -= range.lowerBound - 1
      return cell
    }
    var start: Int64 = 0
    copy.chapters = chapters[(range.lowerBound - 1)..<range.upperBound].map {
      var chapter = $0
      chapter.number -= range.lowerBound - 1
      chapter.start90k = start
      chapter.cellRange =
        (chapter.cellRange.lowerBound - lower)..<(chapter.cellRange.upperBound - lower)
      start += chapter.duration90k
      return chapter
    }
    copy.declaredChapterCount = range.count
    copy.duration90k = start
    copy.programChainDuration90k = start
    copy.lsdvdMilliseconds = Int(start / 90)
    var chains: [Int] = []
    for cell in copy.cells where !chains.contains(cell.programChain) {
      chains.append(cell.programChain)
    }
    copy.programChains = chains
    return copy
  }

  /// PGC `number` of the title's title set as a title of its own: its cells from its first
  /// program's entry cell, one chapter per program (from 1 and from 0), the duration its cells'.
  /// For an episode that is a PGC no chapter of the title names (reached by `LinkPGCN`); the
  /// title keeps its number, title set and streams.
  ///
  /// - Throws: the PGC's parse error, ``DiscKitError/Code/malformed`` when it has no programs
  ///   or cells or a program enters past its cell table.
  package func programChainTitle(_ number: Int, in vts: DVDTitleSetInfo) throws(DiscKitError)
    -> DVDTitle
  {
    let pgc = try vts.programChains.programChain(number)
    guard let map = pgc.programMap, let playback = pgc.cellPlayback, !map.isEmpty,
      !playback.isEmpty
    else {
      throw DiscKitError(
        .malformed, vts.fileName + " PGC \(number)", at: pgc.offset,
        "the PGC has no program map or cell table")
    }
    var cells: [DVDTitleCell] = []
    var chapters: [DVDChapter] = []
    var start: Int64 = 0
    for (index, entry) in map.enumerated() {
      let first = Int(entry)
      guard first >= 1, first <= playback.count else {
        throw DiscKitError(
          .malformed, vts.fileName + " program map",
          at: (pgc.programMapOffset ?? pgc.offset) + Int64(index),
          "program \(index + 1) of PGC \(number) enters at cell \(first), past the \(playback.count)-cell table"
        )
      }
      let next = index + 1 < map.count ? Int(map[index + 1]) : playback.count + 1
      let end = min(playback.count + 1, max(first + 1, next))
      let lower = cells.count
      var duration: Int64 = 0
      for c in first..<end {
        let cell = playback[c - 1]
        cells.append(
          DVDTitleCell(programChain: number, cell: c, chapter: index + 1, playback: cell))
        if cell.countsForDuration { duration += cell.playbackTime.ticks90k }
      }
      chapters.append(
        DVDChapter(
          number: index + 1, programChain: number, program: index + 1, firstCell: first,
          start90k: start, duration90k: duration, cellRange: lower..<cells.count))
      start += duration
    }
    var copy = self
    copy.cells = cells
    copy.chapters = chapters
    copy.declaredChapterCount = chapters.count
    copy.programChains = [number]
    copy.firstProgramChain = pgc
    copy.duration90k = start
    copy.programChainDuration90k = start
    copy.lsdvdMilliseconds = Int(start / 90)
    return copy
  }

  /// Bytes of the first angle's cells (`Σ (last − first + 1) × 2048`). For cells of an
  /// interleaved angle block this counts the block's whole sector range (every angle's ILVUs);
  /// the bytes actually played are ``DVDTitleByteSource/size``.
  public var sizeBytes: Int64 {
    cells(angle: 1).reduce(Int64(0)) { $0 + ($1.playback.sectorCount ?? 0) * 2048 }
  }
}
