/// A playlist read as a title: its clip ranges (as libbluray computes them), chapters, size,
/// timeline and seek tables, and its bytes as one seekable source.
///
/// All values are immutable; ``byteSource()`` returns a `Sendable` source safe for any number of
/// concurrent readers (positional reads, no shared cursor).
@_spi(Formats)
public struct BlurayTitle: Sendable {
  /// One play item's clip range.
  public struct Clip: Sendable, Hashable {
    /// The play item index.
    public var index: Int
    /// The clip actually read (for the chosen angle).
    public var clipID: String
    /// The stream file, e.g. `00012.m2ts`.
    public var streamFileName: String
    /// The angle used for this item (0 when the item has fewer angles than asked for).
    public var angle: Int
    /// In/out time in the clip (45 kHz).
    public var inTime: UInt32
    /// `OUT_time` in the clip (45 kHz).
    public var outTime: UInt32
    /// STC sequence id.
    public var stcID: UInt8
    /// Connection condition (1 non-seamless, 5/6 seamless).
    public var connectionCondition: UInt8
    /// First and end (exclusive) source packet in the stream file.
    public var startPacket: UInt32
    /// The end (exclusive) source packet, looked up in the EP map at `OUT_time`; 0 without clip
    /// information.
    public var endPacket: UInt32
    /// The first packet of this clip in the title.
    public var titlePacket: UInt32
    /// The title time where this clip starts (45 kHz, libbluray's wrapping uint32 sum).
    public var titleTime: UInt32
    /// Whether clip information was found (without it the range is empty, as in libbluray).
    public var hasClipInformation: Bool

    /// ``inTime`` on the 90 kHz clock.
    public var inTime90k: UInt64 { UInt64(MediaTime(ticks45k: inTime).ticks) }
    /// ``outTime`` on the 90 kHz clock.
    public var outTime90k: UInt64 { UInt64(MediaTime(ticks45k: outTime).ticks) }
    /// ``titleTime`` on the 90 kHz clock.
    public var titleTime90k: UInt64 { UInt64(MediaTime(ticks45k: titleTime).ticks) }
    /// Still mode and time of the play item.
    public var stillMode: UInt8
    /// The play item's `still_time`, in seconds (still mode 1).
    public var stillTime: UInt16

    /// Packets in the range.
    public var packetCount: UInt32 { endPacket &- startPacket }
    /// `out - in` (45 kHz, wrapping like libbluray).
    public var duration: UInt32 { outTime &- inTime }
    /// The first byte of the range in the title.
    public var titleOffset: Int64 { Int64(titlePacket) * 192 }
    /// The range's byte length.
    public var byteCount: Int64 { Int64(packetCount) * 192 }
  }

  /// A chapter (entry mark), as libbluray computes it (the public form is ``DiscTitle/Chapter``).
  package struct Chapter: Sendable, Hashable {
    /// 0-based chapter index.
    package var index: Int
    /// The mark's play item.
    package var playItem: Int
    /// Start and duration in title time (45 kHz, as libbluray computes them).
    package var titleTime: UInt32
    /// ``titleTime`` on the 90 kHz clock.
    package var titleTime90k: UInt64 { UInt64(MediaTime(ticks45k: titleTime).ticks) }
    /// The chapter's duration (45 kHz): the mark's `duration`, or, when that is 0, the time to the
    /// next entry mark or to the end of the title.
    package var duration: UInt32
    /// The random access point of the mark in the title (packets): libbluray's `title_pkt`.
    package var titlePacket: UInt32
    /// The byte offset of that point (`titlePacket * 192`, libbluray's `chapter.offset`).
    package var offset: Int64 { Int64(titlePacket) * 192 }
  }

  /// The disc this title comes from.
  public let disc: BlurayDisc
  /// The playlist file name, e.g. `00800.mpls`.
  public let name: String
  /// The parsed playlist.
  public let playlist: MoviePlaylist
  /// The angle read (0-based, after falling back to 0 when out of range).
  public let angle: Int
  /// The number of angles (max over play items).
  public let angleCount: Int
  /// The clip ranges, one per play item.
  public let clips: [Clip]
  /// The chapters.
  package let chapters: [Chapter]
  /// The duration (45 kHz, libbluray's wrapping uint32 sum).
  public let duration45k: UInt32
  /// Total packets (libbluray's uint32 `title->packets`).
  public let packets: UInt32
  /// Problems that did not prevent building the title (e.g. an item whose in-time is after its out-time).
  public let warnings: [TitleWarning]

