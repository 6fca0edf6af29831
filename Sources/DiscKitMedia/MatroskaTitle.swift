@_spi(Formats) import DiscKit

/// Everything ``MatroskaWriter`` needs to write one title: the title's bytes, the pieces that
/// are demuxed on their own (Blu-ray clips, DVD cells) with their place on the title timeline,
/// the tracks, the chapters and the segment title.
///
/// Build it from a title of either kind (``init(title:)``); the values are plain data and can be
/// adjusted before writing.
public struct MatroskaTitle: Sendable {
  /// The multiplex the title's bytes are in.
  public enum Container: String, Sendable, Hashable, Codable {
    /// Blu-ray M2TS (192-byte source packets).
    case transportStream
    /// DVD MPEG-2 program stream.
    case programStream
  }

  /// A short name for messages (`00800.mpls`, `title 3`).
  public var name: String
  /// The title's bytes.
  public var source: any ByteSource
  /// The multiplex of ``source``.
  public var container: Container
  /// The pieces, in play order.
  public var pieces: [MatroskaPiece]
  /// The tracks, in output order.
  public var tracks: [MatroskaTrack]
  /// The chapters, in title time.
  public var chapters: [MatroskaChapter]
  /// The Matroska segment title (the disc's volume label).
  public var segmentTitle: String
  /// The title's duration from the navigation data (90 kHz).
  public var duration90k: UInt64
  /// Streams of the navigation data left out of the file, with the reason (for reports).
  public var skippedStreams: [String]
  /// A stream played beside the title from a clip of its own: Blu-ray out-of-mux secondary
  /// audio, in the clip of a sub-path (type 5) synchronised with a play item.
  public struct SubPathStream: Sendable {
    /// The sub-path clip's bytes (its stream file).
    public var source: any ByteSource
    /// Its range in ``source`` and its place on the title timeline: the sub play item's in-time
    /// plays at the title time of its `sync_start_PTS_of_PlayItem`.
    public var piece: MatroskaPiece
    /// The track it becomes (after the title's own tracks).
    public var track: MatroskaTrack

    /// A sub-path stream.
    public init(source: any ByteSource, piece: MatroskaPiece, track: MatroskaTrack) {
      self.source = source
      self.piece = piece
      self.track = track
    }
  }

  /// The streams played beside the title from sub-path clips, each its own track.
  public var subPathStreams: [SubPathStream] = []
  /// The part of the title to write, in title time (90 kHz): packets presented outside it are
  /// left out and the file's timestamps start at its lower bound. `nil`: the whole title.
  /// ``chapters(_:)`` sets it.
  public var window90k: Range<UInt64>?
  /// Text subtitle tracks written after every other track (`S_TEXT/UTF8`), e.g. the text
  /// recognised from the title's bitmap subtitles.
  public var textTracks: [MatroskaTextTrack] = []

  /// A title from its parts.
  public init(
    name: String, source: any ByteSource, container: Container, pieces: [MatroskaPiece],
    tracks: [MatroskaTrack], chapters: [MatroskaChapter], segmentTitle: String,
    duration90k: UInt64, skippedStreams: [String] = []
  ) {
    self.name = name
    self.source = source
    self.container = container
    self.pieces = pieces
    self.tracks = tracks
    self.chapters = chapters
    self.segmentTitle = segmentTitle
    self.duration90k = duration90k
    self.skippedStreams = skippedStreams
  }

  /// A title at its angle, from the façade.
  ///
  /// A Blu-ray title: every primary video, primary audio and primary PG stream of the first play
  /// item's STN table that is in the play item's own clip, languages from the STN table,
  /// chapters from ``DiscTitle/chapters``, clips mapped onto the title timeline
  /// (`title time = titleStart + (PTS - IN_time) mod 2^33`), and every out-of-mux secondary
  /// audio stream (a sub-path's clip) as a track of its own after them (``subPathStreams``).
  ///
  /// A DVD title: its video, every audio stream and every subpicture stream of the title's
  /// program chain, languages from the IFO (as ISO 639-2), the chapters of
  /// ``DiscTitle/chapters``, and one piece per run of cells from the same VOB, placed on the
  /// title timeline by the navigation packs' PTMs (`VOBU_S_PTM` of the first VOBU, `VOBU_E_PTM`
  /// of the last): a chapter starts where its first cell's first VOBU really plays, which on
  /// NTSC discs is up to 0.1 % later than the IFO's nominal 30-frame cell times (lsdvd's
  /// figures).
  ///
  /// - Throws: the errors of ``DiscTitle/byteSource()``; ``DiscKitError/Code/unsupported`` when
  ///   the title has no bytes; on a DVD ``DiscKitError/Code/malformed`` naming the cell when its
  ///   first sector is not a navigation pack (first VOBU of each cell, last VOBU of
  ///   non-interleaved cells).
  public init(title: DiscTitle) throws(DiscKitError) {
    switch title.content {
    case .bluray(let bluray): try self.init(bluray: bluray, chapters: title.chapters)
    case .dvd(let dvd, let disc):
      try self.init(dvd: disc, title: dvd, angle: title.angle, chapters: title.chapters)
    }
  }

