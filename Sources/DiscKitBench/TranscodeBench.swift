import DiscKit
import DiscKitStreaming
import DiscKitTranscode
import Foundation

/// The cost of a transcoded audio segment of the fMP4 HLS (issue 28), on the UHD bench title's
/// TrueHD 5.1 (`.bench/mkv-uhd`): the middle segment as stereo AAC and as FLAC (libavcodec
/// decode of the segment with its pre-roll, encode), against the same segment's copied AC-3
/// core (the reading and packaging every audio segment costs).
let transcodeBenchmarks: [Benchmark] = [
  Benchmark(
    name: "hls-audio",
    summary: "one HLS audio segment of a TrueHD title as AAC and as FLAC vs its copied AC-3 core"
  ) {
    try TranscodeBench.run()
  }
]

enum TranscodeBench {
  static func run() throws {
    let folder = try MatroskaUHDBench.prepare()
    let title = try Disc.open(path: folder).title(key: "00000")
    let plan = try FMP4Title(title: title, transcoder: LibAVAudioTranscoder())
    guard let core = plan.audio.first,
      let aac = plan.transcoded.first(where: { $0.target == .aac }),
      let flac = plan.transcoded.first(where: { $0.target == .flac })
    else {
      print("   (the bench title has no TrueHD stream with a core: skipped)")
      return
    }
    let middle = plan.segments.count / 2
    let seconds = plan.segments[middle].duration.seconds
    let copied = try Timing.best(runs: 5) {
      _ = try plan.mediaSegment(.audio(pid: core.pid), index: middle)
    }
    for (rendition, what) in [(aac, "AAC 2.0 192 kb/s"), (flac, "FLAC")] {
      var bytes = 0
      let made = try Timing.best(runs: 5) {
        bytes = try plan.mediaSegment(
          .transcoded(pid: rendition.pid, target: rendition.target), index: middle
        ).count
      }
      Timing.report(
        String(
          format: "one %.1f s TrueHD segment as %@ (%d KiB, %.0fx real time)", seconds, what,
          bytes >> 10, seconds / made),
        disckit: made, reference: copied, referenceName: "copied AC-3 core")
    }
  }
}