  /// The duration in 90 kHz ticks.
  public var duration90k: UInt64 { UInt64(MediaTime(ticks45k: duration45k).ticks) }
  /// The title size in bytes: `Σ packets × 192` (= libbluray's `bd_get_title_size`).
  public var size: Int64 { clips.reduce(Int64(0)) { $0 + $1.byteCount } }
  /// Every clip's segment.

  /// Builds a title (libbluray's `nav_title_open` + `_extrapolate_title`).
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` when an entry mark refers to a play item that does not
  ///   exist (libbluray reads out of bounds there).
  public init(disc: BlurayDisc, name: String, playlist: MoviePlaylist, angle requested: Int = 0)
    throws(DiscKitError)
  {
    try self.init(disc: disc, name: name, playlist: playlist, angle: requested, cut: nil)
  }

  /// How a title cut from another one (an episode inside a play-all) reads its edges.
  package struct Cut: Sendable, Hashable {
    /// The first play item's first packet in its stream file (a random access point moved back
    /// over the PSI packets before it), instead of libbluray's packet 0.
    package var firstStartPacket: UInt32
    /// The last play item's out-time is a cut inside the clip (the next episode's start): its
    /// range ends at the random access point at or before it, not after it.
    package var endsAtCut: Bool

    package init(firstStartPacket: UInt32, endsAtCut: Bool) {
      self.firstStartPacket = firstStartPacket
      self.endsAtCut = endsAtCut
    }
  }

  /// A title as ``init(disc:name:playlist:angle:)`` builds it, with its edges read as `cut`
  /// says (`nil`: as libbluray reads a playlist).
  package init(
    disc: BlurayDisc, name: String, playlist: MoviePlaylist, angle requested: Int, cut: Cut?
  ) throws(DiscKitError) {
    self.disc = disc
    self.name = name
    self.playlist = playlist
    var warnings: [TitleWarning] = []
    var clips: [Clip] = []
    var pos: UInt32 = 0
    var time: UInt32 = 0
    let angle = max(0, requested)
    for (i, item) in playlist.playItems.enumerated() {
      let clipAngle = angle < item.angleCount ? angle : 0
      let ref = item.clips[clipAngle]
      var clip = Clip(
        index: i, clipID: ref.clipID, streamFileName: ref.streamFileName, angle: clipAngle,
        inTime: item.inTime,
        outTime: item.outTime, stcID: ref.stcID, connectionCondition: item.connectionCondition,
        startPacket: 0,
        endPacket: 0, titlePacket: pos, titleTime: time, hasClipInformation: false,
        stillMode: item.stillMode,
        stillTime: item.stillTime)
      if !item.hasValidTimes {
        warnings.append(.invalidTimes(playItem: i, inTime: item.inTime, outTime: item.outTime))
      }
      if let info = disc.clipInformation(ref.clipID) {
        clip.hasClipInformation = true
        if let cut, i == 0 {
          clip.startPacket = cut.firstStartPacket
        } else if item.connectionCondition == 5 || item.connectionCondition == 6 || i == 0 {
          clip.startPacket = 0
        } else {
          clip.startPacket = info.titleLookupPacket(
            pts45k: item.inTime, before: true, stcID: ref.stcID)
        }
        let cutEnd = cut?.endsAtCut == true && i == playlist.playItems.count - 1
        clip.endPacket = info.titleLookupPacket(
          pts45k: item.outTime, before: cutEnd, stcID: ref.stcID)
        pos = pos &+ (clip.endPacket &- clip.startPacket)
      } else {
        warnings.append(.missingClipInformation(clipID: ref.clipID))
      }
      time = time &+ item.duration45k
      if clip.endPacket < clip.startPacket {
        warnings.append(
          .endBeforeStart(playItem: i, startPacket: clip.startPacket, endPacket: clip.endPacket))
      }
      clips.append(clip)
    }
    let angleCount = playlist.angleCount
    self.angleCount = angleCount
    self.angle = angle >= angleCount ? 0 : angle
    self.clips = clips
    self.duration45k = time
    self.packets = pos

    var chapters: [Chapter] = []
    var previous: Int?
    for (m, mark) in playlist.marks.enumerated() where mark.isEntry {
      let ref = Int(mark.playItemRef)
      guard ref < clips.count else {
        throw DiscKitError(
          .malformed, "MPLS PlayListMark \(m) of \(name)", at: nil,
          "refers to play item \(ref), but the playlist has \(clips.count)")
      }
      let clip = clips[ref]
      var clipPacket = clip.startPacket
      if let info = disc.clipInformation(clip.clipID) {
        clipPacket = info.titleLookupPacket(pts45k: mark.time, before: true, stcID: clip.stcID)
      }
      let titlePacket = clip.titlePacket &+ clipPacket &- clip.startPacket
      let titleTime = clip.titleTime &+ mark.time &- clip.inTime
      var chapter = Chapter(
        index: chapters.count, playItem: ref, titleTime: titleTime, duration: 0,
        titlePacket: titlePacket)
      if mark.duration != 0 {
        chapter.duration = mark.duration
      } else if let p = previous, chapters[p].duration == 0 {
        chapters[p].duration = titleTime &- chapters[p].titleTime
      }
      chapters.append(chapter)
      previous = chapters.count - 1
    }
    if let p = previous, chapters[p].duration == 0 {
      chapters[p].duration = time &- chapters[p].titleTime
    }
    self.chapters = chapters
    self.warnings = warnings
  }

  // MARK: Bytes

  /// The title's bytes: the concatenation of every clip range of the chosen angle.
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` when a stream file is missing, and
  ///   ``DiscKitError/Code/truncated`` when it is shorter than its clip range (libbluray stops
  ///   reading there; DiscKit refuses to build a source that would end early).
  public func byteSource() throws(DiscKitError) -> ConcatenatedByteSource {
    var extents: [ConcatenatedByteSource.Extent] = []
    var files: [String: any ByteSource] = [:]
    for clip in clips where clip.packetCount > 0 && clip.endPacket > clip.startPacket {
      let path = "/BDMV/STREAM/" + clip.streamFileName
      let file: any ByteSource
      if let cached = files[path] {
        file = cached
      } else {
        file = try disc.fileSystem.openFile(atPath: path)
        files[path] = file
      }
      let start = Int64(clip.startPacket) * 192
      let end = Int64(clip.endPacket) * 192
      guard end <= file.size else {
        throw DiscKitError(
          .truncated, path, at: file.size,
          "clip range ends at byte \(end) (packet \(clip.endPacket)), but the file has \(file.size) bytes"
        )
      }
      extents.append(
        ConcatenatedByteSource.Extent(source: file, offset: start, length: end - start))
    }
    return try ConcatenatedByteSource(extents, structure: "title \(name)")
  }

