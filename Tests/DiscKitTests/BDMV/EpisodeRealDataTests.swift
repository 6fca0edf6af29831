@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Episodes on the real anime Blu-rays bdpl_disc1..18 against the episodes yxbh/bdpl's own test
/// suite asserts for the same discs (`../shared/realdata/bluray/EPISODES.md`, read here: count,
/// playlist, clip segments, play-all), and the movie discs of the corpus, which are not split.
///
/// The discs carry no stream files; where bdpl kept a disc's menu (`BDMV/ics_menu.bin`, the ICS
/// of the menu's IG stream as bdpl extracted it) its buttons are run in the HDMV machine from
/// the state the navigation enters the menu with, as `BlurayDisc.menuRuns` runs a menu read from
/// the stream file.
///
/// Where DiscKit and EPISODES.md differ, the disc says why:
/// - the last episode of a chapter-split disc (disc3, 14, 15, 16): bdpl ends it at the clip time
///   of the playlist's last mark, which lies on the next play item (the 13-second clip after the
///   episodes) and so is a time of that clip, not of the episodes' clip; on the playlist's
///   timeline that mark is the end of the episodes' play item, where DiscKit ends the episode
///   (the test checks that the bdpl end is that mark's clip time);
/// - a disc of one episode (disc4, 5, 9, 17, 18) is one feature: DiscKit lists no episodes, and
///   the playlist bdpl names plays the main title's long clip.
@Suite("Episodes on real Blu-rays", .toolThreads)
struct EpisodeRealDataTests {
  /// One row of EPISODES.md.
  struct Row: Sendable, CustomStringConvertible {
    var disc: String
    var count: Int
    var playlists: [Int]
    /// Per episode: its segments (clip, in ms, out ms).
    var segments: [[(clip: String, inMs: Int, outMs: Int)]]
    var playAll: Int?
    var description: String { disc }
  }

