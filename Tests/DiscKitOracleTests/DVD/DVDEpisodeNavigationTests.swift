@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// DVD episodes the menus decide (`TestImages/scripts/make-dvd-episodes.sh`), against the
/// construction, libdvdnav's VM, lsdvd and libdvdread:
/// - `dvd-episodes-chapters`: one title of seven chapters, the episodes chapters 1-2, 3-5 and 6-7
///   (310, 320 and 305 s) started by `JumpVTS_PTT` buttons of the title set's menu. libdvdnav
///   (`dvdnav_button_select_and_activate`, then `dvdnav_current_title_info`) must start the
///   episode's title and first chapter for every button; lsdvd's chapter lengths must sum to each
///   episode's length; each episode as a title of its own (`1:e2`) must be the bytes libdvdread
///   reads for its chapters' cells (`DVDReadBlocks`), start at 0 with its own chapters, and its
///   pictures decode without a warning on both timelines (`ffmpeg -v warning ... -f null -`).
/// - `dvd-episodes-gprm`: no play-all title; the Play All button sets GPRM 0 that the episodes'
///   post commands test. libdvdnav plays titles 1, 2, 3 in a row after button 1 and one title
///   after each other button: those must be DiscKit's episodes and its play-all button.
/// - `dvd-episodes-menuorder`: three titles and no play-all, the menu listing them out of number
///   order: the episodes are numbered as the buttons libdvdnav presses start them.
/// - `dvd-episodes-ambiguous`: three titles of similar length and no menu: ambiguous, the three
///   titles the candidates.
@Suite("DVD episodes from the menus, against libdvdnav", .toolThreads)
struct DVDEpisodeNavigationTests {
  static let present = DVDEpisodeDiscs.present(
    "dvd-episodes-chapters", "dvd-episodes-gprm", "dvd-episodes-ambiguous")

  @Test(.enabled(if: present, DVDEpisodeDiscs.missing))
  func chapterRangesStartedByJumpVTSPTT() throws {
    let path = Fixtures.generated("dvd-episodes-chapters")
    let disc = try Disc.open(path: path)
    let list = try disc.episodeList()
    #expect(list.episodic, "\(list.reason)")
    #expect(list.layout == .chapters)
    #expect(list.confidence == .navigation)
    #expect(list.episodes.map(\.key) == ["1", "1", "1"])
    #expect(list.episodes.map(\.chapters) == [[1, 2], [3, 4, 5], [6, 7]])
    #expect(list.episodes.map(\.titleKey) == ["1:e1", "1:e2", "1:e3"])
    DVDEpisodeDiscs.expectConstructionLengths(list)
    // libdvdnav: button 1 (Play All) starts title 1 at chapter 1, buttons 2-4 the episodes.
    try DVDEpisodeDiscs.expectButtonsStartEpisodeChapters(path, list)
    // lsdvd's chapter lengths (seconds) summed over each episode's chapters.
    if Tool.has("lsdvd") {
      let lsdvd = try LsdvdOracle.run(path)
      let track = try #require(lsdvd.tracks.first)
      let lengths = track.chapters.compactMap { Double($0.split(separator: "@").first ?? "") }
      #expect(lengths.count == 7)
      var start = 0.0
      for episode in list.episodes {
        let mine = episode.chapters.map { lengths[$0 - 1] }.reduce(0, +)
        #expect(abs(Double(episode.duration90k) / 90_000 - mine) < 0.05, "\(episode.titleKey)")
        #expect(abs(Double(episode.start90k) / 90_000 - start) < 0.05, "\(episode.titleKey)")
        start += mine
      }
    }
    // Each episode as a title of its own: libdvdread's blocks of its chapters' cells.
    let reader = try Reference.DVDReader(path: path)
    let ref = try #require(try reader.titles().first ?? nil)
    let dir = try TemporaryDirectory("dvd-episode")
    for episode in list.episodes {
      let title = try disc.title(key: episode.titleKey)
      #expect(title.key == episode.titleKey)
      #expect(title.duration.ticks == episode.duration90k)
      #expect(title.chapters.map(\.number) == Array(1...episode.chapters.count))
      #expect(title.chapters.first?.start.ticks == 0)
      #expect(title.chapters.last.map { $0.start.ticks + $0.duration.ticks } == episode.duration90k)
      // The chapters are programs of the one PGC: program k enters at cell programMap[k-1].
      let firstCell = ref.programMap[episode.chapters[0] - 1]
      let lastCell =
        episode.chapters.last.map {
          $0 < ref.programMap.count ? ref.programMap[$0] - 1 : ref.cells.count
        }
        ?? firstCell
      let ranges = ref.cells[(firstCell - 1)..<lastCell].map {
        (first: $0.firstSector, last: $0.lastSector)
      }
      let theirs = try reader.readTitleVOBs(titleSet: ref.titleSet, ranges: ranges)
      let source = try title.byteSource()
      let mine = try source.bytes(at: 0, count: Int(source.size), structure: "episode")
      #expect(mine == theirs, "\(episode.titleKey): libdvdread's blocks of its cells")
      if Tool.has("ffmpeg") {
        _ = try expectEpisodeVOBsDecode(
          title, bytes: mine, key: episode.titleKey, number: episode.number, in: dir)
      }
    }
    // The episode key of a title that holds no such episode is an error naming the episodes.
    #expect(throws: DiscKitError.self) { try disc.title(key: "1:e4") }
  }