  /// The title's bytes on the chosen timeline.
  ///
  /// `.original` is ``byteSource()``. `.continuous` rewrites every PES PTS/DTS and PCR of play
  /// item `k` to `t - in_k + start_k + base` (modulo 2^33; `start_k` = the item's title time,
  /// `base` = the first item's in-time; see ``timestampShifts``), so the title plays as one
  /// timeline. At each join between play items the continuity counters of every PID are
  /// renumbered to follow on, and the packets of a PES cut by a clip range's edge become null
  /// packets (`joins(of:shifts:)`). A title whose items already follow each other (one clip,
  /// or seamless clips cut from one stream) is byte-identical to `.original`. Positional and
  /// stateless like ``byteSource()``.
  public func byteSource(timeline: TitleTimeline) throws(DiscKitError) -> any ByteSource {
    let original = try byteSource()
    guard timeline == .continuous else { return original }
    let shifts = timestampShifts
    let joins = try joins(of: original, shifts: shifts)
    guard shifts.contains(where: { $0.delta90k != 0 }) || joins.contains(where: { !$0.isEmpty })
    else { return original }
    return try ContinuousTimelineByteSource(
      base: original, shifts: shifts, layout: .transportStream(packetSize: 192), joins: joins)
  }

  /// The continuous timeline's shift of each play item with bytes: its title byte range and what
  /// is added to its timestamps, `start_k + base - in_k` (90 kHz, modulo 2^33), where `start_k`
  /// is the item's title time and `base` the first item's in-time.
  public var timestampShifts: [TimestampShift] {
    let base = clips.first?.inTime90k ?? 0
    return clips.filter { $0.packetCount > 0 && $0.endPacket > $0.startPacket }.map {
      TimestampShift(
        start: $0.titleOffset, end: $0.titleOffset + $0.byteCount,
        delta90k: $0.titleTime90k &+ base &- $0.inTime90k)
    }
  }

