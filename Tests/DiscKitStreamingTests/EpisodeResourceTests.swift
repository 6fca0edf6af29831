@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitStreaming

/// Episodes through the server core: an episode's key (`00010:e2`, ``Episode/titleKey``) is a
/// title key, its resource serves the episode's bytes (`stream` and `stream.ts`), and the titles
/// document the server serves lists the episodes with those keys.
@Suite("Episode resources", .toolThreads)
struct EpisodeResourceTests {
  @Test func episodeKeysAreTitleKeys() {
    for key in ["00002:e3", "2:e1", "00800.mpls:e12", "3:e99"] { #expect(TitleKey.isTitle(key), "\(key)") }
    for key in ["00002:", "00002:x3", "00002:e", ":e3", "00002:e3x", "abc:e1", "00002:e12345"] {
      #expect(!TitleKey.isTitle(key), "\(key)")
    }
  }

  @Test func anEpisodeIsServedAsATitle() throws {
    let (written, truth) = try EpisodeDiscs.playAllMarks()
    let library = try DiscLibrary(root: written.path)
    let entry = try #require(library.entries().first)
    let opened = try library.open(id: entry.id)
    let document = try TitlesDocument(disc: opened.disc)
    let episodes = try #require(document.episodes?.episodes)
    #expect(episodes.count == truth.episodes.count)
    for episode in episodes {
      let resource = try TitleResource(disc: opened, key: episode.titleKey)
      let expected = try opened.disc.title(key: episode.titleKey).byteSource(timeline: .continuous)
      #expect(resource.length == expected.size)
      #expect(resource.title.key == episode.titleKey)
      #expect(resource.title.duration.ticks == episode.duration90k)
      let ts = try TitleResource(disc: opened, key: episode.titleKey, plainTransportStream: true)
      #expect(ts.length == expected.size / 192 * 188)
    }
    // An episode the disc does not have is 404.
    let error = #expect(throws: StreamingError.self) {
      try TitleResource(disc: opened, key: "00010:e9")
    }
    #expect(error?.status == 404)
  }
}
