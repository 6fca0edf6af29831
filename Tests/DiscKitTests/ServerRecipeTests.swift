import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The README's streaming-server recipe, run on the committed sample disc: open once, main title,
/// byte source, seek with libbluray's playback start, pre-scan, clip segments, audio alignment.
@Suite("Streaming server recipe")
struct ServerRecipeTests {
  @Test func recipeRuns() throws {
    let path = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path

    let disc = try DiscImage.open(path: path)  // once per image; Sendable, share it
    let bluray = try BlurayDisc(disc: disc)
    let title = try bluray.mainTitle()  // smart selection (bluray.smartSelection().reason says why)
    let source = try title.byteSource()  // the clip ranges as one seekable source

    // Seek to 4 s: the random access point at or before it, PAT/PMT first, as bd_read delivers it.
    let start = try title.playbackStart(forTitleTime: 4 * 90_000)
    let (stream, offset) = try start.splice(into: source)

    // Before the demuxer runs: first IDR, first audio, the PAT gate.
    let report = try PESPreScanner.scan(source: stream, offset: offset, window: 4 << 20)
    let idr = try #require(report.video.first?.firstIDRPTS)
    let audio = try #require(report.audio.first?.firstPTS)

    // Demuxed PTS of the clip playing there map onto the title timeline through its segment.
    let clipIndex = try #require(title.clipIndex(atTitleTime: 4 * 45_000))
    let segment = try #require(title.clips[clipIndex].timeSegment)
    let idrTitleTime = try #require(title.titleTime(ofPTS: idr, inClip: clipIndex))

    // Audio starts where the first picture is shown, in its own (here the same) epoch.
    let alignment = AudioStartupAlignment(
      videoSegment: segment, firstVideoPTS: ClockTime.nanoseconds(ticks90kHz: idr),
      audioSegment: segment, observedFirstAudioPTS: ClockTime.nanoseconds(ticks90kHz: audio),
      requestedStart: nil)

    #expect(title.name == "00000.mpls")
    #expect(report.pesBeforePAT == 0)
    #expect(report.video.first?.preIDRGapSeconds == 0)
    #expect(idrTitleTime == 4 * ClockTime.second)  // clip 2 starts at 4 s with an IDR at its in-time
    // The observed audio origin is within 250 ms of the timeline origin: audio starts at its first
    // PTS plus the video offset (the distance from the segment start to the first picture).
    #expect(alignment.strategy == .observedAudioOrigin)
    let idrNanoseconds = try #require(ClockTime.nanoseconds(ticks90kHz: idr))
    let audioNanoseconds = try #require(ClockTime.nanoseconds(ticks90kHz: audio))
    #expect(alignment.targetPTS == audioNanoseconds + (idrNanoseconds - segment.start))
    let target = try #require(alignment.targetPTS)
    #expect(
      alignment.decision(
        pts: target - 40 * ClockTime.millisecond, duration: 32 * ClockTime.millisecond) == .drop)
    #expect(
      alignment.decision(
        pts: target - 10 * ClockTime.millisecond, duration: 32 * ClockTime.millisecond) == .keep)
  }
}