  /// The stream files' byte ranges, in title order (for zero-copy extraction).
  public func fileRanges() -> [(path: String, range: Range<Int64>)] {
    clips.filter { $0.endPacket > $0.startPacket }.map {
      ("/BDMV/STREAM/" + $0.streamFileName, Int64($0.startPacket) * 192..<Int64($0.endPacket) * 192)
    }
  }

  // MARK: Time and seeking

  /// The clip playing at title time `t45k` (the last clip for times past the end).
  public func clipIndex(atTitleTime t45k: UInt32) -> Int? {
    guard !clips.isEmpty else { return nil }
    for (i, clip) in clips.enumerated()
    where t45k < clip.titleTime &+ clip.duration && t45k >= clip.titleTime {
      return i
    }
    return t45k < (clips.first?.titleTime ?? 0) ? 0 : clips.count - 1
  }

  /// The byte offset of the random access point at or before title time `time90k` (EP map of the
  /// clip playing then; clamped to the clip's range).
  public func byteOffset(forTitleTime time90k: UInt64) -> Int64 {
    let t45 = UInt32(clamping: time90k / 2)
    guard let i = clipIndex(atTitleTime: t45) else { return 0 }
    let clip = clips[i]
    var packet = clip.startPacket
    if let info = disc.clipInformation(clip.clipID) {
      let delta = min(t45 &- clip.titleTime, clip.duration)
      let pts = clip.inTime &+ delta
      packet = info.titleLookupPacket(pts45k: pts, before: true, stcID: clip.stcID)
    }
    packet = min(max(packet, clip.startPacket), max(clip.endPacket, clip.startPacket))
    return (Int64(clip.titlePacket) + Int64(packet) - Int64(clip.startPacket)) * 192
  }

  /// The title time (90 kHz) of the random access point at or before byte `offset` of the title.
  public func titleTime(forByteOffset offset: Int64) -> UInt64 {
    let packet = offset <= 0 ? 0 : offset / 192
    guard
      let clip = clips.last(where: { Int64($0.titlePacket) <= packet && $0.packetCount > 0 })
        ?? clips.first
    else { return 0 }
    let clipPacket = Int64(clip.startPacket) + packet - Int64(clip.titlePacket)
    var pts = clip.inTime
    if let stream = disc.clipInformation(clip.clipID)?.epMap?.streams.first,
      let info = disc.clipInformation(clip.clipID)
    {
      let stcStart = info.sequence.stcStartPacket(stcID: clip.stcID)
      for entry in stream.entryPoints where Int64(entry.spn) <= clipPacket && entry.spn >= stcStart
      {
        pts = entry.pts45k
      }
    }
    let delta: UInt32
    if clip.outTime < clip.inTime {
      // Across the PTS wrap: times after the in-time are counted modulo 2^32 (45 kHz).
      let d = pts &- clip.inTime
      delta = d < PlayItem.maxWrappedDuration45k ? min(d, clip.duration) : 0
    } else {
      delta = pts > clip.inTime ? min(pts - clip.inTime, clip.duration) : 0
    }
    return clip.titleTime90k + UInt64(MediaTime(ticks45k: delta).ticks)
  }

  /// The byte offset of chapter `index` (0-based), as libbluray computes it.
  public func byteOffset(forChapter index: Int) -> Int64? {
    guard index >= 0, index < chapters.count else { return nil }
    return chapters[index].offset
  }
}
