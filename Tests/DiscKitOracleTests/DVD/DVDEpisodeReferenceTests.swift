@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// DVD episodes (`TestImages/scripts/make-dvd-episodes.sh`: a title per episode and a play-all
/// title holding its own copy of them) against the construction and libdvdnav's VM: the VMGM
/// menu's buttons 2-4 play titles 1-3 and button 1 the play-all (title 4) in libdvdnav
/// (`dvdnav_button_select_and_activate`); those must be DiscKit's episodes, in that order, and its
/// play-all; the copy of episode 2 (title 5) is a variant; the movie disc is not episodic.
@Suite("DVD episodes against libdvdnav", .toolThreads)
struct DVDEpisodeReferenceTests {
  static let names = ["dvd-episodes-playall", "dvd-episodes-copies", "dvd-episodes-movie"]
  static let present = names.allSatisfy {
    FileManager.default.fileExists(atPath: Fixtures.generated($0) + "/VIDEO_TS/VIDEO_TS.IFO")
  }

  @Test(
    .enabled(if: present, "run TestImages/scripts/make-dvd-episodes.sh (make images)"),
    arguments: ["dvd-episodes-playall", "dvd-episodes-copies"])
  func episodeButtons(_ name: String) throws {
    let path = Fixtures.generated(name)
    let list = try Disc.open(path: path).episodeList()
    #expect(list.episodic, "\(name): \(list.reason)")
    #expect(list.episodes.map(\.key) == ["1", "2", "3"], "\(name)")
    // The construction: 310, 320 and 305 s of NTSC video (1000/1001 time), two chapters each.
    let seconds = [310.0, 320.0, 305.0]
    for (episode, s) in zip(list.episodes, seconds) {
      #expect(abs(Double(episode.duration90k) / 90_000 - s * 1000 / 1001) < 1, "\(name)")
      #expect(episode.chapters == [1, 2])
      // The episode as a title of its own is that title.
      let title = try Disc.open(path: path).title(key: episode.titleKey)
      #expect(title.duration.ticks == episode.duration90k)
    }
    #expect(list.playAll.first == "4")
    if name == "dvd-episodes-copies" { #expect(list.episodes[1].variants == ["5"]) }
    // libdvdnav: button 1 plays the play-all, buttons 2-4 the episodes.
    for button in 1...4 {
      let theirs = try Reference.DVDNav.follow(path: path, buttons: [button])
      guard case .title(let title, _, _) = theirs else {
        Issue.record("\(name) button \(button): libdvdnav reached \(theirs)")
        continue
      }
      if button == 1 {
        #expect(list.playAll.contains(String(title)), "\(name) button 1")
      } else {
        #expect(String(title) == list.episodes[button - 2].key, "\(name) button \(button)")
      }
    }
  }

  @Test(.enabled(if: present, "run TestImages/scripts/make-dvd-episodes.sh (make images)"))
  func aMovieIsNotEpisodic() throws {
    let list = try Disc.open(path: Fixtures.generated("dvd-episodes-movie")).episodeList()
    #expect(!list.episodic, "\(list.reason)")
  }
}
