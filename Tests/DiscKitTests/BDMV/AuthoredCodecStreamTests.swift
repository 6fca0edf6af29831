import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// What `titles` reports per stream on discs DiscKit authored from ffmpeg clips of each coding
/// (TestImages/scripts/make-codecs.sh), against ffprobe on the clip and mkvmerge -J on the
/// playlist.
@Suite("Authored codec streams", .toolThreads)
struct AuthoredCodecStreamTests {
  static let names = ["hdr10-eac3", "dts", "truehd", "lpcm", "ac3", "hevc-sdr"]
  static let root = Fixtures.generated("codecs")
  static let present = FileManager.default.fileExists(atPath: root + "/ac3/BDMV/PLAYLIST")

  /// ffprobe's codec name to the Blu-ray coding DiscKit names.
  static let expectedCodec = [
    "h264": "H.264", "hevc": "HEVC", "ac3": "AC-3", "eac3": "E-AC-3", "dts": "DTS",
    "truehd": "TrueHD", "pcm_bluray": "LPCM",
  ]

  /// ffprobe's codec name to the typed codec (``DiscKit/StreamCodec``).
  static let expectedCoding: [String: StreamCodec] = [
    "h264": .h264, "hevc": .hevc, "ac3": .ac3, "eac3": .eac3, "dts": .dts, "truehd": .truehd,
    "pcm_bluray": .lpcm,
  ]

  @Test(
    "each stream's codec, channels and sample rate agree with ffprobe and mkvmerge",
    .enabled(if: Tool.has("ffprobe") && Tool.has("mkvmerge"), "ffprobe or mkvmerge missing"),
    arguments: names)
  func agrees(_ name: String) throws {
    try #require(Self.present, "run TestImages/scripts/make-all.sh")
    let folder = Self.root + "/" + name
    let disc = try Disc.open(path: folder)
    let list = try FileManager.default.contentsOfDirectory(atPath: folder + "/BDMV/PLAYLIST")
    let mpls = try #require(list.filter { $0.hasSuffix(".mpls") }.sorted().first)
    let title = try disc.title(key: String(mpls.prefix(5)))
    let clips = try FileManager.default.contentsOfDirectory(atPath: folder + "/BDMV/STREAM")
    let clip = try #require(clips.filter { $0.hasSuffix(".m2ts") }.sorted().first)

    let probe = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-show_entries",
        "stream=codec_type,codec_name,channels,sample_rate,color_transfer,color_primaries",
        "-of", "json", folder + "/BDMV/STREAM/" + clip,
      ])
    let probed = try #require(
      (try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any])?["streams"]
        as? [[String: Any]])
    // ffprobe also lists an empty AC-3 "core" beside a TrueHD stream ffmpeg wrote without one
    // (sample rate 0): not a stream of the disc.
    let real = probed.filter { ($0["sample_rate"] as? String) != "0" }
    let video = title.streams.filter { $0.kind == .video }
    let audio = title.streams.filter { $0.kind == .audio }
    let ffVideo = real.filter { $0["codec_type"] as? String == "video" }
    let ffAudio = real.filter { $0["codec_type"] as? String == "audio" }
    #expect(video.count == ffVideo.count && audio.count == ffAudio.count, "\(name)")
    for (ours, theirs) in zip(video, ffVideo) {
      #expect(ours.codec == Self.expectedCodec[theirs["codec_name"] as? String ?? ""], "\(name)")
      #expect(ours.coding == Self.expectedCoding[theirs["codec_name"] as? String ?? ""], "\(name)")
      if theirs["codec_name"] as? String == "hevc" {
        // The UHD stream attributes the builder records from the SPS VUI: HDR10 for the PQ
        // transfer (ST 2084), SDR otherwise; the colour space from the primaries.
        let transfer = theirs["color_transfer"] as? String
        #expect(ours.dynamicRange == (transfer == "smpte2084" ? "HDR10" : "SDR"), "\(name)")
        let primaries = ["bt2020": "BT.2020", "bt709": "BT.709"]
        #expect(ours.colorSpace == primaries[theirs["color_primaries"] as? String ?? ""], "\(name)")
      }
    }
    for (ours, theirs) in zip(audio, ffAudio) {
      #expect(ours.codec == Self.expectedCodec[theirs["codec_name"] as? String ?? ""], "\(name)")
      #expect(ours.coding == Self.expectedCoding[theirs["codec_name"] as? String ?? ""], "\(name)")
      #expect(ours.sampleRate.map(String.init) == theirs["sample_rate"] as? String, "\(name)")
      let channels = theirs["channels"] as? Int ?? 0
      if channels <= 2 {
        #expect(ours.channels == channels, "\(name)")
      } else {
        // Deliberately no count: the STN's presentation type only says "multi-channel".
        #expect(ours.channels == nil && ours.format == "multichannel", "\(name)")
      }
    }

    // mkvmerge reads the playlist itself: its audio tracks' channel count and sampling rate.
    let mkv = try Tool.run("mkvmerge", ["-J", folder + "/BDMV/PLAYLIST/" + mpls])
    let tracks = try #require(
      (try JSONSerialization.jsonObject(with: mkv.stdout) as? [String: Any])?["tracks"]
        as? [[String: Any]])
    let mkvAudio = tracks.filter { $0["type"] as? String == "audio" }
    #expect(mkvAudio.count == audio.count, "\(name): \(mkv.text)")
    for (ours, theirs) in zip(audio, mkvAudio) {
      let properties = theirs["properties"] as? [String: Any] ?? [:]
      #expect(ours.sampleRate == properties["audio_sampling_frequency"] as? Int, "\(name)")
      if let channels = properties["audio_channels"] as? Int, channels <= 2 {
        #expect(ours.channels == channels, "\(name)")
      }
    }
  }
}