  /// A Blu-ray title at its angle (``init(title:)``).
  package init(bluray title: BlurayTitle) throws(DiscKitError) {
    try self.init(title: DiscTitle(bluray: title))
  }

  /// DVD title `number` at `angle` (1-based) (``init(title:)``).
  package init(dvd disc: DVDDisc, title number: Int, angle: Int = 1) throws(DiscKitError) {
    try self.init(title: DiscTitle(dvd: disc, number: number, angle: angle))
  }

  private init(bluray title: BlurayTitle, chapters titleChapters: [DiscTitle.Chapter])
    throws(DiscKitError)
  {
    let source = try title.byteSource()
    guard source.size > 0 else {
      throw DiscKitError(.unsupported, "title \(title.name)", at: nil, "the title has no bytes")
    }
    var tracks: [MatroskaTrack] = []
    var skipped: [String] = []
    var subPathStreams: [SubPathStream] = []
    if let stn = title.playlist.playItems.first?.streams {
      func add(_ streams: [PlaylistStream], _ kind: MatroskaTrack.Kind, _ label: String) {
        for (i, s) in streams.enumerated() {
          let name = "\(label) stream \(i + 1) (PID 0x\(String(s.pid, radix: 16)))"
          guard s.entryType == 1 else {
            skipped.append("\(name): in a sub path (not muxed)")
            continue
          }
          guard !tracks.contains(where: { $0.streamID == Int(s.pid) }) else { continue }
          let isDefault = kind != .subtitle && !tracks.contains { $0.kind == kind }
          tracks.append(
            MatroskaTrack(
              kind: kind, streamID: Int(s.pid), language: Self.language(s.language),
              isDefault: isDefault, declaredCodec: s.codecName))
          if kind == .audio, s.codingType == 0x83 {
            // A TrueHD stream's AC-3 core (when the clip carries one), as a track of its own.
            tracks.append(
              MatroskaTrack(
                kind: .audio, streamID: Int(s.pid), language: Self.language(s.language),
                isDefault: false, declaredCodec: "AC-3 core of \(s.codecName)",
                substream: .ac3Core))
          }
        }
      }
      add(stn.video, .video, "video")
      // The Dolby Vision enhancement layer: a video track of its own (not default), with the
      // clip's DOVI configuration record, as mkvmerge before v81 and ffmpeg keep it.
      add(stn.dolbyVision, .video, "Dolby Vision enhancement layer")
      add(stn.audio, .audio, "audio")
      add(Array(stn.presentationGraphics.prefix(stn.primaryPGCount)), .subtitle, "PG")
      for (i, s) in stn.interactiveGraphics.enumerated() {
        skipped.append(
          "IG stream \(i + 1) (PID 0x\(String(s.pid, radix: 16))): menus (no Matroska form)")
      }
      for (i, s) in stn.secondaryAudio.enumerated() {
        let name = "secondary audio stream \(i + 1) (PID 0x\(String(s.pid, radix: 16)))"
        guard s.entryType == 2 else {
          skipped.append(name + (s.entryType == 1 ? ": in-mux" : ""))
          continue
        }
        if let stream = Self.subPathStream(s, of: title) {
          subPathStreams.append(stream)
        } else {
          skipped.append(name + ": its sub-path \(s.subPathID) or clip cannot be read")
        }
      }
      for (i, s) in stn.secondaryVideo.enumerated() {
        skipped.append("secondary video stream \(i + 1) (PID 0x\(String(s.pid, radix: 16)))")
      }
    }
    var pieces: [MatroskaPiece] = []
    for clip in title.clips where clip.byteCount > 0 {
      pieces.append(
        MatroskaPiece(
          byteStart: clip.titleOffset, byteEnd: clip.titleOffset + clip.byteCount,
          inTime90k: UInt64(MediaTime(ticks45k: clip.inTime).ticks),
          titleStart90k: UInt64(MediaTime(ticks45k: clip.titleTime).ticks),
          duration90k: UInt64(MediaTime(ticks45k: clip.duration).ticks)))
    }
    let duration = title.duration90k
    let chapters = titleChapters.map { c in
      MatroskaChapter(
        start: c.start, end: min(c.start + c.duration, max(MediaTime(clamping: duration), c.start)),
        title: Self.chapterName(c.number), byteOffset: c.offset)
    }
    self.init(
      name: title.name, source: source, container: .transportStream, pieces: pieces,
      tracks: tracks, chapters: chapters, segmentTitle: title.disc.fileSystem.volumeLabel,
      duration90k: duration, skippedStreams: skipped)
    self.subPathStreams = subPathStreams
  }

