@_spi(Formats) import DiscKit
import DiscKitMedia
import DiscKitTestSupport
import Foundation
import Testing

/// The Matroska `Colour` element of an HEVC track (matrix, transfer, primaries, range, MaxCLL,
/// MaxFALL, mastering metadata) against the source clip: ffprobe reads the colour fields of the
/// clip's stream and the HDR side data of its first frame; mkvmerge -J and ffprobe read DiscKit's
/// file. Discs from TestImages/scripts/make-codecs.sh.
@Suite("Matroska colour", .toolThreads)
struct MatroskaColourTests {
  static let root = Fixtures.generated("codecs")

  static func json(_ tool: String, _ arguments: [String]) throws -> [String: Any] {
    let run = try Tool.run(tool, arguments)
    return try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
  }

  /// "34000/50000" as a number.
  static func ratio(_ value: Any?) -> Double? {
    guard let text = value as? String else { return nil }
    let parts = text.split(separator: "/").compactMap { Double($0) }
    guard parts.count == 2, parts[1] != 0 else { return parts.count == 1 ? parts[0] : nil }
    return parts[0] / parts[1]
  }

  static func near(_ a: Double?, _ b: Double?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return abs(a - b) <= 1e-6 * max(1, abs(b))
  }

  @Test(
    "colour fields and HDR10 metadata of the MKV equal the source clip's",
    .enabled(if: Tool.has("ffprobe") && Tool.has("mkvmerge"), "ffprobe or mkvmerge missing"),
    arguments: ["hdr10-eac3", "hevc-sdr"])
  func colourOfTheSource(_ name: String) throws {
    let folder = Self.root + "/" + name
    try #require(
      FileManager.default.fileExists(atPath: folder + "/BDMV/PLAYLIST"),
      "run TestImages/scripts/make-all.sh")
    let clip = Self.root + "/" + name + ".m2ts"
    let dir = try TemporaryDirectory()
    let out = dir.file(name + ".mkv")
    let disc = try BlurayDisc(disc: try DiscImage.open(path: folder))
    let playlists = try FileManager.default.contentsOfDirectory(atPath: folder + "/BDMV/PLAYLIST")
    let mpls = try #require(playlists.filter { $0.hasSuffix(".mpls") }.sorted().first)
    try MatroskaWriter.write(
      try MatroskaTitle(bluray: try disc.title(playlist: mpls)), toPath: out, overwrite: false)

    // The source: its video stream's colour fields, its first frame's side data.
    let keys = ["color_range", "color_space", "color_transfer", "color_primaries"]
    let entries = "stream=" + keys.joined(separator: ",")
    let source = try #require(
      (try Self.json(
        "ffprobe",
        ["-v", "error", "-select_streams", "v", "-show_entries", entries, "-of", "json", clip])[
          "streams"] as? [[String: Any]])?.first)
    let frame = try #require(
      (try Self.json(
        "ffprobe",
        [
          "-v", "error", "-select_streams", "v", "-read_intervals", "%+#1", "-show_frames",
          "-of", "json", clip,
        ])["frames"] as? [[String: Any]])?.first)
    let sideData = frame["side_data_list"] as? [[String: Any]] ?? []
    let mastering = sideData.first {
      $0["side_data_type"] as? String == "Mastering display metadata"
    }
    let light = sideData.first { $0["side_data_type"] as? String == "Content light level metadata" }
    #expect((mastering != nil) == (name == "hdr10-eac3"), "the HDR10 clip carries the SEI")

    // DiscKit's file, through ffprobe: the same colour fields, the side data on the stream.
    let mkv = try #require(
      (try Self.json(
        "ffprobe", ["-v", "error", "-select_streams", "v", "-show_streams", "-of", "json", out])[
          "streams"] as? [[String: Any]])?.first)
    for key in keys {
      #expect(mkv[key] as? String == source[key] as? String, "\(name) \(key)")
    }
    let mkvSide = mkv["side_data_list"] as? [[String: Any]] ?? []
    let mkvMastering = mkvSide.first {
      $0["side_data_type"] as? String == "Mastering display metadata"
    }
    let mkvLight = mkvSide.first {
      $0["side_data_type"] as? String == "Content light level metadata"
    }
    #expect((mkvMastering != nil) == (mastering != nil), "\(name)")
    #expect((mkvLight != nil) == (light != nil), "\(name)")
    let fields = [
      "red_x", "red_y", "green_x", "green_y", "blue_x", "blue_y", "white_point_x",
      "white_point_y", "min_luminance", "max_luminance",
    ]
    if let mastering, let mkvMastering {
      for f in fields {
        #expect(Self.near(Self.ratio(mkvMastering[f]), Self.ratio(mastering[f])), "\(name) \(f)")
      }
    }
    if let light, let mkvLight {
      #expect(mkvLight["max_content"] as? Int == light["max_content"] as? Int)
      #expect(mkvLight["max_average"] as? Int == light["max_average"] as? Int)
    }

    // mkvmerge's view of the same elements.
    let tracks = try #require(try Self.json("mkvmerge", ["-J", out])["tracks"] as? [[String: Any]])
    let video = try #require(
      tracks.first { $0["type"] as? String == "video" }?["properties"] as? [String: Any])
    // Matroska Range: 1 broadcast (ffprobe "tv"), 2 full ("pc").
    let range = ["tv": 1, "pc": 2][source["color_range"] as? String ?? ""]
    #expect(video["color_range"] as? Int == range, "\(name)")
    if let light {
      #expect(video["max_content_light"] as? Int == light["max_content"] as? Int)
      #expect(video["max_frame_light"] as? Int == light["max_average"] as? Int)
    } else {
      #expect(video["max_content_light"] == nil)
    }
    if let mastering {
      let xy = (video["chromaticity_coordinates"] as? String ?? "").split(separator: ",")
        .compactMap { Double($0) }
      let expected = ["red_x", "red_y", "green_x", "green_y", "blue_x", "blue_y"].map {
        Self.ratio(mastering[$0])
      }
      #expect(xy.count == 6 && zip(xy, expected).allSatisfy { Self.near($0, $1) }, "\(xy)")
      let white = (video["white_color_coordinates"] as? String ?? "").split(separator: ",")
        .compactMap { Double($0) }
      #expect(white.count == 2 && Self.near(white.first, Self.ratio(mastering["white_point_x"])))
      #expect(Self.near(video["max_luminance"] as? Double, Self.ratio(mastering["max_luminance"])))
      #expect(Self.near(video["min_luminance"] as? Double, Self.ratio(mastering["min_luminance"])))
    } else {
      #expect(video["max_luminance"] == nil)
    }
  }
}
