@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// Episodes on discs written in each layout retail TV discs use (``EpisodeDiscs``), against each
/// disc's construction: the playlist and range of every episode, the play-all, the extras and the
/// copies; a movie is not split. The episodes' own titles are checked against the same
/// construction (duration, chapters from 0, the clip ranges).
@Suite("Episode layouts", .toolThreads)
struct EpisodeLayoutTests {
  static let layouts: [(String, @Sendable () throws -> (SyntheticBluray, EpisodeDiscs.Truth))] = [
    ("playlist per episode, menu", { try EpisodeDiscs.playlistPerEpisode() }),
    ("playlist per episode, no menu", { try EpisodeDiscs.playlistPerEpisode(menu: false) }),
    ("play-all marks through a register", EpisodeDiscs.playAllMarks),
    ("play-all items through a register", EpisodeDiscs.playAllItems),
    ("one clip, uneven chapter ranges", EpisodeDiscs.oneClipChapters),
    ("play-all repeating logo and credits", EpisodeDiscs.fillerPlayAll),
    ("play-all only, repeating logo and credits", EpisodeDiscs.fillerPlayAllOnly),
    ("IN/OUT ranges of one clip", EpisodeDiscs.rangesOfOneClip),
    ("per-language copies", EpisodeDiscs.languageCopies),
    ("a second play-all of extras", EpisodeDiscs.extrasPlayAll),
  ]

  @Test("each layout's episodes are its construction's", arguments: layouts.indices)
  func layout(_ index: Int) throws {
    let (name, make) = Self.layouts[index]
    let (written, truth) = try make()
    let disc = try Disc.open(path: written.path)
    let list = try disc.episodeList()
    #expect(list.episodic, "\(name): \(list.reason)")
    #expect(list.episodes.count == truth.episodes.count, "\(name): \(list.reason)")
    for (episode, expected) in zip(list.episodes, truth.episodes) {
      #expect(Int(episode.key) == expected.playlist, "\(name) episode \(episode.number)")
      #expect(
        episode.start90k == Int64(expected.from) * 90_000, "\(name) episode \(episode.number)")
      #expect(episode.end90k == Int64(expected.to) * 90_000, "\(name) episode \(episode.number)")
      let copies = truth.variants[episode.number - 1] ?? []
      for copy in copies { #expect(episode.variants.contains(String(format: "%05d", copy))) }
      #expect(!episode.evidence.isEmpty)
      // The episode as a title of its own: from 0, its range's length, chapters from 0.
      let title = try disc.title(key: episode.titleKey)
      #expect(title.key == episode.titleKey)
      #expect(title.duration.ticks == Int64(expected.to - expected.from) * 90_000, "\(name)")
      #expect(title.chapters.first?.start.ticks == 0)
      #expect(title.chapters.allSatisfy { $0.start.ticks < title.duration.ticks })
      #expect(
        title.chapters.count == max(1, episode.chapters.count), "\(name) episode \(episode.number)")
      // Its clip ranges lie in the holding playlist's clips, in the construction's range.
      let holder = try disc.title(key: episode.key)
      var at: Int64 = 0
      var next =
        holder.clips.lastIndex { $0.start.ticks <= Int64(expected.from) * 90_000 } ?? 0
      for clip in title.clips {
        let found = try #require(
          holder.clips.indices.first { k in
            let h = holder.clips[k]
            return k >= next && h.clipID == clip.clipID && h.inTime.ticks <= clip.inTime.ticks
              && clip.outTime.ticks <= h.outTime.ticks
          })
        next = found + 1
        let source = holder.clips[found]
        let holderStart = source.start.ticks + clip.inTime.ticks - source.inTime.ticks
        #expect(holderStart == Int64(expected.from) * 90_000 + at)
        at += clip.outTime.ticks - clip.inTime.ticks
      }
    }
    #expect(list.playAll.compactMap { Int($0) } == truth.playAll, "\(name)")
    #expect(list.extras.compactMap { Int($0) } == truth.extras, "\(name)")
    // The document carries the same list and validates against its schema (python3-jsonschema).
    let document = try TitlesDocument(disc: disc)
    #expect(document.episodes == list)
    if JSONSchemaValidator.available {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      #expect(try JSONSchemaValidator.problems(encoder.encode(document), schema: "titles") == [])
    }
  }

  @Test("a movie in one clip of 24 chapters, and in two clips of unlike lengths, is not split")
  func movies() throws {
    for written in [try EpisodeDiscs.movie(), try EpisodeDiscs.twoPartMovie()] {
      let list = try Disc.open(path: written.path).episodeList()
      #expect(!list.episodic, "\(list.reason)")
      #expect(list.episodes.isEmpty)
      #expect(throws: DiscKitError.self) {
        try Disc.open(path: written.path).title(key: "00800:e1")
      }
    }
  }

  @Test("a permutation flood of one feature is not split")
  func flood() throws {
    let written = try BlurayScenarioDiscs.blindFlood()
    let list = try Disc.open(path: written.path).episodeList()
    #expect(!list.episodic, "\(list.reason)")
  }
}
