extension DiscTitle {
  /// The title's bytes on the chosen timeline: ``BlurayTitle/byteSource(timeline:)`` or
  /// ``DVDDisc/byteSource(title:angle:chapters:timeline:)-(Int,_,_,_)``. `.original` is
  /// ``byteSource()``.
  public func byteSource(timeline: TitleTimeline) throws(DiscKitError) -> any ByteSource {
    switch content {
    case .bluray(let title): try title.byteSource(timeline: timeline)
    case .dvd(let title, let disc):
      try disc.byteSource(title: title, angle: angle, timeline: timeline)
    }
  }

  /// The bytes of chapters `chapters` (1-based, inclusive; ``chapters``' numbers) on `timeline`,
  /// as `disckit extract --chapters A-B` writes them.
  ///
  /// On a Blu-ray they are the title's bytes from chapter A's playback start to chapter B + 1's
  /// ``Chapter/offset`` (the title's end after the last chapter), cut from
  /// ``byteSource(timeline:)``: the PAT/PMT/PCR packets before chapter A's random access point
  /// come first, exactly as libbluray's `bd_read` returns them after `bd_seek_chapter`, and on the
  /// continuous timeline they move with the clip they belong to (the whole source is on one
  /// timeline, the title's). On a DVD they are the bytes of the chapters' cells
  /// (``DVDDisc/byteSource(title:angle:chapters:)-(Int,_,_)``) cut from
  /// ``byteSource(timeline:)``, so on the continuous timeline too they keep the title's
  /// timestamps.
  ///
  /// - Throws: ``DiscKitError/Code/invalidArgument`` when the title has no chapter A or B.
  public func byteSource(timeline: TitleTimeline, chapters range: ClosedRange<Int>)
    throws(DiscKitError) -> any ByteSource
  {
    switch content {
    case .bluray(let title):
      let list = title.chapters
      guard range.lowerBound >= 1, range.upperBound <= list.count else {
        throw DiscKitError(
          .invalidArgument, "chapters \(range.lowerBound)-\(range.upperBound)", at: nil,
          "title \(title.name) has \(list.count) chapters")
      }
      let whole = try byteSource(timeline: timeline)
      let first = list[range.lowerBound - 1]
      let found = try title.playbackStart(atRandomAccessPoint: first.offset)
      let start = PlaybackStart(
        time: MediaTime(ticks45k: first.titleTime), offset: found.offset, prefix: found.prefix,
        keyframeTime: MediaTime(ticks45k: first.titleTime))
      let end = range.upperBound < list.count ? list[range.upperBound].offset : whole.size
      return try cut(
        whole, from: start, to: end,
        structure: "title \(key) chapters \(range.lowerBound)-\(range.upperBound)")
    case .dvd(let title, let disc):
      let cells = try title.cells(angle: angle, chapters: range)
      let whole = try disc.byteSource(title: title, angle: angle)
      // The chapters' cells follow the cells of the chapters before them in the title's bytes.
      let before = title.cells(
        angle: angle, in: 0..<title.chapters[range.lowerBound - 1].cellRange.lowerBound
      ).count
      let from = before < whole.cellStarts.count ? whole.cellStarts[before] : whole.size
      let after = before + cells.count
      let to = after < whole.cellStarts.count ? whole.cellStarts[after] : whole.size
      let source = timeline == .original ? whole : try byteSource(timeline: timeline)
      return try cut(
        source,
        from: PlaybackStart(
          time: MediaTime(ticks: title.chapters[range.lowerBound - 1].start90k), offset: from,
          prefix: [], keyframeTime: MediaTime(ticks: title.chapters[range.lowerBound - 1].start90k)),
        to: to,
        structure: "title \(key) chapters \(range.lowerBound)-\(range.upperBound)")
    }
  }
}
