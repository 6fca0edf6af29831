@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// What a user of libbluray's title list gets on each episode layout (``EpisodeDiscs``): the
/// README's "libbluray's list" column, measured. HandBrake and mpv list
/// `bd_get_titles(TITLES_RELEVANT)` (duplicate titles and playlists repeating a clip more than
/// twice left out) and start `bd_get_main_title`; libbluray knows no episodes, so on every layout
/// the answer is the play-all or less, while DiscKit's episode list is the construction's.
@Suite("Episode layouts in libbluray's title list", .toolThreads)
struct EpisodeLibblurayListTests {
  /// What libbluray lists, in playlist numbers, and its main title's playlist.
  struct Listed {
    var playlists: Set<Int>
    var main: Int?
  }

  static func listed(_ path: String) throws -> Listed {
    let reference = try Reference.Bluray(path: path)
    // TITLES_RELEVANT = TITLES_FILTER_DUP_TITLE | TITLES_FILTER_DUP_CLIP.
    let count = reference.titleCount(flags: 3)
    var playlists: Set<Int> = []
    for index in 0..<count {
      guard let info = reference.titleInfo(index) else { continue }
      // The menu's own short playlist (00050) is not a title a user would pick.
      if Int(info.playlist) != EpisodeDiscs.menuPlaylist { playlists.insert(Int(info.playlist)) }
    }
    let main = count > 0 ? reference.titleInfo(reference.mainTitle).map { Int($0.playlist) } : nil
    return Listed(playlists: playlists, main: main)
  }

  /// The episodes DiscKit lists, as (playlist, start s, end s).
  static func ours(_ path: String) throws -> [[Int]] {
    try Disc.open(path: path).episodeList().episodes.map {
      [Int($0.key) ?? -1, Int($0.start90k / 90_000), Int($0.end90k / 90_000)]
    }
  }

  static func truth(_ t: EpisodeDiscs.Truth) -> [[Int]] {
    t.episodes.map { [$0.playlist, $0.from, $0.to] }
  }

  @Test("a playlist per episode + a play-all: all listed, the play-all is the main title")
  func playlistPerEpisode() throws {
    let (disc, truth) = try EpisodeDiscs.playlistPerEpisode()
    let theirs = try Self.listed(disc.path)
    let episodes = Set(truth.episodes.map(\.playlist))
    #expect(theirs.playlists == episodes.union(truth.playAll))
    #expect(theirs.main == truth.playAll.first)
    #expect(try Self.ours(disc.path) == Self.truth(truth))
  }

  @Test(
    "a play-all only (menu at marks or items, or one clip in chapters): one title",
    arguments: ["marks", "items", "chapters"])
  func playAllOnly(_ layout: String) throws {
    let (disc, truth) =
      switch layout {
      case "marks": try EpisodeDiscs.playAllMarks()
      case "items": try EpisodeDiscs.playAllItems()
      default: try EpisodeDiscs.oneClipChapters()
      }
    let theirs = try Self.listed(disc.path)
    // The one playlist holding every episode (the play-all, or the one long title).
    let holder = Set(truth.playAll).union(truth.episodes.map(\.playlist))
    #expect(holder.count == 1, "\(layout)")
    #expect(theirs.playlists == holder, "\(layout)")
    #expect(try Self.ours(disc.path) == Self.truth(truth), "\(layout)")
    #expect(truth.episodes.count > 1)
  }

  @Test("a play-all repeating a logo and credits: libbluray hides it (a clip repeated > 2 times)")
  func fillerPlayAll() throws {
    let (disc, truth) = try EpisodeDiscs.fillerPlayAll()
    let theirs = try Self.listed(disc.path)
    #expect(theirs.playlists == Set(truth.episodes.map(\.playlist)))
    #expect(truth.playAll.allSatisfy { !theirs.playlists.contains($0) })
    #expect(try Self.ours(disc.path) == Self.truth(truth))
  }

  @Test("only a play-all repeating a logo and credits: libbluray lists nothing")
  func fillerPlayAllOnly() throws {
    let (disc, truth) = try EpisodeDiscs.fillerPlayAllOnly()
    let theirs = try Self.listed(disc.path)
    #expect(theirs.playlists.isEmpty)
    #expect(try Self.ours(disc.path) == Self.truth(truth))
  }

  @Test("IN/OUT ranges of one clip, per-language copies: all listed, the play-all main")
  func allListed() throws {
    for (disc, truth) in [try EpisodeDiscs.rangesOfOneClip(), try EpisodeDiscs.languageCopies()] {
      let theirs = try Self.listed(disc.path)
      let copies = truth.variants.values.flatMap { $0 }
      let all = Set(truth.episodes.map(\.playlist)).union(truth.playAll).union(copies)
      #expect(theirs.playlists == all)
      #expect(theirs.main.map { truth.playAll.contains($0) } == true)
      #expect(try Self.ours(disc.path) == Self.truth(truth))
    }
  }
}
