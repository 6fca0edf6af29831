import DiscKitStreaming
import DiscKitTestSupport
import Foundation
import Testing

/// The silent AC-3 and E-AC-3 frames a copied rendition fills a gap with (SilentDolbyFrame), judged by
/// ffmpeg: made from the first frame of an AC-3 / E-AC-3 stream that ffmpeg's encoders wrote for each
/// channel layout and bit rate, a run of them decodes with CRC and bitstream checks on (`-err_detect
/// crccheck+bitstream+explode`) without a message, to as many samples as the source frames
/// (1536 per frame, every channel) and every sample 0; ffprobe reads the same layout, rate and
/// bit rate as the source's.
@Suite(
  "Silent AC-3 fill frames", .toolThreads,
  .enabled(if: Tool.has("ffmpeg") && Tool.has("ffprobe"), "needs ffmpeg and ffprobe"))
struct SilentDolbyFrameTests {
  @Test(arguments: [
    ("ac3", "mono", 96), ("ac3", "stereo", 192), ("ac3", "2.1", 224), ("ac3", "3.0", 256),
    ("ac3", "quad", 320), ("ac3", "5.0", 384), ("ac3", "5.1", 448), ("ac3", "5.1", 640),
    ("ac3", "stereo", 32), ("eac3", "mono", 96), ("eac3", "stereo", 192), ("eac3", "3.1", 256),
    ("eac3", "5.1", 384), ("eac3", "5.1", 640),
  ])
  func silentFrameDecodesToZeros(codec: String, layout: String, kbps: Int) throws {
    let dir = try TemporaryDirectory("disckit-silent-ac3")
    let source = dir.path + "/source.ac3"
    let made = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-v", "error", "-f", "lavfi", "-i",
        "sine=frequency=440:sample_rate=48000:duration=0.2", "-af",
        "aformat=channel_layouts=\(layout)", "-c:a", codec, "-b:a", "\(kbps)k", "-f", codec, source,
      ])
    try #require(made.status == 0, "\(made.stderr)")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
    let header = try #require(DolbyAudioFrame(bytes[...]))
    let silent = try #require(
      codec == "ac3"
        ? SilentDolbyFrame.ac3(from: bytes[...]) : SilentDolbyFrame.eac3(from: bytes[...]),
      "\(codec) \(layout) \(kbps)")
    #expect(silent.count == header.size)
    #expect(DolbyAudioFrame(silent[...]) == header)
    let fill = dir.path + "/fill." + codec
    let count = 5
    try Data(Array([[UInt8]](repeating: silent, count: count).joined())).write(
      to: URL(fileURLWithPath: fill))
    let decoded = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-v", "error", "-err_detect", "crccheck+bitstream+explode", "-f", codec,
        "-i", fill, "-f", "s16le", "-",
      ])
    #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(layout) \(kbps): \(decoded.stderr)")
    #expect(decoded.stdout.count == count * 1536 * header.channels * 2, "\(layout) \(kbps)")
    #expect(decoded.stdout.allSatisfy { $0 == 0 }, "\(layout) \(kbps): not silent")
    func probe(_ path: String) throws -> String {
      try Tool.run(
        "ffprobe",
        [
          "-v", "error", "-select_streams", "a:0", "-show_entries",
          "stream=channels,channel_layout,sample_rate,bit_rate", "-of", "csv=p=0", path,
        ]
      ).text
    }
    #expect(try probe(fill) == probe(source), "\(layout) \(kbps)")
  }
}
