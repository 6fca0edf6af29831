import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The scan reports the timestamps of the bytes a player gets on the same timeline: what
/// `title.scan(at:timeline:)` says the first keyframe's PTS is, ffprobe reads first in
/// `title.byteSource(timeline:startingAt:)`, on both timelines, at a time in every clip of a title
/// whose clips have their own PTS epochs (TestImages/scripts/make-epochs.sh).
@Suite("Scan on the continuous timeline", .toolThreads)
struct ContinuousScanTests {
  static let disc = Fixtures.generated("epochs/bd-epochs.iso")
  static let ready = FileManager.default.fileExists(atPath: disc) && Tool.has("ffprobe")

  /// The PTS of the first video packet ffprobe marks as a keyframe in `path`.
  static func firstKeyframePTS(_ path: String) throws -> Int64? {
    let result = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,flags", "-of",
        "csv=p=0", path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    for line in result.text.split(separator: "\n") {
      let fields = line.split(separator: ",").map(String.init)
      if fields.count >= 2, fields[1].hasPrefix("K"), let pts = Int64(fields[0]) { return pts }
    }
    return nil
  }

  @Test(.enabled(if: ready, "needs ffprobe and TestImages/scripts/make-epochs.sh output"))
  func theScannedKeyframeIsTheFirstKeyframeOfTheServedBytes() throws {
    let title = try Disc.open(path: Self.disc).mainTitle()
    let clips = title.clips
    try #require(clips.count >= 2, "the epochs disc has a title of several clips")
    let directory = try TemporaryDirectory("disckit-continuous-scan")
    var differed = false
    for (index, clip) in clips.enumerated() {
      let time = clip.start + MediaTime(ticks: 45_000)
      var found: [TitleTimeline: Int64] = [:]
      for timeline in TitleTimeline.allCases {
        let scanned = try #require(
          try title.scan(at: time, timeline: timeline).firstKeyframePTS, "clip \(index)")
        let source = try title.byteSource(timeline: timeline, startingAt: time)
        let path = directory.file("clip\(index)-\(timeline.rawValue).m2ts")
        let count = Int(min(source.size, 4 << 20))
        try Data(try source.bytes(at: 0, count: count)).write(to: URL(fileURLWithPath: path))
        let probed = try #require(try Self.firstKeyframePTS(path), "clip \(index) \(timeline)")
        #expect(
          UInt64(bitPattern: scanned.ticks) & TimestampField.mask
            == UInt64(bitPattern: probed) & TimestampField.mask,
          "clip \(index) at \(time) on the \(timeline) timeline")
        found[timeline] = scanned.ticks
      }
      if found[.continuous] != found[.original] { differed = true }
    }
    // The disc's clips are on other epochs: somewhere the two timelines must disagree.
    #expect(differed)
  }
}
