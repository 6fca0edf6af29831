@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// An undecided Blu-ray (``EpisodeDiscs/twoEqualPlayAlls()``: the navigation plays a feature;
/// two play-alls of three 10-minute clips share no clip and hold nothing of it): the episode
/// answer is `ambiguous` with the two play-alls as candidates, in the list and in the titles
/// document (valid against its schema); the construction's other layouts stay decided.
@Suite("Episodes: undecided Blu-ray", .toolThreads)
struct EpisodeAmbiguousTests {
  @Test func twoEqualPlayAllsAreCandidates() throws {
    let written = try EpisodeDiscs.twoEqualPlayAlls()
    let disc = try Disc.open(path: written.path)
    #expect(try disc.titleList().mainKey == "00800")
    let list = try disc.episodeList()
    #expect(!list.episodic)
    #expect(list.confidence == .ambiguous, "\(list.reason)")
    #expect(list.candidates == ["00010", "00040"])
    let document = try TitlesDocument(disc: disc)
    #expect(document.episodes == list)
    if JSONSchemaValidator.available {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      #expect(try JSONSchemaValidator.problems(encoder.encode(document), schema: "titles") == [])
    }
    // One more long clip in playlist 10 decides: it is the play-all with the most episodes.
    let (decided, _) = try EpisodeDiscs.extrasPlayAll()
    #expect(try Disc.open(path: decided.path).episodeList().confidence == .heuristic)
  }
}
