@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// DVD episodes as the PGCs of one title, reached by `LinkPGCN` and chained by `NextPGC`, by
/// `LinkPTTN`, and through another display mode's button group
/// (`TestImages/scripts/make-dvd-episodes.sh`), against the construction, libdvdnav's VM and
/// libdvdread:
/// - `dvd-episodes-pgcs`: title 1 of three PGCs (310, 320 and 305 s, two chapters each); the
///   Play All button plays them in a row (LinkNextPGC while GPRM 0 is set), each episode button
///   one (LinkPGCN from the first PGC's pre commands). For every button libdvdnav
///   (`dvdnav_button_select_and_activate`, then `dvdnav_current_title_program` at each cell
///   change) must play the PGCs DiscKit lists, the PGC it starts being the episode's first
///   chapter; each episode as a title of its own is the bytes libdvdread reads for that PGC's
///   cells (`DVDReadBlocks`), decodes without a warning (`ffmpeg -v warning`) on both timelines,
///   and its pictures (`framemd5`) are those of its range of the whole chain's pictures.
/// - `dvd-episodes-pgcs-nomenu`: the same PGCs linked by their headers and no menu: episodes from
///   the structure; libdvdnav plays the three PGCs in a row from First Play.
/// - `dvd-episodes-linkptt`: one PGC, the episodes chapters 1-2, 3-5, 6-7, started by
///   `LinkPTTN` in the title's pre commands: libdvdnav's part for every button.
/// - `dvd-episodes-wide`: a 16:9 menu whose wide group's button 3 plays title 3 where the other
///   groups' button 3 exits: libdvdnav (which reads the first group's buttons) starts title 3,
///   and so must the third episode's button.
@Suite("DVD episodes as PGCs, by LinkPTTN and in other button groups, against libdvdnav", .toolThreads)
struct DVDEpisodeProgramChainTests {
  @Test(.enabled(if: DVDEpisodeDiscs.present("dvd-episodes-pgcs"), DVDEpisodeDiscs.missing))
  func programChainsStartedByLinkPGCN() throws {
    let path = Fixtures.generated("dvd-episodes-pgcs")
    let disc = try Disc.open(path: path)
    let list = try disc.episodeList()
    #expect(list.episodic, "\(list.reason)")
    #expect(list.layout == .programChains, "\(list.reason)")
    #expect(list.confidence == .navigation)
    #expect(list.episodes.map(\.key) == ["1", "1", "1"])
    #expect(list.playAll == ["1"])
    DVDEpisodeDiscs.expectConstructionLengths(list)
    // libdvdnav: Play All (button 1) plays three PGCs of title 1 in a row, each the start of an
    // episode, in DiscKit's order.
    let chain = try Reference.DVDNav.programChainsPlayed(path: path, buttons: [1])
    #expect(chain.map(\.title) == [1, 1, 1], "\(chain)")
    #expect(chain.map(\.programChain) == [1, 2, 3], "the construction chains PGCs 1, 2, 3")
    #expect(chain.map(\.part) == list.episodes.compactMap(\.chapters.first), "\(chain)")
    // Each episode button plays one PGC, the episode's.
    for button in 2...4 {
      let episode = list.episodes[button - 2]
      let played = try Reference.DVDNav.programChainsPlayed(path: path, buttons: [button])
      #expect(played.count == 1, "button \(button): \(played)")
      let first = try #require(played.first, "button \(button)")
      #expect(first.programChain == button - 1, "the construction: button \(button)")
      #expect(String(first.title) == episode.key, "button \(button)")
      #expect(first.part == episode.chapters.first, "button \(button)")
      #expect(
        episode.evidence.first?.detail.contains("starts PGC \(first.programChain) of title 1")
          == true, "\(episode.evidence)")
    }
    // Each episode as a title of its own: libdvdread's blocks of its PGC, its pictures those of
    // its range of the chain's.
    try DVDEpisodeDiscs.expectProgramChainEpisodes(
      disc, list, path: path, programChains: chain.map(\.programChain))
  }

  @Test(
    .enabled(if: DVDEpisodeDiscs.present("dvd-episodes-pgcs-nomenu"), DVDEpisodeDiscs.missing))
  func linkedProgramChainsWithoutMenus() throws {
    let path = Fixtures.generated("dvd-episodes-pgcs-nomenu")
    let list = try Disc.open(path: path).episodeList()
    #expect(list.episodic, "\(list.reason)")
    #expect(list.layout == .programChains)
    #expect(list.confidence == .heuristic)
    #expect(list.playAll == ["1"])
    // libdvdnav from First Play: the PGCs in a row, each an episode's first chapter.
    let chain = try Reference.DVDNav.programChainsPlayed(path: path, buttons: [])
    #expect(chain.map(\.programChain) == [1, 2, 3], "\(chain)")
    #expect(chain.map(\.part) == list.episodes.compactMap(\.chapters.first), "\(chain)")
    DVDEpisodeDiscs.expectConstructionLengths(list)
  }

  @Test(.enabled(if: DVDEpisodeDiscs.present("dvd-episodes-linkptt"), DVDEpisodeDiscs.missing))
  func chapterRangesStartedByLinkPTTN() throws {
    let path = Fixtures.generated("dvd-episodes-linkptt")
    let list = try Disc.open(path: path).episodeList()
    #expect(list.episodic, "\(list.reason)")
    #expect(list.layout == .chapters)
    #expect(list.confidence == .navigation)
    #expect(list.episodes.map(\.chapters) == [[1, 2], [3, 4, 5], [6, 7]])
    #expect(list.playAll == ["1"])
    DVDEpisodeDiscs.expectConstructionLengths(list)
    // libdvdnav: button 1 starts title 1 at chapter 1, buttons 2-4 at the episodes' chapters
    // (chapter 1 by no link, 3 and 6 by LinkPTTN).
    try DVDEpisodeDiscs.expectButtonsStartEpisodeChapters(path, list)
  }

  @Test(.enabled(if: DVDEpisodeDiscs.present("dvd-episodes-wide"), DVDEpisodeDiscs.missing))
  func otherButtonGroupsAreWalked() throws {
    let path = Fixtures.generated("dvd-episodes-wide")
    let list = try Disc.open(path: path).episodeList()
    #expect(list.confidence == .navigation, "\(list.reason)")
    // libdvdnav: buttons 1-3 start titles 1-3 (button 3 from the wide group).
    var theirs: [String] = []
    for button in 1...3 {
      let started = try #require(
        try Reference.DVDNav.titlePart(path: path, buttons: [button]), "button \(button)")
      #expect(started.part == 1)
      theirs.append(String(started.title))
    }
    #expect(theirs == ["1", "2", "3"], "the construction")
    #expect(list.episodes.map(\.key) == theirs)
    #expect(
      list.episodes.last?.evidence.first?.detail.contains("button 3 (group 1, wide)") == true,
      "\(list.episodes.last?.evidence ?? [])")
  }
}
