extension BlurayDisc {
  /// The episodes (``BlurayEpisodeFinder``), from the navigation runs, the structure and, when
  /// they can change the answer (``BlurayEpisodeFinder/MenuReading``), the menus the navigation
  /// shows (read through ``menus``, each clip's once per disc).
  ///
  /// - Parameters:
  ///   - main: the main title's playlist number, when the caller knows it.
  ///   - reading: when the menus are read.
  package func episodeFinding(
    main: Int?, reading: BlurayEpisodeFinder.MenuReading = .whenTheyCanChange
  ) -> BlurayEpisodeFinder.Found {
    BlurayEpisodeFinder.find(self, runs: navigationRuns(), main: main, reading: reading) {
      menuRuns().runs
    }.found
  }

  /// The public list of what ``BlurayEpisodeFinder`` found.
  package func episodeList(_ found: BlurayEpisodeFinder.Found) -> EpisodeList {
    var episodes: [Episode] = []
    // Each playlist's title built once (the episodes of a play-all are ranges of one).
    var titles: [Int: BlurayTitle?] = [:]
    for (index, item) in found.items.enumerated() {
      let key = TitleKeyText.five(item.playlist)
      var chapters: [Int] = []
      if titles[item.playlist] == nil {
        titles[item.playlist] = playlistFile(number: item.playlist).flatMap { file in
          try? BlurayTitle(
            disc: self, name: file.name, playlist: file.playlist ?? MoviePlaylist(playItems: []))
        }
      }
      if let title = titles[item.playlist] ?? nil {
        chapters = title.chapters.filter {
          item.whole || ($0.titleTime >= item.start && $0.titleTime < item.end)
        }.map { $0.index + 1 }
      }
      episodes.append(
        Episode(
          number: index + 1, key: key, start90k: Int64(item.start) * 2,
          end90k: Int64(item.end) * 2, chapters: chapters,
          variants: item.variants.map { TitleKeyText.five($0) },
          evidence: item.evidence.map { TitleEvidence(kind: item.kind, key: key, detail: $0) }))
    }
    return EpisodeList(
      layout: found.layout, confidence: found.confidence, reason: found.reason,
      episodes: episodes, playAll: found.playAll.map { TitleKeyText.five($0) },
      extras: found.extras.map { TitleKeyText.five($0) },
      candidates: found.candidates.map { $0.map { TitleKeyText.five($0) } })
  }

  /// An episode as a title of its own: the whole playlist, or the play items of its range of
  /// the playlist that holds it, trimmed to the range, its chapters those of the range (a first
  /// one at its start), starting at the random access point of its start moved back over the
  /// PSI packets before it and ending at the one of its end, so it plays from 0 on both
  /// timelines. Sub-paths (out-of-mux streams) are left out of a range.
  package func episodeTitle(_ episode: Episode, angle: Int) throws(DiscKitError) -> BlurayTitle {
    guard let number = Int(episode.key), let file = playlistFile(number: number),
      let playlist = file.playlist
    else {
      throw DiscKitError(
        .notFound, "playlist \(episode.key)", at: nil, "no such playlist on the disc")
    }
    let holder = try BlurayTitle(disc: self, name: file.name, playlist: playlist, angle: angle)
    let start = UInt32(clamping: episode.start90k / 2)
    let end = UInt32(clamping: episode.end90k / 2)
    if start == 0 && end >= holder.duration45k { return holder }
    var items: [PlayItem] = []
    var kept: [Int: Int] = [:]  // holder item → episode item
    var trimmedEnd = false
    var firstIndex: Int?
    var firstTrimmed = false
    for (i, item) in playlist.playItems.enumerated() {
      let s = holder.clips[i].titleTime
      let e = s &+ item.duration45k
      let lo = max(start, s)
      let hi = min(end, e)
      guard hi > lo else { continue }
      var copy = item
      copy.inTime = item.inTime &+ (lo - s)
      copy.outTime = item.inTime &+ (hi - s)
      copy.streams = Self.inMux(item.streams)
      if firstIndex == nil {
        firstIndex = i
        firstTrimmed = lo > s
        copy.connectionCondition = 1
      }
      trimmedEnd = hi < e
      kept[i] = items.count
      items.append(copy)
    }
    guard let first = firstIndex else {
      throw DiscKitError(
        .invalidArgument, "episode \(episode.number)", at: nil,
        "its range is outside playlist \(episode.key)")
    }
    var marks: [PlaylistMark] = []
    for mark in playlist.marks {
      guard let j = kept[Int(mark.playItemRef)] else { continue }
      let item = items[j]
      guard mark.time >= item.inTime, mark.time < item.outTime else { continue }
      var copy = mark
      copy.playItemRef = UInt16(j)
      marks.append(copy)
    }
    if !marks.contains(where: { $0.isEntry && $0.playItemRef == 0 && $0.time == items[0].inTime }) {
      marks.insert(PlaylistMark(playItemRef: 0, time: items[0].inTime), at: 0)
    }
    var cut = MoviePlaylist(
      version: playlist.version, playbackType: playlist.playbackType, playItems: items,
      marks: marks)
    cut.randomAccessFlag = playlist.randomAccessFlag
    // The first packet: the random access point of the start, moved back over its PSI.
    let clip = holder.clips[first]
    var startPacket = clip.startPacket
    let at = firstTrimmed ? holder.byteOffset(forTitleTime: UInt64(start) * 2) : clip.titleOffset
    if let info = clipInformation(clip.clipID) {
      if firstTrimmed {
        startPacket = info.titleLookupPacket(
          pts45k: items[0].inTime, before: true, stcID: clip.stcID)
      }
      if let found = try? holder.playbackStart(atRandomAccessPoint: at) {
        let packet =
          Int64(clip.startPacket) + (found.offset - clip.titleOffset) / 192
          - Int64(found.prefix.count / 192)
        if packet >= 0 && packet <= Int64(startPacket) { startPacket = UInt32(packet) }
      }
    }
    return try BlurayTitle(
      disc: self, name: file.name, playlist: cut, angle: angle,
      cut: .init(firstStartPacket: startPacket, endsAtCut: trimmedEnd))
  }

  /// A stream number table without the streams of sub-paths.
  static func inMux(_ table: StreamNumberTable) -> StreamNumberTable {
    var t = table
    let keep: (PlaylistStream) -> Bool = { $0.entryType == 1 }
    t.video = t.video.filter(keep)
    t.audio = t.audio.filter(keep)
    t.presentationGraphics = t.presentationGraphics.filter(keep)
    t.interactiveGraphics = t.interactiveGraphics.filter(keep)
    t.secondaryAudio = t.secondaryAudio.filter(keep)
    t.secondaryVideo = t.secondaryVideo.filter(keep)
    t.dolbyVision = t.dolbyVision.filter(keep)
    return t
  }
}
