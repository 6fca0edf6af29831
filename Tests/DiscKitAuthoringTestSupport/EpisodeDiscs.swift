@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitTestSupport
import Foundation

/// TV-series Blu-rays in the layouts retail discs use (episodes-research.md): each written with
/// the BDMV builder from its construction, which the tests compare DiscKit's episodes with (and,
/// for the menu layouts, libbluray's HDMV VM).
///
/// Clips are metadata (``SyntheticBluray/clipInfo(seconds:start45k:packetsPerSecond:)``, one entry
/// point a second) with stream files of one packet a second, so that libbluray can open them.
package enum EpisodeDiscs {
  package typealias C = NavigationCommand

  /// What a layout's construction says: each episode's playlist and its range in it (seconds),
  /// and the play-all and extras playlists.
  package struct Truth: Sendable {
    package var episodes: [(playlist: Int, from: Int, to: Int)]
    package var playAll: [Int] = []
    package var extras: [Int] = []
    /// Playlists that are copies of episode k (0-based).
    package var variants: [Int: [Int]] = [:]
  }

  /// The playlist showing the menu (its clip 00050 carries the IG stream).
  package static let menuPlaylist = 50

  /// A disc with `clips` (id → seconds), each with a stream file of one packet a second.
  static func disc(_ clips: [(String, Int)]) throws -> SyntheticBluray {
    let disc = try SyntheticBluray()
    for (id, seconds) in clips {
      try disc.clip(id, SyntheticBluray.clipInfo(seconds: seconds, packetsPerSecond: 1))
      var null = [UInt8](repeating: 0xFF, count: 192)
      null[0..<8] = [0, 0, 0, 0, 0x47, 0x1F, 0xFF, 0x10]
      try disc.write(
        "BDMV/STREAM/\(id).m2ts", [[UInt8]](repeating: null, count: seconds).flatMap { $0 })
    }
    return disc
  }

  /// A playlist of clip ranges (seconds), a chapter every `every` seconds of each item.
  static func playlist(_ ranges: [(String, Int, Int)], every: Int = 60) -> MoviePlaylist {
    let items = ranges.map { SyntheticBluray.item($0.0, from: $0.1, to: $0.2) }
    return MoviePlaylist(playItems: items, marks: SyntheticBluray.marks(every: every, items: items))
  }

  /// First Play jumps to the Top Menu, which shows the menu playlist (its IG stream holds
  /// `buttons`, one page) and loops; index title 1 runs object 2 (`title`), and the Top Menu
  /// returns from it.
  static func menu(
    _ disc: SyntheticBluray, buttons: [[C]], title: [C]
  ) throws {
    try disc.clip("00050", SyntheticBluray.clipInfo(seconds: 32, packetsPerSecond: 1))
    var stn = SyntheticBluray.standardStreams
    stn.interactiveGraphics = [PlaylistStream(pid: 0x1400, codingType: 0x91, language: "eng")]
    var item = SyntheticBluray.item("00050", from: 0, to: 32)
    item.streams = stn
    item.stillMode = 2
    try disc.playlist(menuPlaylist, MoviePlaylist(playItems: [item]))
    try disc.write("BDMV/STREAM/00050.m2ts", menuStream(buttons))
    try BlurayScenarioDiscs.navigation(
      disc,
      [
        [.jumpTitle(.immediate(0))],
        [.playPlaylist(.immediate(UInt32(menuPlaylist))), .goto(.immediate(0))],
        title + [.jumpTitle(.immediate(0))],
      ], titleObjects: [2])
  }

  /// The buttons (ids 1, 2, ...) of one page, each in its own overlap group, chained up and down.
  package static func composition(_ buttons: [[C]], selected: UInt16 = 1) -> InteractiveComposition
  {
    var page = IGPage(
      id: 0,
      groups: buttons.enumerated().map { k, commands in
        var button = IGButton(id: UInt16(k + 1), commands: commands)
        button.x = 100
        button.y = UInt16(100 + 80 * k)
        let up: UInt16 = k > 0 ? UInt16(k) : 0xFFFF
        let down: UInt16 = k + 1 < buttons.count ? UInt16(k + 2) : 0xFFFF
        button.neighbours = [up, down, 0xFFFF, 0xFFFF]
        return IGButtonOverlapGroup(defaultValidButton: UInt16(k + 1), buttons: [button])
      })
    page.defaultSelectedButton = selected
    return InteractiveComposition(pages: [page], streamModel: 0)
  }

  /// The menu clip's IG stream (``IGMenuStream/drawn(_:)``) for `buttons`.
  package static func menuStream(_ buttons: [[C]], selected: UInt16 = 1) -> [UInt8] {
    IGMenuStream.drawn(composition(buttons, selected: selected))
  }

  // MARK: Layouts

  /// Three episodes of 10 minutes, one clip (00201-00203) and one playlist (00011-00013) each,
  /// and a play-all (00010) of the three clips. The menu's buttons set GPR1 to the playlist and
  /// jump to title 1, whose object plays `PlayPL GPR1` (Play All: 00010).
  package static func playlistPerEpisode(menu withMenu: Bool = true) throws -> (
    SyntheticBluray, Truth
  ) {
    let disc = try disc([("00201", 600), ("00202", 620), ("00203", 590)])
    try disc.playlist(10, playlist([("00201", 0, 600), ("00202", 0, 620), ("00203", 0, 590)]))
    for (k, (id, length)) in [("00201", 600), ("00202", 620), ("00203", 590)].enumerated() {
      try disc.playlist(11 + k, playlist([(id, 0, length)]))
    }
    let truth = Truth(
      episodes: [(11, 0, 600), (12, 0, 620), (13, 0, 590)], playAll: [10])
    if withMenu {
      try menu(
        disc,
        buttons: [10, 11, 12, 13].map {
          [.set(.move, .gpr(1), .immediate(UInt32($0))), .jumpTitle(.immediate(1))]
        }, title: [.playPlaylist(.gpr(1))])
    } else {
      try disc.navigation(plays: [[10]])
    }
    return (disc, truth)
  }

  /// Only a play-all (00010) of three episode clips; the menu's episode buttons set GPR2 to the
  /// mark where each starts and jump to title 1, whose object plays `PlayPLatMK 10 GPR2`
  /// (chapters every 2 minutes: episode k starts at mark 5k).
  package static func playAllMarks() throws -> (SyntheticBluray, Truth) {
    let disc = try disc([("00201", 600), ("00202", 600), ("00203", 600)])
    try disc.playlist(
      10, playlist([("00201", 0, 600), ("00202", 0, 600), ("00203", 0, 600)], every: 120))
    try menu(
      disc,
      buttons: [0, 5, 10].map {
        [.set(.move, .gpr(2), .immediate(UInt32($0))), .jumpTitle(.immediate(1))]
      }, title: [.playPlaylist(.immediate(10), mark: .gpr(2))])
    return (
      disc, Truth(episodes: [(10, 0, 600), (10, 600, 1200), (10, 1200, 1800)], playAll: [10])
    )
  }

  /// Only a play-all (00010) of three episode clips reached by `PlayPLatPI 10 GPR3`.
  package static func playAllItems() throws -> (SyntheticBluray, Truth) {
    let disc = try disc([("00201", 600), ("00202", 600), ("00203", 600)])
    try disc.playlist(10, playlist([("00201", 0, 600), ("00202", 0, 600), ("00203", 0, 600)]))
    try menu(
      disc,
      buttons: [0, 1, 2].map {
        [.set(.move, .gpr(3), .immediate(UInt32($0))), .jumpTitle(.immediate(1))]
      }, title: [.playPlaylist(.immediate(10), item: .gpr(3))])
    return (
      disc, Truth(episodes: [(10, 0, 600), (10, 600, 1200), (10, 1200, 1800)], playAll: [10])
    )
  }

  /// One long clip (00301, 31 minutes) holding three episodes of uneven chapter counts in one
  /// playlist (00020); the menu's buttons start it at marks 0, 4 and 7 (`PlayPLatMK` via GPR2).
  package static func oneClipChapters() throws -> (SyntheticBluray, Truth) {
    let disc = try disc([("00301", 1860)])
    // Chapters (seconds): episode 1 at 0, 90, 400, 560; episode 2 at 620, 710, 1150; episode 3
    // at 1240, 1330, 1700.
    let starts = [0, 90, 400, 560, 620, 710, 1150, 1240, 1330, 1700]
    let item = SyntheticBluray.item("00301", from: 0, to: 1860)
    try disc.playlist(
      20,
      MoviePlaylist(
        playItems: [item],
        marks: starts.map { PlaylistMark(playItemRef: 0, time: item.inTime + UInt32($0) * 45000) }))
    try menu(
      disc,
      buttons: [0, 4, 7].map {
        [.set(.move, .gpr(2), .immediate(UInt32($0))), .jumpTitle(.immediate(1))]
      }, title: [.playPlaylist(.immediate(20), mark: .gpr(2))])
    return (disc, Truth(episodes: [(20, 0, 620), (20, 620, 1240), (20, 1240, 1860)]))
  }

  /// A play-all (00010) repeating a 20-second logo (00100) before and 60 seconds of credits
  /// (00101) after each of three episodes, and each episode's own playlist (00011-00013: logo,
  /// episode, credits); no menu.
  package static func fillerPlayAll() throws -> (SyntheticBluray, Truth) {
    let disc = try disc([
      ("00100", 20), ("00101", 60), ("00201", 600), ("00202", 600), ("00203", 600),
    ])
    var all: [(String, Int, Int)] = []
    for (k, id) in ["00201", "00202", "00203"].enumerated() {
      let one = [("00100", 0, 20), (id, 0, 600), ("00101", 0, 60)]
      all += one
      try disc.playlist(11 + k, playlist(one))
    }
    try disc.playlist(10, playlist(all))
    try disc.navigation(plays: [[10]])
    return (
      disc, Truth(episodes: [(11, 0, 680), (12, 0, 680), (13, 0, 680)], playAll: [10])
    )
  }

  /// A play-all (00010) repeating the logo and credits, and no playlist per episode: each episode
  /// is its items (logo, episode, credits).
  package static func fillerPlayAllOnly() throws -> (SyntheticBluray, Truth) {
    let disc = try disc([
      ("00100", 20), ("00101", 60), ("00201", 600), ("00202", 600), ("00203", 600),
    ])
    var all: [(String, Int, Int)] = []
    for id in ["00201", "00202", "00203"] {
      all += [("00100", 0, 20), (id, 0, 600), ("00101", 0, 60)]
    }
    try disc.playlist(10, playlist(all))
    try disc.navigation(plays: [[10]])
    return (
      disc, Truth(episodes: [(10, 0, 680), (10, 680, 1360), (10, 1360, 2040)], playAll: [10])
    )
  }

  /// Episodes as IN/OUT ranges of one long clip (00301): playlists 00031-00033 and the play-all
  /// 00030 of the three ranges; no menu.
  package static func rangesOfOneClip() throws -> (SyntheticBluray, Truth) {
    let disc = try disc([("00301", 1800)])
    let ranges = [("00301", 0, 600), ("00301", 600, 1200), ("00301", 1200, 1800)]
    try disc.playlist(30, playlist(ranges))
    for (k, range) in ranges.enumerated() { try disc.playlist(31 + k, playlist([range])) }
    try disc.navigation(plays: [[30]])
    return (disc, Truth(episodes: [(31, 0, 600), (32, 0, 600), (33, 0, 600)], playAll: [30]))
  }

  /// Per-language copies: playlists 00801-00803 (English) and 00851-00853 (the same clips, a
  /// Japanese audio stream first) and play-alls 00800/00850; no menu.
  package static func languageCopies() throws -> (SyntheticBluray, Truth) {
    let disc = try disc([("00201", 600), ("00202", 600), ("00203", 600)])
    var japanese = SyntheticBluray.standardStreams
    japanese.audio.insert(
      PlaylistStream(pid: 0x1101, codingType: 0x81, format: 3, rate: 1, language: "jpn"), at: 0)
    let ids = ["00201", "00202", "00203"]
    for (k, id) in ids.enumerated() {
      try disc.playlist(801 + k, playlist([(id, 0, 600)]))
      var copy = playlist([(id, 0, 600)])
      copy.playItems[0].streams = japanese
      try disc.playlist(851 + k, copy)
    }
    try disc.playlist(800, playlist(ids.map { ($0, 0, 600) }))
    var all = playlist(ids.map { ($0, 0, 600) })
    for i in all.playItems.indices { all.playItems[i].streams = japanese }
    try disc.playlist(850, all)
    try disc.navigation(plays: [[800]])
    return (
      disc,
      Truth(
        episodes: [(801, 0, 600), (802, 0, 600), (803, 0, 600)], playAll: [800, 850],
        variants: [0: [851], 1: [852], 2: [853]])
    )
  }

  /// A play-all of three episodes (00010, clips 00201-00203, no playlist of their own) and a
  /// second play-all (00040) of two featurettes of episode length (00401, 00402): extras.
  package static func extrasPlayAll() throws -> (SyntheticBluray, Truth) {
    let disc = try disc([
      ("00201", 600), ("00202", 600), ("00203", 600), ("00401", 560), ("00402", 580),
    ])
    try disc.playlist(10, playlist([("00201", 0, 600), ("00202", 0, 600), ("00203", 0, 600)]))
    try disc.playlist(40, playlist([("00401", 0, 560), ("00402", 0, 580)]))
    try disc.navigation(plays: [[10]])
    return (
      disc,
      Truth(
        episodes: [(10, 0, 600), (10, 600, 1200), (10, 1200, 1800)], playAll: [10], extras: [40])
    )
  }

  /// Undecided: a 45-minute feature the navigation plays, and two play-alls of three 10-minute
  /// clips each (playlists 10 and 40) sharing no clip and holding nothing of the feature: which
  /// one holds the episodes (the other featurettes), nothing on the disc says.
  package static func twoEqualPlayAlls() throws -> SyntheticBluray {
    let disc = try disc([
      ("00001", 2700), ("00201", 600), ("00202", 610), ("00203", 600), ("00401", 600),
      ("00402", 600), ("00403", 590),
    ])
    try disc.playlist(800, playlist([("00001", 0, 2700)], every: 300))
    try disc.playlist(10, playlist([("00201", 0, 600), ("00202", 0, 610), ("00203", 0, 600)]))
    try disc.playlist(40, playlist([("00401", 0, 600), ("00402", 0, 600), ("00403", 0, 590)]))
    try disc.navigation(plays: [[800]])
    return disc
  }

  /// A movie: one clip of two hours with a chapter every 5 minutes (24 chapters).
  package static func movie() throws -> SyntheticBluray {
    let disc = try disc([("00001", 7200)])
    try disc.playlist(800, playlist([("00001", 0, 7200)], every: 300))
    try disc.navigation(plays: [[800]])
    return disc
  }

  /// A movie (one clip of two hours, a chapter every 5 minutes) whose menu is its last
  /// scene-selection page: buttons starting it at chapters 21-24 (`PlayPLatMK` via GPR2), four
  /// ranges of 5 minutes to its end. Read as an episode page, it would split the film's last 20
  /// minutes into four "episodes".
  package static func movieSceneSelection() throws -> SyntheticBluray {
    let disc = try disc([("00001", 7200)])
    try disc.playlist(800, playlist([("00001", 0, 7200)], every: 300))
    try menu(
      disc,
      buttons: [20, 21, 22, 23].map {
        [.set(.move, .gpr(2), .immediate(UInt32($0))), .jumpTitle(.immediate(1))]
      }, title: [.playPlaylist(.immediate(800), mark: .gpr(2))])
    return disc
  }

  /// A movie in two clips of unlike lengths (an hour and 20 minutes), seamlessly joined.
  package static func twoPartMovie() throws -> SyntheticBluray {
    let disc = try disc([("00001", 3600), ("00002", 1200)])
    var feature = playlist([("00001", 0, 3600), ("00002", 0, 1200)], every: 300)
    feature.playItems[1].connectionCondition = 5
    try disc.playlist(800, feature)
    try disc.navigation(plays: [[800]])
    return disc
  }
}