  static let rows: [Row] = {
    guard let root = Fixtures.realData,
      let text = try? String(
        contentsOf: root.appendingPathComponent("bluray/EPISODES.md"), encoding: .utf8)
    else { return [] }
    var rows: [Row] = []
    for line in text.split(separator: "\n") where line.hasPrefix("| bdpl_disc") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 7, let count = Int(cells[1]) else { continue }
      let playlists = cells[2].split(separator: ",").compactMap {
        Int($0.trimmingCharacters(in: .whitespaces))
      }
      let segments = cells[4].split(separator: ";").map { episode in
        episode.split(separator: "+").compactMap { part -> (String, Int, Int)? in
          let words = part.split(separator: " ")
          guard words.count == 2 else { return nil }
          let range = words[1].split(separator: "-").compactMap { Int($0) }
          guard range.count == 2 else { return nil }
          return (String(words[0]), range[0], range[1])
        }
      }
      rows.append(
        Row(
          disc: cells[0], count: count, playlists: playlists,
          segments: segments.map { $0.map { (clip: $0.0, inMs: $0.1, outMs: $0.2) } },
          playAll: Int(cells[5])))
    }
    return rows
  }()

  /// The disc's navigation runs and its menu's buttons, run from where the navigation shows it.
  static func finding(_ path: String) throws -> (BlurayDisc, BlurayEpisodeFinder.Found, String?) {
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: path))
    let runs = disc.navigationRuns()
    var menuRuns: [HDMVRun] = []
    let ics = path + "/BDMV/ics_menu.bin"
    if FileManager.default.fileExists(atPath: ics), let machine = disc.hdmvMachine {
      let composition = try InteractiveComposition(
        bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: ics))), name: ics)
      // The first playlist the navigation starts that carries an IG stream shows the menu.
      let reach = runs.flatMap(\.reaches).first { reach in
        disc.playlistFile(number: reach.playlist)?.playlist?.playItems.first?.streams
          .interactiveGraphics.isEmpty == false
      }
      if let reach {
        for (page, button) in composition.buttons {
          menuRuns.append(
            machine.runButton(
              button.commands, page: Int(page.id), button: Int(button.id), menu: reach))
        }
      }
    }
    let main = disc.smartSelection().main
    let found = BlurayEpisodeFinder.find(
      disc, runs: runs, menuRuns: menuRuns, main: main.flatMap { Int($0.prefix(5)) })
    return (disc, found, main)
  }

  /// The clip and clip time of a time on a playlist's timeline (45 kHz).
  static func clipTime(_ playlist: MoviePlaylist, _ time: UInt32, end: Bool) -> (String, UInt32)? {
    var start: UInt32 = 0
    for item in playlist.playItems {
      let next = start + item.duration45k
      if time < next || (end && time == next) {
        return (item.clip.clipID, item.inTime + (time - start))
      }
      start = next
    }
    return nil
  }

  @Test("EPISODES.md's episodes", .enabled(if: Fixtures.hasRealData), arguments: rows)
  func bdpl(_ row: Row) throws {
    let (disc, found, main) = try Self.finding(Fixtures.real("bluray/\(row.disc)"))
    if row.count == 1 {
      #expect(found.items.count < 2, "\(row.disc): one feature, not episodes: \(found.reason)")
      // The playlist bdpl names plays the main title's long clip.
      let named = try #require(disc.playlistFile(number: row.playlists[0])?.playlist)
      let mainPlaylist = try #require(main.flatMap { disc.playlistFile(named: $0)?.playlist })
      let longest = try #require(row.segments[0].max { $0.outMs - $0.inMs < $1.outMs - $1.inMs })
      #expect(named.playItems.contains { $0.clip.clipID == longest.clip })
      #expect(mainPlaylist.playItems.contains { $0.clip.clipID == longest.clip })
      return
    }
    #expect(found.items.count == row.count, "\(row.disc): \(found.reason)")
    guard found.items.count == row.count else { return }
    #expect(found.items.map(\.playlist) == row.playlists)
    if let playAll = row.playAll, found.layout != .chapters {
      #expect(found.playAll.first == playAll)
    } else {
      #expect(found.playAll.isEmpty)
    }
    for (n, item) in found.items.enumerated() {
      let playlist = try #require(disc.playlistFile(number: item.playlist)?.playlist)
      let expected = row.segments[n]
      if item.whole {
        // The episode is the whole playlist: its segments are bdpl's.
        #expect(playlist.playItems.count == expected.count)
        for (playItem, segment) in zip(playlist.playItems, expected) {
          #expect(playItem.clip.clipID == segment.clip)
          #expect(abs(Int(playItem.inTime) - segment.inMs * 45) <= 45)
          #expect(abs(Int(playItem.outTime) - segment.outMs * 45) <= 45)
        }
        continue
      }
      #expect(expected.count == 1)
      let segment = try #require(expected.first)
      let start = try #require(Self.clipTime(playlist, item.start, end: false))
      let end = try #require(Self.clipTime(playlist, item.end, end: true))
      #expect(start.0 == segment.clip, "\(row.disc) episode \(n + 1)")
      #expect(
        abs(Int(start.1) - segment.inMs * 45) <= 45,
        "\(row.disc) episode \(n + 1) starts at \(start.1 / 45) ms, bdpl \(segment.inMs)")
      #expect(end.0 == segment.clip)
      if abs(Int(end.1) - segment.outMs * 45) > 45 {
        // bdpl's end of the last chapter range: the clip time of the last mark, on the next play
        // item; DiscKit's end is that mark on the playlist's timeline, the item's end.
        #expect(
          found.layout == .chapters && n == found.items.count - 1,
          "\(row.disc) episode \(n + 1) ends at \(end.1 / 45) ms, bdpl \(segment.outMs)")
        let item = try #require(playlist.playItems.firstIndex { $0.clip.clipID == segment.clip })
        #expect(item + 1 < playlist.playItems.count)
        #expect(end.1 == playlist.playItems[item].outTime)
        let last = try #require(playlist.marks.last { $0.isEntry })
        #expect(Int(last.playItemRef) == item + 1)
        #expect(abs(Int(last.time) - segment.outMs * 45) <= 45)
      }
    }
  }

  /// Movies of the corpus: one long clip (20 chapters), two clips of unlike lengths, a long
  /// clip with a short loop.
  @Test(
    "movie discs are not split",
    .enabled(if: Fixtures.hasRealData),
    arguments: [
      "chaptertool_ConanBrideOfHalloween_DISC1", "chaptertool_ConanZeroTheEnforcer",
      "chaptertool_KimetsuMugenjoP1_DISC1", "bdinfors_BigBuckBunny",
    ])
  func movies(_ name: String) throws {
    let (_, found, _) = try Self.finding(Fixtures.real("bluray/\(name)"))
    #expect(found.items.count < 2, "\(name): \(found.reason)")
  }
}
