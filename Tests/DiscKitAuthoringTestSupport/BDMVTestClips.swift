import DiscKit
import DiscKitTestSupport
import Foundation

/// Short transport streams made with ffmpeg (lavfi testsrc + sine, H.264 + AC-3), once per test
/// process, and what ffprobe says about them (the oracle for durations, keyframes and frames).
package final class BDMVTestClips: @unchecked Sendable {
  package let directory: TemporaryDirectory
  package var path: String { directory.path }

  package static let available = Tool.has("ffmpeg") && Tool.has("ffprobe")
  package static let missing = "ffmpeg/ffprobe are not installed"

  /// Built lazily, shared by every test.
  package static let shared: Result<BDMVTestClips, any Error> = Result { try BDMVTestClips() }

  package static func get() throws -> BDMVTestClips { try shared.get() }

  private init() throws {
    directory = try TemporaryDirectory.processWide("disckit-bdmv-clips")
    try make("a.ts", seconds: 4, source: "testsrc", tone: 440)
    try make("b.ts", seconds: 3, source: "testsrc2", tone: 550)
    try make("c.m2ts", seconds: 2, source: "smptebars", tone: 660)
    try make("angle1.ts", seconds: 3, source: "testsrc", tone: 440)
    try make("angle2.ts", seconds: 3, source: "smptebars", tone: 880)
    // One 6-second stream cut in two at a keyframe: the halves continue each other.
    try make("whole.ts", seconds: 6, source: "testsrc2", tone: 330)
    try ffmpeg([
      "-i", file("whole.ts"), "-c", "copy", "-map", "0", "-f", "segment", "-segment_time", "3",
      "-segment_format", "mpegts", file("half%d.ts"),
    ])
    // Audio only: no video PID.
    try ffmpeg([
      "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2", "-c:a", "ac3",
      file("audio-only.ts"),
    ])
  }

  package func file(_ name: String) -> String { directory.file(name) }

  package func make(_ name: String, seconds: Int, source: String, tone: Int) throws {
    try ffmpeg([
      "-f", "lavfi", "-i", "\(source)=size=320x180:rate=25:duration=\(seconds)",
      "-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000:duration=\(seconds)",
      "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-bf", "2", "-pix_fmt", "yuv420p",
      "-c:a", "ac3", "-b:a", "96k", "-ac", "2", "-metadata:s:a:0", "language=eng",
      // One audio frame per PES, as Blu-ray muxers write (libbluray wipes whole PES packets
      // outside a play item's in/out window).
      "-pes_payload_size", "0", file(name),
    ])
  }

  package func ffmpeg(_ arguments: [String]) throws {
    let result = try Tool.run("ffmpeg", ["-v", "error", "-y"] + arguments)
    guard result.status == 0 else {
      throw DiscKitError(.io, "ffmpeg", at: nil, result.stderr)
    }
  }

  /// The video stream of a file as ffprobe sees it.
  package struct Video {
    /// Packet PTS (90 kHz), in presentation order, and which are keyframes.
    package var pts: [Int64]
    package var keyframes: [Int64]
    package var frameDuration: Int64
    package var start: Int64 { pts.first ?? 0 }
    package var duration: Int64 { (pts.last ?? 0) - start + frameDuration }
  }

  package static func probeVideo(_ path: String) throws -> Video {
    let result = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,flags",
        "-of", "csv=p=0", path,
      ])
    var pts: [Int64] = []
    var keys: [Int64] = []
    for line in result.text.split(separator: "\n") {
      let parts = line.split(separator: ",")
      guard parts.count >= 2, let p = Int64(parts[0]) else { continue }
      pts.append(p)
      if parts[1].hasPrefix("K") { keys.append(p) }
    }
    pts.sort()
    let rate = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=avg_frame_rate",
        "-of", "csv=p=0", path,
      ]
    ).text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "/").compactMap {
      Int64($0)
    }
    let duration = rate.count == 2 && rate[0] > 0 ? 90000 * rate[1] / rate[0] : 3600
    return Video(pts: pts, keyframes: keys.sorted(), frameDuration: duration)
  }

  /// The PTS of every audio frame (packet) of a file.
  package static func audioPTS(_ path: String) throws -> [Int64] {
    let result = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts", "-of", "csv=p=0",
        path,
      ])
    return result.text.split(separator: "\n").compactMap {
      Int64($0.split(separator: ",").first ?? "")
    }
  }

  /// Frames ffprobe decodes per stream type of a file (`-count_frames`).
  package static func countFrames(_ path: String) throws -> [String: Int] {
    let result = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-count_frames", "-show_entries", "stream=codec_type,nb_read_frames",
        "-of", "json", path,
      ])
    let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
    var counts: [String: Int] = [:]
    for stream in json?["streams"] as? [[String: Any]] ?? [] {
      guard let type = stream["codec_type"] as? String,
        let n = (stream["nb_read_frames"] as? String).flatMap({ Int($0) })
      else { continue }
      counts[type, default: 0] += n
    }
    return counts
  }
}