  /// An out-of-mux STN stream (entry type 2) as a sub-path stream: the clip `ref_to_subClip_
  /// entry_id` of the sub-path's first sub play item, placed at the title time of its sync point
  /// (`titleStart_k + sync_start_PTS - IN_time_k` of play item `k`); nil when the sub-path, its
  /// play item or its stream file is missing.
  static func subPathStream(_ s: PlaylistStream, of title: BlurayTitle) -> SubPathStream? {
    let paths = title.playlist.subPaths
    guard Int(s.subPathID) < paths.count, let item = paths[Int(s.subPathID)].items.first,
      Int(s.subClipID) < item.clips.count, Int(item.syncPlayItemID) < title.clips.count,
      let file = try? title.disc.fileSystem.openFile(
        atPath: "/BDMV/STREAM/" + item.clips[Int(s.subClipID)].streamFileName)
    else { return nil }
    let sync = title.clips[Int(item.syncPlayItemID)]
    let start45k = sync.titleTime &+ (item.syncPTS &- sync.inTime)
    return SubPathStream(
      source: file,
      piece: MatroskaPiece(
        byteStart: 0, byteEnd: file.size, inTime90k: UInt64(item.inTime) * 2,
        titleStart90k: UInt64(start45k) * 2,
        duration90k: UInt64(item.outTime &- item.inTime) * 2),
      track: MatroskaTrack(
        kind: .audio, streamID: Int(s.pid), language: language(s.language), isDefault: false,
        declaredCodec: "secondary " + s.codecName))
  }

