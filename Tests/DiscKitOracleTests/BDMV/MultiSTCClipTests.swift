@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// A clip with three STC sequences (issue 20): `stc3.ts` of TestImages/scripts/make-epochs.sh is
/// three ffmpeg streams byte-concatenated (e1, e2, e3: the PCR and PTS jump twice), authored
/// into one clip whose CLPI lists three STC sequences, played by `bd-stc` title 1 as three play
/// items (`ref_to_STC_id` 0, 1, 2) and by title 2 after another clip.
///
/// Oracles: the source streams (where each one's first PCR lies in the concatenation, its video
/// presentation by ffprobe, its frames decoded alone), libbluray (durations, clips, chapters,
/// `bd_seek_time`, `bd_read`). The clip information and the continuous output against the source
/// streams alone are checked in DiscKitTests' suite of the same name.
@Suite("Clips with several STC sequences", .toolThreads)
struct MultiSTCClipTests {
  @Test(.enabled(if: EpochDiscs.stcReady, "\(EpochDiscs.stcMissing)"), arguments: [0, 1])
  func libblurayAgrees(_ playlist: Int) throws {
    let disc = try EpochDiscs.stcDisc()
    let title = try disc.title(playlist: String(format: "%05d.mpls", playlist))
    let bd = try Reference.Bluray(path: EpochDiscs.path("bd-stc"))
    let info = try #require(bd.playlistInfo(playlist))
    #expect(UInt64(title.duration90k) == info.duration90k)
    #expect(title.clips.map { UInt64($0.inTime) * 2 } == info.clips.map(\.inTime90k))
    #expect(title.clips.map { UInt64($0.outTime) * 2 } == info.clips.map(\.outTime90k))
    #expect(title.clips.map { UInt64($0.titleTime) * 2 } == info.clips.map(\.startTime90k))
    #expect(title.clips.map { UInt32($0.packetCount) } == info.clips.map(\.packetCount))
    #expect(title.chapters.map { UInt64($0.titleTime) * 2 } == info.chapters.map(\.start90k))
    #expect(title.chapters.map { UInt64($0.duration) * 2 } == info.chapters.map(\.duration90k))
    #expect(title.chapters.map { UInt64($0.offset) } == info.chapters.map(\.offset))

    // Time seek lands where bd_seek_time does, in every sequence.
    #expect(bd.selectPlaylist(playlist))
    #expect(UInt64(title.size) == bd.titleSize)
    var tick: UInt64 = 0
    while tick < UInt64(title.duration90k) {
      #expect(title.byteOffset(forTitleTime: tick) == bd.seekTime(tick), "seek \(tick)")
      let back = title.titleTime(forByteOffset: title.byteOffset(forTitleTime: tick))
      #expect(back <= tick && tick - back <= 90_000, "round trip \(tick)")
      tick += 45_000
    }
    // --timeline original is bd_read's bytes.
    #expect(bd.selectPlaylist(playlist))
    var theirs: [UInt8] = []
    _ = bd.readToEnd { theirs += $0 }
    let original = try title.byteSource(timeline: .original)
    let ours = try original.bytes(at: 0, count: Int(original.size))
    #expect(ours.count == theirs.count)
    #expect(BlurayExtractionTests.equalAfterNormalising(ours: ours, libbluray: theirs))
  }
}
