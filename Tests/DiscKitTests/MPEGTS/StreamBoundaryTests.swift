@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// A Blu-ray title concatenates clips whose continuity counters restart at each clip: told where
/// the clips begin, the scanner does not report those restarts, and nothing else changes.
@Suite("Scanning across clip boundaries", .toolThreads)
struct StreamBoundaryTests {
  @Test func clipBoundariesAreNotContinuityErrors() throws {
    let path = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
    let title = try BlurayDisc(disc: try DiscImage.open(path: path)).title(playlist: "00000.mpls")
    #expect(title.clips.count == 2)
    let source = try title.byteSource()
    let plain = try PESPreScanner.scan(source: source)
    var options = PESScanOptions()
    options.streamBoundaries = [title.clips[1].titleOffset]
    let bounded = try PESPreScanner.scan(source: source, options: options)
    #expect(plain.continuityErrors > 0)
    #expect(
      plain.warnings.allSatisfy {
        $0.kind != .continuity || $0.offset ?? 0 >= title.clips[1].titleOffset
      })
    #expect(bounded.continuityErrors == 0)
    #expect(bounded.video == plain.video)
    #expect(bounded.audio == plain.audio)
    #expect(bounded.firstPATOffset == plain.firstPATOffset)
  }
}

/// Playback from any chapter of the sample's main title, clip boundary included, starts with the
/// PAT before the IDR (the PSI of a non-seamless clip is spliced in as libbluray delivers it), so a
/// PAT-gated demuxer drops nothing.
@Suite("Playback start at chapters", .toolThreads)
struct PlaybackStartTests {
  @Test func everyChapterStartsWithThePATBeforeTheIDR() throws {
    let path = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
    let title = try BlurayDisc(disc: try DiscImage.open(path: path)).title(playlist: "00000.mpls")
    let source = try title.byteSource()
    #expect(
      title.chapters.contains { UInt64($0.titleTime) * 2 == UInt64(title.clips[1].titleTime) * 2 })
    for chapter in title.chapters {
      let start = try title.playbackStart(forTitleTime: UInt64(chapter.titleTime) * 2)
      let (spliced, offset) = try start.splice(into: source)
      var options = PESScanOptions()
      options.streamBoundaries = [offset == start.offset ? title.clips[1].titleOffset : offset]
      let report = try PESPreScanner.scan(
        source: spliced, offset: offset, window: 1 << 20, options: options)
      #expect(report.pesBeforePAT == 0, "chapter \(chapter.index)")
      #expect((report.firstPATOffset ?? .max) - offset < 6144, "chapter \(chapter.index)")
      #expect(report.video.first?.preIDRGapSeconds == 0, "chapter \(chapter.index)")
    }
  }
}

/// ISO/IEC 13818-1 §2.4.3.3: a packet may be sent twice (one duplicate); a third copy is an error.
@Suite("Continuity counters", .toolThreads)
struct ContinuityCounterTests {
  @Test func oneDuplicateIsAllowedASecondIsNot() {
    var tracker = ContinuityCounterTracker()
    func check(_ counter: UInt8) -> ContinuityCounterTracker.Result {
      tracker.check(pid: 0x100, counter: counter, hasPayload: true, discontinuityIndicator: false)
    }
    #expect(check(3) == .ok)
    #expect(check(4) == .ok)
    #expect(check(4) == .duplicate)
    #expect(check(5) == .ok)
    #expect(check(5) == .duplicate)
    #expect(check(5) == .discontinuity(expected: 6, found: 5))
    #expect(check(6) == .ok)
    #expect(check(9) == .discontinuity(expected: 7, found: 9))
    #expect(
      tracker.check(pid: 0x100, counter: 2, hasPayload: true, discontinuityIndicator: true) == .ok)
  }
}
