@_spi(Formats) import DiscKit
import DiscKitMedia
import DiscKitTestSupport
import Foundation
import Testing

/// Dolby Vision and HDR10+ in DiscKit's Matroska output (discs from
/// TestImages/scripts/make-codecs.sh). The enhancement layer is a video track of its own, as
/// the installed mkvmerge (v74) keeps it from the playlist, and carries the clip's DOVI
/// configuration record as a `dvcC` BlockAdditionMapping, byte for byte what ffmpeg's own remux
/// of the source clip writes; ffprobe reads the record and the per-frame RPU and HDR10+ metadata
/// back.
@Suite("Matroska Dolby Vision and HDR10+", .toolThreads)
struct MatroskaDolbyVisionTests {
  static let root = Fixtures.generated("codecs")

  static func write(_ name: String, into dir: TemporaryDirectory) throws -> String {
    let folder = root + "/" + name
    try #require(
      FileManager.default.fileExists(atPath: folder + "/BDMV/PLAYLIST/00000.mpls"),
      "run TestImages/scripts/make-all.sh")
    let out = dir.file(name + ".mkv")
    let disc = try BlurayDisc(disc: try DiscImage.open(path: folder))
    try MatroskaWriter.write(
      try MatroskaTitle(bluray: try disc.title(playlist: "00000.mpls")), toPath: out,
      overwrite: false)
    return out
  }

  /// The `Block addition ID type` and `extra data` lines mkvinfo prints per track.
  static func blockAdditions(_ path: String) throws -> [String] {
    let run = try Tool.run("mkvinfo", [path])
    return String(decoding: run.stdout, as: UTF8.self).split(separator: "\n")
      .filter { $0.contains("Block addition ID type") || $0.contains("Block addition ID extra") }
      .map { String($0.drop { $0 == "|" || $0 == " " || $0 == "+" }) }
  }

  static func streams(_ path: String) throws -> [[String: Any]] {
    let run = try Tool.run("ffprobe", ["-v", "error", "-show_streams", "-of", "json", path])
    return (try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])?["streams"]
      as? [[String: Any]] ?? []
  }

  static func dovi(_ stream: [String: Any]) -> [String: Int]? {
    guard
      let side = (stream["side_data_list"] as? [[String: Any]])?.first(where: {
        $0["side_data_type"] as? String == "DOVI configuration record"
      })
    else { return nil }
    return side.compactMapValues { $0 as? Int }
  }

  @Test(
    "the EL track carries the source's DOVI record, as ffmpeg's remux writes it",
    .enabled(
      if: ["ffmpeg", "ffprobe", "mkvinfo", "mkvmerge"].allSatisfy(Tool.has), "tools missing"))
  func enhancementLayerTrack() throws {
    let dir = try TemporaryDirectory()
    let ours = try Self.write("dolby-vision", into: dir)
    let clip = Self.root + "/dolby-vision.m2ts"
    let remux = dir.file("ffmpeg.mkv")
    _ = try Tool.run("ffmpeg", ["-v", "error", "-i", clip, "-map", "0", "-c", "copy", remux])

    // Track layout: mkvmerge -J on DiscKit's file and on the playlist.
    func layout(_ path: String) throws -> [String] {
      let run = try Tool.run("mkvmerge", ["-J", path])
      let tracks =
        (try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])?["tracks"]
        as? [[String: Any]] ?? []
      return tracks.map { "\($0["type"] ?? "")/\($0["codec"] ?? "")" }
    }
    #expect(
      try layout(ours) == layout(Self.root + "/dolby-vision/BDMV/PLAYLIST/00000.mpls"))

    // The record: ffprobe on the source clip (its PMT descriptor) and on DiscKit's file.
    let source = try Self.streams(clip).compactMap(Self.dovi)
    let written = try Self.streams(ours).compactMap(Self.dovi)
    #expect(source.count == 1 && written == source)
    #expect(written.first?["dv_profile"] == 7 && written.first?["bl_present_flag"] == 0)
    // The Matroska element itself, against ffmpeg's muxer writing the same source.
    let additions = try Self.blockAdditions(ours)
    #expect(additions.contains { $0.contains("dvcC") })
    #expect(additions == (try Self.blockAdditions(remux)))

    // The RPUs stay in the EL's blocks: ffprobe parses them on its first frame.
    let frames = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:1", "-read_intervals", "%+#1", "-show_frames",
        "-show_entries", "frame_side_data=side_data_type", "-of", "csv", ours,
      ])
    #expect(String(decoding: frames.stdout, as: UTF8.self).contains("Dolby Vision Metadata"))
  }

  @Test(
    "HDR10+ metadata stays on every frame, as in the source",
    .enabled(if: Tool.has("ffprobe"), "ffprobe missing"))
  func hdr10PlusFrames() throws {
    let dir = try TemporaryDirectory()
    let ours = try Self.write("hdr10plus", into: dir)
    func count(_ path: String) throws -> Int {
      let run = try Tool.run(
        "ffprobe",
        [
          "-v", "error", "-select_streams", "v:0", "-show_frames", "-show_entries",
          "frame_side_data=side_data_type", "-of", "csv", path,
        ])
      return String(decoding: run.stdout, as: UTF8.self).split(separator: "\n")
        .filter { $0.contains("SMPTE2094-40") }.count
    }
    let source = try count(Self.root + "/hdr10plus.m2ts")
    #expect(source > 0)
    #expect(try count(ours) == source)
  }
}
