import DiscKitTestSupport
import Foundation
import Testing

/// `master-ts.m3u8` (issue 20; `master.m3u8` until the fMP4 HLS of issue 28): the
/// transport-stream multivariant playlist's `CODECS`, `RESOLUTION`, `FRAME-RATE`
/// and `VIDEO-RANGE` against ffmpeg on the authored codec discs (TestImages/scripts/
/// make-codecs.sh): for H.264 ffmpeg's own HLS muxer (its `CODECS`, with the `h264_metadata`
/// filter giving it the SPS as extradata), for HEVC the profile_tier_level bits ffmpeg's
/// `trace_headers` prints, formatted as ISO/IEC 14496-15 E.3 says, and ffprobe's picture size,
/// frame rate and transfer characteristics.
@Suite(
  "disckit serve HLS CODECS", .serialized,
  .enabled(
    if: ServerProcess.haveBinary && Curl.available && Tool.has("ffmpeg") && Tool.has("ffprobe")
      && FileManager.default.fileExists(atPath: Fixtures.generated("codecs/truehd-core/BDMV")),
    "needs disckit-serve, curl, ffmpeg, ffprobe and TestImages/scripts/make-codecs.sh output"), .toolThreads)
struct ServerHLSCodecsTests {
  static let discs = ["ac3", "hevc-sdr", "hdr10-eac3", "truehd-core"]

  static func root() throws -> TemporaryDirectory {
    let dir = try TemporaryDirectory("disckit-serve-codecs")
    for name in discs {
      try FileManager.default.copyItem(
        atPath: Fixtures.generated("codecs/\(name)"), toPath: dir.path + "/" + name)
    }
    return dir
  }

  /// The `EXT-X-STREAM-INF` attributes of a multivariant playlist (quoted values unquoted).
  static func attributes(_ text: String) -> [String: String] {
    guard
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") })
    else { return [:] }
    var result: [String: String] = [:]
    var rest = Substring(line.dropFirst("#EXT-X-STREAM-INF:".count))
    while !rest.isEmpty {
      guard let equals = rest.firstIndex(of: "=") else { break }
      let name = String(rest[..<equals])
      rest = rest[rest.index(after: equals)...]
      var value: Substring
      if rest.first == "\"" {
        let body = rest.dropFirst()
        let close = body.firstIndex(of: "\"") ?? body.endIndex
        value = body[..<close]
        rest = close < body.endIndex ? body[body.index(after: close)...] : ""
      } else {
        let comma = rest.firstIndex(of: ",") ?? rest.endIndex
        value = rest[..<comma]
        rest = rest[comma...]
      }
      if rest.first == "," { rest = rest.dropFirst() }
      result[name] = String(value)
    }
    return result
  }

