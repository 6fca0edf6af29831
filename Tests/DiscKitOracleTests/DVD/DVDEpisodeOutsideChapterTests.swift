@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// DVD episodes that are PGCs the title's chapters do not all reach
/// (`TestImages/scripts/make-dvd-episodes-pgcs.sh`), against the construction, libdvdnav's VM,
/// libdvdread and lsdvd:
/// - `dvd-episodes-unnamed`: title 1 of three PGCs (310, 320 and 305 s) whose PTT table names
///   PGC 1's two chapters only; the buttons reach PGCs 2 and 3 by `LinkPGCN` (a register the
///   title's pre commands test) and Play All by the post commands' `LinkPGCN`. For every button
///   libdvdnav (`dvdnav_button_select_and_activate`, then `dvdnav_current_title_program` at each
///   cell change) must play the PGCs of DiscKit's episodes; each episode as a title of its own
///   must be libdvdread's blocks of its PGC's cells, decode without a warning on both timelines
///   and give the pictures (`framemd5`) of its range of the chain's; lsdvd still lists one title
///   of two chapters.
/// - `dvd-episodes-unnamed-nomenu`: the same title and no menu, First Play jumping to it and the
///   post commands' `LinkPGCN` chaining its PGCs: libdvdnav from First Play plays PGCs 1, 2, 3,
///   DiscKit's episodes in order.
/// - `dvd-episodes-random`: a random-episode button, an intro cell drawing GPRM 1 = rnd 1..3
///   that the post commands test to `LinkPGCN` 2, 3 or 4: each outcome is an episode. libdvdnav
///   draws with `rand()` (seeded here with `srand`, 1...30): every PGC it starts after the intro
///   is an episode of DiscKit's, and together they are all of them.
/// - `dvd-episodes-pgcs-unlinked`: the three PGCs in one title whose chapters name them all,
///   nothing linking them (no header's next PGC, dvdauthor's Exit after each) and no menu:
///   libdvdnav from First Play plays PGC 1 only, and `dvdnav_part_play` at each episode's first
///   chapter plays that episode's PGC alone.
@Suite(
  "DVD episodes as PGCs outside the chapters, by rnd and unlinked, against libdvdnav", .toolThreads)
