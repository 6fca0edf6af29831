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
  static func present(_ name: String) -> Bool {
    FileManager.default.fileExists(atPath: Fixtures.generated(name) + "/VIDEO_TS/VIDEO_TS.IFO")
  }
  static let missing: Comment = "run TestImages/scripts/make-dvd-episodes.sh (make images)"
  /// The construction: the episodes' lengths in seconds (NTSC, 1000/1001 time).
  static let seconds = [310.0, 320.0, 305.0]

  /// `ffmpeg -map 0:v -f framemd5` of a file: each picture's size and hash, in order.
  static func pictures(_ file: String) throws -> [String] {
    let run = try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-i", file, "-map", "0:v", "-fps_mode", "passthrough", "-f", "framemd5", "-",
      ])
    return run.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      line.split(separator: ",").suffix(2).map {
        $0.trimmingCharacters(in: .whitespaces)
      }.joined(separator: ",")
    }
  }

  @Test(.enabled(if: present("dvd-episodes-pgcs"), missing))
  func programChainsStartedByLinkPGCN() throws {
    let path = Fixtures.generated("dvd-episodes-pgcs")
    let disc = try Disc.open(path: path)
    let list = try disc.episodeList()
    #expect(list.episodic, "\(list.reason)")
    #expect(list.layout == .programChains, "\(list.reason)")
    #expect(list.confidence == .navigation)
    #expect(list.episodes.map(\.key) == ["1", "1", "1"])
    #expect(list.playAll == ["1"])
    for (episode, s) in zip(list.episodes, Self.seconds) {
      #expect(abs(Double(episode.duration90k) / 90_000 - s * 1000 / 1001) < 1)
    }
    // libdvdnav: Play All (button 1) plays three PGCs of title 1 in a row, each the start of an
    // episode, in DiscKit's order.
    let chain = try Reference.DVDNav.programChainsPlayed(path: path, buttons: [1])
    #expect(chain.map(\.title) == [1, 1, 1], "\(chain)")
    #expect(chain.map(\.programChain) == [1, 2, 3], "the construction chains PGCs 1, 2, 3")
    #expect(chain.map(\.part) == list.episodes.compactMap(\.chapters.first), "\(chain)")
    // Each episode button plays one PGC, the one libdvdread's cells of are the episode's bytes.
    let reader = try Reference.DVDReader(path: path)
    var whole: [UInt8] = []
    for number in chain.map(\.programChain) {
      let pgc = try #require(reader.programChain(titleSet: 1, number: number))
      whole += try reader.readTitleVOBs(
        titleSet: 1, ranges: pgc.cells.map { ($0.firstSector, $0.lastSector) })
    }
    let dir = try TemporaryDirectory("dvd-pgc-episodes")
    let wholeFile = dir.file("chain.vob")
    try Data(whole).write(to: URL(fileURLWithPath: wholeFile))
    let allPictures = Tool.has("ffmpeg") ? try Self.pictures(wholeFile) : []
    var picturesBefore = 0
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
      let pgc = try #require(reader.programChain(titleSet: 1, number: first.programChain))
      let theirs = try reader.readTitleVOBs(
        titleSet: 1, ranges: pgc.cells.map { ($0.firstSector, $0.lastSector) })
      let title = try disc.title(key: episode.titleKey)
      #expect(title.duration.ticks == episode.duration90k)
      #expect(title.chapters.map(\.number) == [1, 2])
      #expect(title.chapters.first?.start.ticks == 0)
      let source = try title.byteSource()
      let mine = try source.bytes(at: 0, count: Int(source.size), structure: "episode")
      #expect(
        mine == theirs, "\(episode.titleKey): libdvdread's blocks of PGC \(first.programChain)")
      guard Tool.has("ffmpeg") else { continue }
      let (file, moved) = try expectEpisodeVOBsDecode(
        title, bytes: mine, key: episode.titleKey, number: episode.number, in: dir)
      // Both timelines give the chain's pictures in its range.
      let pictures = try Self.pictures(file)
      #expect(!pictures.isEmpty)
      let range = picturesBefore..<min(allPictures.count, picturesBefore + pictures.count)
      #expect(Array(allPictures[range]) == pictures, "\(episode.titleKey): framemd5")
      #expect(try Self.pictures(moved) == pictures, "\(episode.titleKey) continuous: framemd5")
      picturesBefore += pictures.count
    }
    #expect(picturesBefore == allPictures.count || !Tool.has("ffmpeg"))
  }

  @Test(.enabled(if: present("dvd-episodes-pgcs-nomenu"), missing))
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
    for (episode, s) in zip(list.episodes, Self.seconds) {
      #expect(abs(Double(episode.duration90k) / 90_000 - s * 1000 / 1001) < 1)
    }
  }

  @Test(.enabled(if: present("dvd-episodes-linkptt"), missing))
  func chapterRangesStartedByLinkPTTN() throws {
    let path = Fixtures.generated("dvd-episodes-linkptt")
    let list = try Disc.open(path: path).episodeList()
    #expect(list.episodic, "\(list.reason)")
    #expect(list.layout == .chapters)
    #expect(list.confidence == .navigation)
    #expect(list.episodes.map(\.chapters) == [[1, 2], [3, 4, 5], [6, 7]])
    #expect(list.playAll == ["1"])
    for (episode, s) in zip(list.episodes, Self.seconds) {
      #expect(abs(Double(episode.duration90k) / 90_000 - s * 1000 / 1001) < 1)
    }
    // libdvdnav: button 1 starts title 1 at chapter 1, buttons 2-4 at the episodes' chapters
    // (chapter 1 by no link, 3 and 6 by LinkPTTN).
    for button in 1...4 {
      let theirs = try #require(
        try Reference.DVDNav.titlePart(path: path, buttons: [button]), "button \(button)")
      #expect(theirs.title == 1, "button \(button)")
      let wanted = button == 1 ? 1 : list.episodes[button - 2].chapters.first
      #expect(theirs.part == wanted, "button \(button)")
    }
  }

  @Test(.enabled(if: present("dvd-episodes-wide"), missing))
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