  /// ffmpeg's HLS muxer's multivariant playlist for the clip (video and audio copied).
  static func ffmpegMaster(_ clip: String) throws -> [String: String] {
    let dir = try TemporaryDirectory("disckit-hls-oracle")
    let run = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-v", "error", "-i", clip, "-map", "0:v", "-map", "0:a", "-c", "copy",
        "-bsf:v", "h264_metadata", "-b:v", "1M", "-b:a", "128k", "-f", "hls",
        "-hls_playlist_type", "vod", "-master_pl_name", "m.m3u8", dir.path + "/out.m3u8",
      ])
    #expect(run.status == 0, "\(run.stderr)")
    return attributes(try String(contentsOfFile: dir.path + "/m.m3u8", encoding: .utf8))
  }

  /// ffprobe's first video stream: width, height, r_frame_rate, color_transfer.
  static func probe(_ clip: String) throws -> [String: String] {
    let run = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries",
        "stream=width,height,r_frame_rate,color_transfer", "-of", "default=nw=0", clip,
      ])
    var fields: [String: String] = [:]
    for line in run.text.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1)
      if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
    }
    return fields
  }

  @Test func masterPlaylistAgreesWithFFmpeg() throws {
    let dir = try Self.root()
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    let clips = [
      "ac3": "ac3.m2ts", "hevc-sdr": "hevc-sdr.m2ts", "hdr10-eac3": "hdr10-eac3.m2ts",
      "truehd-core": "truehd-core.ts",
    ]
    for disc in Self.discs {
      let clip = Fixtures.generated("codecs/" + (clips[disc] ?? ""))
      let id = try ServerFixture.id(server, disc)
      let base = server.base + "/discs/\(id)/titles/00000"
      let reply = try Curl.get(base + "/master-ts.m3u8")
      #expect(reply.status == 200, "\(disc)")
      #expect(reply.headers["content-type"] == "application/vnd.apple.mpegurl")
      let text = String(decoding: reply.body, as: UTF8.self)
      let lines = text.split(separator: "\n")
      #expect(lines.first == "#EXTM3U")
      #expect(lines.last == "index.m3u8", "\(disc): \(text)")
      let ours = Self.attributes(text)
      let codecs = (ours["CODECS"] ?? "").split(separator: ",").map(String.init)

      let probe = try Self.probe(clip)
      #expect(ours["RESOLUTION"] == "\(probe["width"] ?? "")x\(probe["height"] ?? "")", "\(disc)")
      let rate = (probe["r_frame_rate"] ?? "").split(separator: "/").compactMap { Double($0) }
      #expect(rate.count == 2 && ours["FRAME-RATE"] == String(format: "%.3f", rate[0] / rate[1]))
      let range =
        ["smpte2084": "PQ", "arib-std-b67": "HLG"][probe["color_transfer"] ?? ""] ?? "SDR"
      #expect(ours["VIDEO-RANGE"] == range, "\(disc)")
      #expect(Int(ours["BANDWIDTH"] ?? "") ?? 0 >= Int(ours["AVERAGE-BANDWIDTH"] ?? "") ?? 0)

      switch disc {
      case "ac3":
        // ffmpeg's muxer writes CODECS from the same SPS: the whole attribute is equal.
        let oracle = try Self.ffmpegMaster(clip)
        #expect(oracle["CODECS"] != nil, "ffmpeg wrote CODECS")
        #expect(ours["CODECS"] == oracle["CODECS"])
        #expect(ours["RESOLUTION"] == oracle["RESOLUTION"])
      case "truehd-core":
        // TrueHD (with its AC-3 core on one PID, stream type 0x83) is not an HLS codec.
        #expect(codecs.count == 1 && codecs.first?.hasPrefix("avc1.") == true, "\(codecs)")
      default:
        #expect(codecs.first == (try HEVCTraceOracle.hvc1(clip)), "\(disc)")
        #expect(codecs.dropFirst().first == (disc == "hdr10-eac3" ? "ec-3" : "ac-3"))
      }
      // The media playlist the variant names is the one that was served before.
      let media = try Curl.get(base + "/index.m3u8")
      #expect(media.status == 200)
      #expect(String(decoding: media.body, as: UTF8.self).contains("#EXT-X-BYTERANGE:"))
    }
  }

  /// ffmpeg's HLS demuxer opens the multivariant playlist and reads the title to the end
  /// without a warning.
  @Test func ffmpegPlaysTheMultivariantPlaylist() throws {
    let dir = try Self.root()
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    for disc in ["ac3", "hdr10-eac3"] {
      let id = try ServerFixture.id(server, disc)
      let address = server.base + "/discs/\(id)/titles/00000/master-ts.m3u8"
      let run = try Tool.run(
        "ffmpeg", ["-nostdin", "-hide_banner", "-v", "warning", "-i", address, "-f", "null", "-"])
      #expect(run.status == 0, "\(disc)")
      #expect(run.stderr.trimmingCharacters(in: .whitespacesAndNewlines) == "", "\(disc)")
    }
  }
}
