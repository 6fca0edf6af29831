import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Writes an episode's program stream (`mine`, its bytes on the original timeline) and its
/// continuous-timeline bytes to `dir` as `N.vob` and `N-continuous.vob`, and expects ffmpeg to
/// decode the pictures of both without a warning. The audio is left out: ffmpeg's `-target
/// ntsc-dvd` AC-3 repeats a DTS every few seconds in the disc's own VOB already.
/// Returns the two files' paths, for the callers that compare their pictures further.
func expectEpisodeVOBsDecode(
  _ title: DiscTitle, bytes mine: [UInt8], key: String, number: Int, in dir: TemporaryDirectory
) throws -> (original: String, continuous: String) {
  let file = dir.file("\(number).vob")
  try Data(mine).write(to: URL(fileURLWithPath: file))
  let video = try Tool.run(
    "ffmpeg", ["-v", "warning", "-i", file, "-map", "0:v", "-f", "null", "-"])
  #expect(video.stderr.isEmpty, "\(key): \(video.stderr)")
  let continuous = try title.byteSource(timeline: .continuous)
  let moved = dir.file("\(number)-continuous.vob")
  try Data(try continuous.bytes(at: 0, count: Int(continuous.size), structure: "episode"))
    .write(to: URL(fileURLWithPath: moved))
  let movedVideo = try Tool.run(
    "ffmpeg", ["-v", "warning", "-i", moved, "-map", "0:v", "-f", "null", "-"])
  #expect(movedVideo.stderr.isEmpty, "\(key) continuous: \(movedVideo.stderr)")
  return (file, moved)
}