  @Test(.enabled(if: present, DVDEpisodeDiscs.missing))
  func gprmFlagPlayAll() throws {
    let path = Fixtures.generated("dvd-episodes-gprm")
    let list = try Disc.open(path: path).episodeList()
    #expect(list.episodic, "\(list.reason)")
    #expect(list.layout == .titles)
    #expect(list.confidence == .navigation)
    #expect(list.playAll.isEmpty)
    // libdvdnav: button 1 plays the episodes in a row, each other button one episode.
    let chained = try Reference.DVDNav.titlesPlayed(path: path, buttons: [1])
    #expect(chained.count >= 2)
    #expect(list.episodes.map(\.key) == chained.map(String.init))
    #expect(list.playAllButtons == ["VMGM PGC 1 button 1"])
    for button in 2...4 {
      let played = try Reference.DVDNav.titlesPlayed(path: path, buttons: [button])
      #expect(played.count == 1, "button \(button): \(played)")
      #expect(played.map(String.init) == [list.episodes[button - 2].key], "button \(button)")
    }
    DVDEpisodeDiscs.expectConstructionLengths(list)
  }

  @Test(
    .enabled(if: DVDEpisodeDiscs.present("dvd-episodes-menuorder"), DVDEpisodeDiscs.missing))
  func theMenuNumbersTheEpisodes() throws {
    let path = Fixtures.generated("dvd-episodes-menuorder")
    let list = try Disc.open(path: path).episodeList()
    #expect(list.confidence == .navigation, "\(list.reason)")
    // libdvdnav: the titles buttons 1-3 start, in button order, are the episodes in order.
    var theirs: [String] = []
    for button in 1...3 {
      let started = try #require(
        try Reference.DVDNav.titlePart(path: path, buttons: [button]), "button \(button)")
      #expect(started.part == 1)
      theirs.append(String(started.title))
    }
    #expect(list.episodes.map(\.key) == theirs)
    #expect(theirs != theirs.sorted(), "the construction lists the titles out of number order")
    #expect(list.episodes.map(\.titleKey) == zip(theirs, 1...3).map { "\($0):e\($1)" })
  }

  @Test(.enabled(if: present, DVDEpisodeDiscs.missing))
  func undecidedIsAmbiguous() throws {
    let path = Fixtures.generated("dvd-episodes-ambiguous")
    let list = try Disc.open(path: path).episodeList()
    #expect(!list.episodic)
    #expect(list.confidence == .ambiguous, "\(list.reason)")
    #expect(list.candidates == ["1", "2", "3"])
    // libdvdnav: First Play plays title 1 and nothing else (no menu, no chain).
    #expect(try Reference.DVDNav.titlesPlayed(path: path, buttons: []) == [1])
  }
}
