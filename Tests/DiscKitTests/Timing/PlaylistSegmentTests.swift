import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Tick conversions and playlist clip segments, checked against GStreamer's `gst_util_uint64_scale`
/// (what tsdemux uses for PTS) and GStreamer's stream time.
@Suite("Playlist clip segments", .enabled(if: GstSegmentOracle.available, GstSegmentOracle.missing), .toolThreads)
struct PlaylistSegmentTests {
  /// `gst_util_uint64_scale (ticks90k, GST_MSECOND / 10, 9)` for each value, by GStreamer.
  static func gstScale(_ ticks90k: [UInt64]) throws -> [UInt64] {
    let script = """
      import sys, gi
      gi.require_version('Gst', '1.0')
      from gi.repository import Gst
      Gst.init(None)
      values = [int(v) for v in sys.stdin.read().split()]
      sys.stdout.write("".join("%d\\n" % Gst.util_uint64_scale(v, 100000, 9) for v in values))
      """
    let input = Data(ticks90k.map { String($0) }.joined(separator: "\n").utf8)
    let result = try Tool.run(GstSegmentOracle.python, ["-c", script], stdin: input)
    try #require(result.status == 0, "\(result.stderr)")
    return result.text.split(separator: "\n").compactMap { UInt64($0) }
  }

  @Test("90 kHz and 45 kHz ticks convert like tsdemux")
  func tickConversion() throws {
    var rng = SegmentTestRNG(seed: 45_000)
    var ticks45: [UInt64] = [
      0, 1, 2, 8, 9, 45_000, 27_000_000, UInt64(UInt32.max), 1 << 32, (1 << 33) - 1,
    ]
    ticks45 += (0..<2000).map { _ in UInt64.random(in: 0...(1 << 34), using: &rng) }
    let ticks90 = ticks45.map { $0 * 2 } + ticks45.map { $0 * 2 + 1 }
    let expected = try Self.gstScale(ticks90)
    try #require(expected.count == ticks90.count)
    for (index, ticks) in ticks90.enumerated() {
      #expect(ClockTime.nanoseconds(ticks90kHz: ticks) == expected[index], "90 kHz \(ticks)")
    }
    for (index, ticks) in ticks45.enumerated() {
      #expect(ClockTime.nanoseconds(ticks45kHz: ticks) == expected[index], "45 kHz \(ticks)")
    }
  }

  @Test("every clip's PTS maps onto one title timeline")
  func playlistTimeline() throws {
    // Three clips with unrelated PTS epochs (45 kHz IN/OUT times as in an MPLS).
    let clips: [(inTime45kHz: UInt64, outTime45kHz: UInt64)] = [
      (27_000_000, 27_000_000 + 45_000 * 1_200 + 7),  // 600 s … 1800 s of clip 1 (+7 ticks)
      (900, 900 + 45_000 * 300),  // 0.02 s … 300.02 s of clip 2
      (4_000_000_000, 4_000_000_000 + 45_000 * 42 + 1),
    ]
    let segments = try Segment.forPlaylist(clips: clips)
    try #require(segments.count == 3)
    // Title time at each clip start: preceding durations summed in ticks, converted once.
    var elapsed: UInt64 = 0
    var requests: [SegmentRequest] = []
    var expectedTitle: [UInt64] = []
    var pts90: [UInt64] = []
    for (index, clip) in clips.enumerated() {
      let segment = segments[index]
      #expect(segment.time == ClockTime.nanoseconds(ticks45kHz: elapsed))
      #expect(segment.start == ClockTime.nanoseconds(ticks45kHz: clip.inTime45kHz))
      #expect(segment.stop == ClockTime.nanoseconds(ticks45kHz: clip.outTime45kHz))
      // PTS (90 kHz) of the pictures at the in-time, 1 s later and at the out-time.
      for offset90 in [0, 90_000, (clip.outTime45kHz - clip.inTime45kHz) * 2] as [UInt64] {
        pts90.append(clip.inTime45kHz * 2 + offset90)
        expectedTitle.append(elapsed * 2 + offset90)
      }
      elapsed += clip.outTime45kHz - clip.inTime45kHz
    }
    let ptsNs = try Self.gstScale(pts90)
    let titleNs = try Self.gstScale(expectedTitle)
    for (index, pts) in ptsNs.enumerated() {
      requests.append(SegmentRequest(op: .streamTime, segment: segments[index / 3], value: pts))
    }
    let answers = try GstSegmentOracle.run(requests)
    try #require(answers.count == requests.count)
    for index in requests.indices {
      // GStreamer's stream time of the buffer PTS, against the exact title time; rounding of two
      // floor conversions can differ by at most 1 ns.
      let gst = try #require(answers[index].result, "PTS \(pts90[index]) inside its clip")
      #expect(gst == requests[index].segment.toStreamTime(ptsNs[index]))
      #expect(
        max(gst, titleNs[index]) - min(gst, titleNs[index]) <= 1,
        "PTS \(pts90[index]) gst \(gst) title \(titleNs[index]) index \(index)")
    }
    #expect(segments[0].toStreamTime(ptsNs[0]) == 0)
    #expect(segments[1].toStreamTime(ptsNs[3]) == titleNs[3])
  }

  @Test("the example of the Segments article (Sources/DiscKit/DiscKit.docc/Segments.md)")
  func documentedExample() throws {
    let segments = try Segment.forPlaylist(clips: [
      (inTime45kHz: 27_000_000, outTime45kHz: 81_000_000),
      (inTime45kHz: 900, outTime45kHz: 13_500_900),
    ])
    #expect(segments[1].start == 20_000_000 && segments[1].stop == 300_020_000_000)
    #expect(segments[1].time == 1_200_000_000_000)
    let answers = try GstSegmentOracle.run([
      SegmentRequest(
        op: .streamTime, segment: segments[1], value: ClockTime.nanoseconds(ticks90kHz: 1_801_800))
    ])
    #expect(answers.first?.result == 1_220_000_000_000)
    #expect(
      segments[1].toStreamTime(ClockTime.nanoseconds(ticks90kHz: 1_801_800)) == 1_220_000_000_000)
  }

  @Test("bad clip times are typed errors")
  func badClipTimes() {
    #expect(throws: DiscKitError(.invalidArgument, "playlist clip segment", at: nil, "")) {
      try Segment.forPlaylistClip(inTime45kHz: 100, outTime45kHz: 99, titleTimeAtClipStart: 0)
    }
    #expect(throws: DiscKitError(.invalidArgument, "playlist clip segment", at: nil, "")) {
      try Segment.forPlaylistClip(inTime45kHz: 0, outTime45kHz: UInt64.max, titleTimeAtClipStart: 0)
    }
    #expect(throws: DiscKitError(.invalidArgument, "playlist clip segment", at: nil, "")) {
      try Segment.forPlaylist(clips: [(0, 10), (5, 4)])
    }
    #expect(throws: DiscKitError(.invalidArgument, "playlist clip segment", at: nil, "")) {
      try Segment.forPlaylistClip(inTime90kHz: 2, outTime90kHz: 1, titleTimeAtClipStart: 0)
    }
  }
}
