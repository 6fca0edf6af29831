import CBluray
@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// libbluray's HDMV VM and graphics controller as the oracle for episode menus: on each menu
/// layout of ``EpisodeDiscs`` (buttons that set a register and jump to a title whose movie
/// object plays `PlayPL`, `PlayPLatMK` or `PlayPLatPI` with it), every button is made the page's
/// selected one and activated in libbluray (`bd_play` with menus, `bd_user_input(ENTER)`); the
/// playlist libbluray then starts (`BD_EVENT_PLAYLIST`) and where it starts (`bd_tell_time` once
/// the playlist is playing) must be the playlist and start of the episode DiscKit lists for that
/// button, and the button order the episode order.
@Suite("Episode menus against libbluray", .toolThreads)
struct EpisodeMenuReferenceTests {
  /// libbluray: play with menus, press ENTER on the selected button, and return the first
  /// playlist started after the menu's, with the title time it plays from.
  static func activation(_ path: String) -> (playlist: Int, time90k: UInt64, chapter: UInt32)? {
    guard let bd = bd_open(path, nil) else { return nil }
    defer { bd_close(bd) }
    bd_register_overlay_proc(bd, nil) { _, _ in }
    guard bd_play(bd) != 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 6144)
    var menuRead = false
    var accepted = false
    var started: Int?
    for _ in 0..<400 {
      var event = BD_EVENT()
      let got = buffer.withUnsafeMutableBufferPointer {
        bd_read_ext(bd, $0.baseAddress, Int32($0.count), &event)
      }
      var events = [event]
      while bd_get_event(bd, &event) != 0 { events.append(event) }
      for e in events where e.event == UInt32(BD_EVENT_PLAYLIST.rawValue) && accepted {
        if Int(e.param) != EpisodeDiscs.menuPlaylist && started == nil { started = Int(e.param) }
      }
      if let started { return (started, bd_tell_time(bd), bd_get_current_chapter(bd)) }
      if got > 0 { menuRead = true }
      if menuRead && !accepted { accepted = bd_user_input(bd, -1, 16) >= 0 }
    }
    return nil
  }

  static let layouts:
    [(String, @Sendable () throws -> (SyntheticBluray, EpisodeDiscs.Truth), [[NavigationCommand]])] =
      [
        (
          "PlayPL through GPR1", { try EpisodeDiscs.playlistPerEpisode() },
          [10, 11, 12, 13].map {
            [.set(.move, .gpr(1), .immediate(UInt32($0))), .jumpTitle(.immediate(1))]
          }
        ),
        (
          "PlayPLatMK through GPR2", EpisodeDiscs.playAllMarks,
          [0, 5, 10].map {
            [.set(.move, .gpr(2), .immediate(UInt32($0))), .jumpTitle(.immediate(1))]
          }
        ),
        (
          "PlayPLatPI through GPR3", EpisodeDiscs.playAllItems,
          [0, 1, 2].map {
            [.set(.move, .gpr(3), .immediate(UInt32($0))), .jumpTitle(.immediate(1))]
          }
        ),
        (
          "PlayPLatMK into one clip's chapters", EpisodeDiscs.oneClipChapters,
          [0, 4, 7].map {
            [.set(.move, .gpr(2), .immediate(UInt32($0))), .jumpTitle(.immediate(1))]
          }
        ),
      ]

  @Test(
    "every episode button starts in libbluray where DiscKit's episode starts",
    arguments: layouts.indices)
  func buttons(_ index: Int) throws {
    let (name, make, buttons) = Self.layouts[index]
    let (written, truth) = try make()
    let list = try Disc.open(path: written.path).episodeList()
    #expect(list.confidence == .navigation, "\(name): \(list.reason)")
    // The buttons that start an episode, in order (the first of four is Play All).
    let episodeButtons =
      buttons.count > truth.episodes.count ? Array(2...buttons.count) : Array(1...buttons.count)
    #expect(episodeButtons.count == list.episodes.count, "\(name)")
    for (button, episode) in zip(episodeButtons, list.episodes) {
      try written.write(
        "BDMV/STREAM/00050.m2ts", EpisodeDiscs.menuStream(buttons, selected: UInt16(button)))
      let theirs = try #require(Self.activation(written.path), "\(name): button \(button)")
      #expect(theirs.playlist == Int(episode.key), "\(name): button \(button)")
      // The chapter libbluray plays is the episode's first (bd_get_current_chapter: 0-based),
      // and its position is the episode's start (bd_tell_time interpolates within the clip's
      // one-second entry points: within 10 ms).
      let first = episode.chapters.first ?? 1
      #expect(Int(theirs.chapter) + 1 == first, "\(name): button \(button)")
      #expect(abs(Int64(theirs.time90k) - episode.start90k) < 900, "\(name): button \(button)")
    }
    if buttons.count > truth.episodes.count {
      try written.write("BDMV/STREAM/00050.m2ts", EpisodeDiscs.menuStream(buttons, selected: 1))
      let playAll = try #require(Self.activation(written.path))
      #expect(list.playAll.contains(String(format: "%05d", playAll.playlist)), "\(name): play all")
    }
  }
}
