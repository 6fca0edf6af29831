/// lsdvd's view of a disc, reproduced exactly: which titles it lists, their lengths, chapters,
/// cells and streams, and its "longest track".
///
/// lsdvd (0.16/0.17, `lsdvd.c`) measures each title by its **first** PGC only
/// (`ptt[0].pgcn`): length = `dvdtime2msec(pgc->playback_time)`; chapters are the PGC's programs
/// with lengths summed over every cell of `[program_map[i]-1, program_map[i+1]-1)` (lsdvd 0.17,
/// the Debian version used as the oracle, counts the cells of every angle; the 0.16-based
/// thierer/lsdvd fork skips cells with `block_mode > 1`); the longest track is the first title with the
/// strictly greatest length (ties go to the earlier title; 0 when every length is 0). Titles whose
/// title set IFO cannot be opened, or whose first PGC, cell table or program map is missing, are
/// skipped. Where lsdvd would read out of bounds (a PTT or PGC number past its table, a program
/// map past the cell table) this selector skips the title or stops at the table's end instead.
package enum LsdvdTitleSelector {
  /// One chapter as lsdvd prints it.
  package struct Chapter: Sendable, Hashable {
    /// The summed playback time of the chapter's cells (every angle), in lsdvd's milliseconds.
    package var lengthMilliseconds: Int
    /// The program's entry cell (1-based), from the PGC's program map.
    package var startCell: Int
  }

  /// One audio stream as lsdvd prints it.
  package struct Audio: Sendable, Hashable {
    /// The two-letter language code, or `xx` when either byte is not a letter.
    package var languageCode: String
    /// lsdvd's name of the coding mode (`ac3`, `mpeg1`, `mpeg2`, `lpcm`, `sdds`, `dts`, or `?`).
    package var format: String
    /// The number of channels.
    package var channels: Int
    /// The program stream id: the coding's base id plus the stream number of the PGC's audio
    /// control.
    package var streamID: Int
  }

  /// One subpicture stream as lsdvd prints it.
  package struct Subpicture: Sendable, Hashable {
    /// The two-letter language code, or `xx` when either byte is not a letter.
    package var languageCode: String
    /// `0x20` plus the attribute slot, as lsdvd 0.17 prints it.
    package var streamID: Int
  }

  /// One listed title (an lsdvd "track").
  package struct Track: Sendable, Hashable {
    /// The 1-based title number on the disc.
    package var number: Int
    /// The first PGC's playback time, in lsdvd's milliseconds.
    package var lengthMilliseconds: Int
    /// The title set (VTS) number.
    package var titleSet: Int
    /// The title's number within its title set.
    package var titleInSet: Int
    /// The frame rate of the first PGC's playback time (25 or 29.97; -1 when unknown).
    package var framesPerSecond: Double
    /// `"NTSC"` when the title set's video format is 0, otherwise `"PAL"`.
    package var format: String
    /// The number of angles in the title search table.
    package var angles: Int
    /// The number of chapters the title search table declares.
    package var reportedChapterCount: Int
    /// The first PGC's programs.
    package var chapters: [Chapter]
    /// The playback time of each cell of the first PGC, in lsdvd's milliseconds.
    package var cellLengthsMilliseconds: [Int]
    /// The audio streams the first PGC enables.
    package var audio: [Audio]
    /// The subpicture streams the first PGC enables.
    package var subpictures: [Subpicture]
  }

  /// lsdvd's listing of a disc.
  package struct Report: Sendable, Hashable {
    /// The titles lsdvd lists.
    package var tracks: [Track]
    /// lsdvd's `longest_track` (0 when no title has a length).
    package var longestTrack: Int
  }

  static let audioFormats = ["ac3", "?", "mpeg1", "mpeg2", "lpcm", "sdds", "dts"]

  /// lsdvd's listing of `disc`.
  package static func report(_ disc: DVDDisc) -> Report {
    var tracks: [Track] = []
    var maxLength = 0
    var maxTrack = 0
    let setCount = disc.videoManager.titleSetAttributes.titleSets.count
    for (index, entry) in disc.videoManager.titles.titles.enumerated() {
      guard entry.titleSet >= 1, entry.titleSet <= setCount,
        let vts = try? disc.titleSet(entry.titleSet),
        entry.titleInSet >= 1, entry.titleInSet <= vts.partsOfTitles.titles.count,
        let firstPart = vts.partsOfTitles.titles[entry.titleInSet - 1].first,
        let pgc = try? vts.programChains.programChain(firstPart.programChain),
        let cells = pgc.cellPlayback, let map = pgc.programMap
      else { continue }
      let length = pgc.playbackTime.lsdvdMilliseconds
      if length > maxLength {
        maxLength = length
        maxTrack = index + 1
      }
      var chapters: [Chapter] = []
      var cell = 0
      for i in 0..<map.count {
        var ms = 0
        let next = i == map.count - 1 ? cells.count + 1 : Int(map[i + 1])
        while cell < next - 1 && cell < cells.count {
          ms += cells[cell].playbackTime.lsdvdMilliseconds
          cell += 1
        }
        chapters.append(Chapter(lengthMilliseconds: ms, startCell: Int(map[i])))
      }
      let audio = pgc.enabledAudioStreams.map { slot in
        let a = vts.audio[slot]
        return Audio(
          languageCode: DVDLanguage.lsdvdCode(a.languageCode),
          format: a.codingMode < audioFormats.count ? audioFormats[a.codingMode] : "?",
          channels: a.channels,
          streamID: a.baseStreamID + Int((pgc.audioControl[slot] >> 8) & 7))
      }
      // lsdvd 0.17 prints 0x20 + the attribute slot (0.16 used the PGC's letterbox/4:3 id).
      let subpictures = pgc.enabledSubpictureStreams.map { slot in
        Subpicture(
          languageCode: DVDLanguage.lsdvdCode(vts.subpictures[slot].languageCode),
          streamID: 0x20 + slot)
      }
      tracks.append(
        Track(
          number: index + 1, lengthMilliseconds: length, titleSet: entry.titleSet,
          titleInSet: entry.titleInSet,
          framesPerSecond: pgc.playbackTime.framesPerSecond,
          format: vts.video.videoFormat == 0 ? "NTSC" : "PAL",
          angles: entry.angleCount, reportedChapterCount: entry.partCount, chapters: chapters,
          cellLengthsMilliseconds: cells.map { $0.playbackTime.lsdvdMilliseconds }, audio: audio,
          subpictures: subpictures))
    }
    return Report(tracks: tracks, longestTrack: maxTrack)
  }

  /// lsdvd's longest track, or `nil` when it would print 0.
  package static func select(_ disc: DVDDisc) -> Int? {
    let longest = report(disc).longestTrack
    return longest == 0 ? nil : longest
  }
}
