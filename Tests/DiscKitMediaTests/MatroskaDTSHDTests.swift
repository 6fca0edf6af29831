@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
@_spi(Formats) import DiscKitMedia
import DiscKitTestSupport
import Foundation
import Testing

/// A real DTS-HD Master Audio stream (tsduck's test-139 capture of a Blu-ray-origin transport
/// stream, in ../shared/realdata; ffmpeg cannot encode DTS-HD) authored into a Blu-ray folder:
/// DiscKit's Matroska track keeps every frame whole (core and extension substream, `A_DTS`), as
/// mkvmerge does.
@Suite("Matroska DTS-HD", .toolThreads)
struct MatroskaDTSHDTests {
  static let sample = Fixtures.real("ts/tsduck_test-139_hdmv_mpeg2_dtshdma.ts")
  /// The mkvmerge -J track properties compared (BitDepth: the DTS core's source resolution).
  static let keys = [
    "codec_id", "audio_channels", "audio_sampling_frequency", "audio_bits_per_sample", "language",
  ]

  static func audio(_ path: String) throws -> [[String: Any]] {
    let json = try JSONSerialization.jsonObject(
      with: try Tool.run("mkvmerge", ["-J", path]).stdout)
    let tracks = (json as? [String: Any])?["tracks"] as? [[String: Any]] ?? []
    return tracks.filter { $0["type"] as? String == "audio" }.map {
      $0["properties"] as? [String: Any] ?? [:]
    }
  }

  @Test(
    "a DTS core track (ffmpeg's dca, 16-bit source) gets mkvmerge's codec and BitDepth",
    .enabled(if: Tool.has("mkvmerge"), "mkvmerge missing"))
  func dtsCore() throws {
    let folder = Fixtures.generated("codecs") + "/dts"
    let mpls = folder + "/BDMV/PLAYLIST/00000.mpls"
    try #require(FileManager.default.fileExists(atPath: mpls), "run TestImages/scripts/make-all.sh")
    let dir = try TemporaryDirectory()
    let out = dir.file("dts.mkv")
    let reference = dir.file("mkvmerge.mkv")
    let title = try BlurayDisc(disc: try DiscImage.open(path: folder)).title(playlist: "00000.mpls")
    try MatroskaWriter.write(try MatroskaTitle(bluray: title), toPath: out, overwrite: false)
    let merged = try Tool.run("mkvmerge", ["-q", "-o", reference, mpls])
    #expect(merged.status == 0, "\(merged.stderr)")
    let ours = try Self.audio(out)
    let theirs = try Self.audio(reference)
    for key in Self.keys {
      #expect(ours.map { "\($0[key] ?? "-")" } == theirs.map { "\($0[key] ?? "-")" }, "\(key)")
    }
    #expect(ours.first?["audio_bits_per_sample"] as? Int == 16)
  }

  @Test(
    "DTS-HD MA stays one A_DTS track of whole frames, as mkvmerge writes it",
    .enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)),
    .enabled(
      if: Tool.has("mkvmerge") && Tool.has("ffmpeg") && Tool.has("ffprobe"),
      "mkvmerge, ffmpeg or ffprobe missing"))
  func keptWhole() throws {
    try #require(FileManager.default.fileExists(atPath: Self.sample), "\(Self.sample) is missing")
    let dir = try TemporaryDirectory()
    let folder = dir.file("disc")
    _ = try BDMVBuilder(clips: [Self.sample]).writeFolder(to: folder)
    let mpls = folder + "/BDMV/PLAYLIST/00000.mpls"
    let title = try BlurayDisc(disc: try DiscImage.open(path: folder)).title(playlist: "00000.mpls")
    #expect(title.playlist.playItems.first?.streams.audio.first?.codingType == 0x86)
    let out = dir.file("dtshd.mkv")
    try MatroskaWriter.write(try MatroskaTitle(bluray: title), toPath: out, overwrite: false)
    let reference = dir.file("mkvmerge.mkv")
    let merge = try Tool.run("mkvmerge", ["-q", "-o", reference, mpls])
    #expect(merge.status == 0, "\(merge.stderr)")

    let ours = try Self.audio(out)
    let theirs = try Self.audio(reference)
    #expect(ours.count == 2 && theirs.count == 2)
    for key in Self.keys {
      #expect(
        ours.map { "\($0[key] ?? "-")" } == theirs.map { "\($0[key] ?? "-")" }, "\(key)")
    }
    #expect(ours.first?["codec_id"] as? String == "A_DTS")

    // ffprobe sees the DTS-HD MA profile in both files (the extension substream is there), and
    // the DTS track's frames are mkvmerge's, byte for byte.
    for path in [out, reference] {
      let probe = try Tool.run(
        "ffprobe",
        [
          "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=profile", "-of",
          "csv=p=0", path,
        ])
      #expect(probe.text.trimmingCharacters(in: .whitespacesAndNewlines) == "DTS-HD MA", "\(path)")
    }
    func packets(_ path: String) throws -> [String] {
      let run = try Tool.run(
        "ffmpeg",
        [
          "-nostdin", "-v", "error", "-i", path, "-map", "0:a:0", "-c", "copy", "-f", "framemd5",
          "-",
        ])
      return run.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
        let fields = $0.split(separator: ",")
        return fields.count >= 6 ? fields[5].trimmingCharacters(in: .whitespaces) : nil
      }
    }
    let ourPackets = try packets(out)
    let theirPackets = try packets(reference)
    #expect(!ourPackets.isEmpty && ourPackets == theirPackets)
  }
}