struct DVDEpisodeOutsideChapterTests {
  @Test(.enabled(if: DVDEpisodeDiscs.present("dvd-episodes-unnamed"), DVDEpisodeDiscs.missing))
  func programChainsNoChapterNames() throws {
    let path = Fixtures.generated("dvd-episodes-unnamed")
    let disc = try Disc.open(path: path)
    let list = try disc.episodeList()
    #expect(list.episodic, "\(list.reason)")
    #expect(list.layout == .programChains, "\(list.reason)")
    #expect(list.confidence == .navigation)
    #expect(list.episodes.map(\.key) == ["1", "1", "1"])
    #expect(list.episodes.map(\.chapters) == [[1, 2], [], []])
    #expect(list.playAll.isEmpty)
    #expect(list.playAllButtons == ["VMGM PGC 1 button 1"])
    DVDEpisodeDiscs.expectConstructionLengths(list)
    // The construction, as libdvdread reads it: title 1 enters at PGC 1 and has two chapters.
    let reader = try Reference.DVDReader(path: path)
    let ref = try #require(try reader.titles().first ?? nil)
    #expect(ref.programChain == 1 && ref.chapters == 2, "\(ref)")
    // libdvdnav: Play All plays PGCs 1, 2, 3 in a row; PGCs 2 and 3 have no part.
    let chain = try Reference.DVDNav.programChainsPlayed(path: path, buttons: [1])
    #expect(chain.map(\.programChain) == [1, 2, 3], "the construction chains PGCs 1, 2, 3")
    #expect(chain.map(\.part) == [1, 0, 0], "\(chain)")
    #expect(
      list.episodes.map { $0.programChain ?? 1 } == chain.map(\.programChain),
      "\(list.episodes.map(\.programChain))")
    // Each episode button plays its episode's PGC alone.
    for button in 2...4 {
      let episode = list.episodes[button - 2]
      let played = try Reference.DVDNav.programChainsPlayed(path: path, buttons: [button])
      #expect(played.map(\.programChain) == [button - 1], "button \(button): \(played)")
      #expect((episode.programChain ?? 1) == button - 1, "button \(button)")
      #expect(
        episode.evidence.first?.detail.contains(
          "button \(button) starts PGC \(button - 1) of title 1")
          == true, "\(episode.evidence)")
    }
    try DVDEpisodeDiscs.expectProgramChainEpisodes(
      disc, list, path: path, programChains: [1, 2, 3])
    // The titles are still the chapters' (as lsdvd lists them): one title of two chapters.
    if Tool.has("lsdvd") {
      let lsdvd = try LsdvdOracle.run(path)
      #expect(lsdvd.tracks.count == 1)
      #expect(lsdvd.tracks.first?.chapters.count == 2)
    }
    #expect(try disc.title(key: "1").chapters.count == 2)
  }

  @Test(
    .enabled(
      if: DVDEpisodeDiscs.present("dvd-episodes-unnamed-nomenu"), DVDEpisodeDiscs.missing))
  func programChainsFirstPlayChains() throws {
    let path = Fixtures.generated("dvd-episodes-unnamed-nomenu")
    let disc = try Disc.open(path: path)
    let list = try disc.episodeList()
    #expect(list.episodic, "\(list.reason)")
    #expect(list.layout == .programChains, "\(list.reason)")
    #expect(list.confidence == .navigation)
    #expect(list.playAllButtons == nil)
    #expect(list.episodes.allSatisfy { $0.evidence.first?.kind == .navigation })
    DVDEpisodeDiscs.expectConstructionLengths(list)
    // libdvdnav from First Play: PGCs 1, 2, 3 in a row, PGC 1 at chapter 1, the others partless.
    let chain = try Reference.DVDNav.programChainsPlayed(path: path, buttons: [])
    #expect(chain.map(\.programChain) == [1, 2, 3], "the construction chains PGCs 1, 2, 3")
    #expect(chain.map(\.part) == [1, 0, 0], "\(chain)")
    #expect(list.episodes.map { $0.programChain ?? 1 } == chain.map(\.programChain))
    #expect(list.episodes.first?.chapters == [1, 2])
    try DVDEpisodeDiscs.expectProgramChainEpisodes(
      disc, list, path: path, programChains: chain.map(\.programChain))
  }

  @Test(.enabled(if: DVDEpisodeDiscs.present("dvd-episodes-random"), DVDEpisodeDiscs.missing))
  func everyRandomOutcomeOfACellIsFollowed() throws {
    let path = Fixtures.generated("dvd-episodes-random")
    let disc = try Disc.open(path: path)
    let list = try disc.episodeList()
    #expect(list.episodic, "\(list.reason)")
    #expect(list.layout == .programChains, "\(list.reason)")
    #expect(list.confidence == .navigation)
    let mine = list.episodes.compactMap(\.programChain)
    #expect(mine == [2, 3, 4], "the construction: rnd 1, 2, 3 link PGCs 2, 3, 4")
    DVDEpisodeDiscs.expectConstructionLengths(list)
    // Each episode's evidence names the outcome that starts it (GPRM 1 = n links PGC n + 1).
    for episode in list.episodes {
      let n = (episode.programChain ?? 0) - 1
      #expect(
        episode.evidence.first?.detail.contains("(rnd GPRM1 = \(n) of 1…3) starts PGC \(n + 1)")
          == true, "\(episode.evidence)")
    }
    // libdvdnav, its rand() seeded 1...30: button 1 plays the intro (PGC 1), then one PGC, an
    // episode of DiscKit's; together the runs start every one.
    var theirs: Set<Int> = []
    for seed in UInt32(1)...30 {
      let played = try Reference.DVDNav.programChainsPlayed(path: path, buttons: [1], seed: seed)
      #expect(played.count == 2 && played.first?.programChain == 1, "seed \(seed): \(played)")
      guard let episode = played.dropFirst().first?.programChain else { continue }
      #expect(mine.contains(episode), "seed \(seed): libdvdnav played PGC \(episode)")
      theirs.insert(episode)
    }
    #expect(theirs == Set(mine))
    try DVDEpisodeDiscs.expectProgramChainEpisodes(disc, list, path: path, programChains: mine)
  }

  @Test(
    .enabled(if: DVDEpisodeDiscs.present("dvd-episodes-pgcs-unlinked"), DVDEpisodeDiscs.missing))
  func programChainsNothingLinks() throws {
    let path = Fixtures.generated("dvd-episodes-pgcs-unlinked")
    let disc = try Disc.open(path: path)
    let list = try disc.episodeList()
    #expect(list.episodic, "\(list.reason)")
    #expect(list.layout == .programChains)
    #expect(list.confidence == .heuristic)
    #expect(list.playAll.isEmpty)
    #expect(list.episodes.map(\.chapters) == [[1, 2], [3, 4], [5, 6]])
    #expect(list.episodes.allSatisfy { $0.evidence.first?.detail.hasPrefix("structure:") == true })
    DVDEpisodeDiscs.expectConstructionLengths(list)
    // libdvdnav: First Play plays PGC 1 and stops (nothing links PGC 2); a chapter search at
    // each episode's first chapter plays that episode's PGC alone.
    let firstPlay = try Reference.DVDNav.programChainsPlayed(path: path, buttons: [])
    #expect(firstPlay.map(\.programChain) == [1], "\(firstPlay)")
    var started: [Int] = []
    for episode in list.episodes {
      let part = try #require(episode.chapters.first)
      let played = try Reference.DVDNav.programChainsPlayed(path: path, title: 1, part: part)
      #expect(played.count == 1, "chapter \(part): \(played)")
      #expect(played.first?.part == part, "chapter \(part): \(played)")
      started += played.map(\.programChain)
    }
    #expect(started == [1, 2, 3], "the construction: one PGC per episode")
    try DVDEpisodeDiscs.expectProgramChainEpisodes(disc, list, path: path, programChains: started)
  }
}