  private init(
    dvd disc: DVDDisc, title: DVDTitle, angle: Int, chapters titleChapters: [DiscTitle.Chapter]
  ) throws(DiscKitError) {
    let number = title.number
    let source = try disc.byteSource(title: title, angle: angle)
    guard source.size > 0 else {
      throw DiscKitError(.unsupported, "DVD title \(number)", at: nil, "the title has no bytes")
    }
    var tracks = [
      MatroskaTrack(
        kind: .video, streamID: 0x1E0, language: "und", isDefault: true,
        declaredCodec: "MPEG video")
    ]
    for (i, a) in title.audio.enumerated() {
      tracks.append(
        MatroskaTrack(
          kind: .audio, streamID: a.streamID, language: Self.language(a.language ?? ""),
          isDefault: i == 0, declaredCodec: a.codec))
    }
    let vobSubHeader = VobSubHeader(
      width: title.video.width, height: title.video.height,
      palette: title.firstProgramChain.palette
    ).text
    for s in title.subpictures {
      tracks.append(
        MatroskaTrack(
          kind: .subtitle, streamID: s.streamID, language: Self.language(s.language ?? ""),
          isDefault: false, declaredCodec: s.codec, codecPrivate: Array(vobSubHeader.utf8)))
    }
    // Cells of one VOB share a clock and are demuxed together (an audio frame may straddle
    // two cells); a new VOB ID starts a new piece, placed where the previous one really ended
    // (its last VOBU's end PTM), so the timeline has no gaps or overlaps from the IFO's
    // rounded cell times.
    func navigationPack(at offset: Int64, _ what: String) throws(DiscKitError) -> DVDNavigationPack
    {
      var sector = [UInt8](repeating: 0, count: 2048)
      let read = sector.withUnsafeMutableBytes { raw in
        Result { () throws(DiscKitError) -> Int in try source.readFully(at: offset, into: raw) }
      }
      guard try read.get() == 2048 else {
        throw DiscKitError.truncated("DVD title \(number) \(what)", at: offset, needed: 2048)
      }
      do {
        return try DVDNavigationPack(sector: sector, at: offset)
      } catch {
        throw DiscKitError(
          .malformed, "DVD title \(number) \(what)", at: offset,
          "no navigation pack where the IFO puts a VOBU: \(error.detail)")
      }
    }
    let wrap: UInt64 = 1 << 33
    // 525-line video (videoFormat 0) runs at 30000/1001 pictures a second, 625-line at 25.
    let frame90k: Int64 = title.video.videoFormat == 0 ? 3003 : 3600
    var pieces: [MatroskaPiece] = []
    var cellTimes: [UInt64] = []
    var pieceEnd: UInt64 = 0
    var vobID: UInt16?
    for (i, cell) in source.cells.enumerated() {
      let what = "cell \(cell.cell) of PGC \(cell.programChain)"
      let start = source.cellStarts[i]
      let end = i + 1 < source.cellStarts.count ? source.cellStarts[i + 1] : source.size
      let nav = try navigationPack(at: start, what)
      if vobID != nav.vobID || pieces.isEmpty {
        pieces.append(
          MatroskaPiece(
            byteStart: start, byteEnd: end, inTime90k: UInt64(nav.vobuStartPTM),
            titleStart90k: pieceEnd, duration90k: nil))
        vobID = nav.vobID
      }
      let piece = pieces.count - 1
      pieces[piece].byteEnd = end
      let cellStart = UInt64(max(0, pieces[piece].titleTime(ofPTS: Int64(nav.vobuStartPTM))))
      cellTimes.append(cellStart)
      var cellEnd = cellStart + UInt64(max(0, cell.playback.playbackTime.ticks90k))
      let p = cell.playback
      if !cell.isInterleavedAngleCell, p.lastVOBUStartSector >= p.firstSector {
        let last = start + Int64(p.lastVOBUStartSector - p.firstSector) * 2048
        if last + 2048 <= end {
          // The cell ends where its last picture does: VOBU_E_PTM may run on with the audio
          // (dvdauthor) and the IFO's cell time is nominal (NTSC: 30 frames a second).
          let lastNav = try navigationPack(at: last, what + " last VOBU")
          let end90k =
            PieceDemuxer.videoEnd(source: source, range: last..<end, frame90k: frame90k)
            ?? Int64(lastNav.vobuEndPTM)
          let length = (UInt64(bitPattern: end90k) &+ wrap &- UInt64(nav.vobuStartPTM)) % wrap
          cellEnd = cellStart + length
        }
      }
      pieceEnd = max(pieceEnd, cellEnd)
    }
    let duration = pieceEnd
    var chapters: [MatroskaChapter] = []
    for chapter in titleChapters {
      guard let first = source.cells.firstIndex(where: { $0.chapter == chapter.number }) else {
        continue
      }
      let start = MediaTime(clamping: cellTimes[first])
      if let previous = chapters.indices.last {
        chapters[previous].end = max(chapters[previous].start, start)
      }
      chapters.append(
        MatroskaChapter(
          start: start, end: MediaTime(clamping: duration),
          title: Self.chapterName(chapters.count + 1), byteOffset: source.cellStarts[first]))
    }
    self.init(
      name: "DVD title \(number)", source: source, container: .programStream, pieces: pieces,
      tracks: tracks, chapters: chapters, segmentTitle: disc.fileSystem.volumeLabel,
      duration90k: duration)
  }

  static func chapterName(_ n: Int) -> String {
    "Chapter " + (n < 10 ? "0" : "") + String(n)
  }

  /// The ISO 639-2 bibliographic code (Matroska's form) of an STN (three letters, either
  /// form) or IFO (two letters) language; `und` when empty or unknown.
  public static func matroskaLanguage(_ code: String) -> String { language(code) }

  static func language(_ code: String) -> String {
    let lower = code.lowercased().trimmingCharacters(in: " \0")
    if lower.count == 3, lower.allSatisfy({ $0 >= "a" && $0 <= "z" }) {
      return ISO639.terminologyToBibliographic[lower] ?? lower
    }
    if lower.count == 2, let three = ISO639.bibliographic[lower] { return three }
    return "und"
  }

}

extension String {
  fileprivate func trimmingCharacters(in set: String) -> String {
    var s = Substring(self)
    while let f = s.first, set.contains(f) { s = s.dropFirst() }
    while let l = s.last, set.contains(l) { s = s.dropLast() }
    return String(s)
  }
}
