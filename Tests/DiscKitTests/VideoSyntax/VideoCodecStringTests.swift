@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// RFC 6381 codec strings from the sequence parameter set: `hvc1` against ffmpeg's
/// `trace_headers` bits (``HEVCTraceOracle``), `avc1` and the H.264 picture size against ffmpeg
/// and ffprobe, and a seeded byte-flip loop over both SPS parsers.
@Suite("Video codec strings", .toolThreads)
struct VideoCodecStringTests {
  static let root = Fixtures.generated("codecs")

  /// The NAL units of an Annex B file.
  static func nals(_ path: String) throws -> [ArraySlice<UInt8>] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    return HEVCNALUnit.split(bytes[...]).map { bytes[$0] }
  }

  @Test(
    "hvc1 equals trace_headers' profile_tier_level",
    .enabled(if: Tool.has("ffmpeg"), "needs ffmpeg"),
    arguments: ["hdr10.hevc", "sdr-422-full.hevc"])
  func hvc1(_ name: String) throws {
    let path = Self.root + "/" + name
    try #require(FileManager.default.fileExists(atPath: path), "run TestImages/scripts/make-all.sh")
    let ours = VideoCodecString.firstSequenceParameterSet(
      inAnnexB: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))[...], hevc: true)
    #expect(ours == (try HEVCTraceOracle.hvc1(path)))
  }

  @Test(
    "avc1 and the H.264 picture size equal ffmpeg's HLS muxer and ffprobe",
    .enabled(if: Tool.has("ffmpeg") && Tool.has("ffprobe"), "needs ffmpeg and ffprobe"))
  func avc1() throws {
    let dir = try TemporaryDirectory("disckit-avc1")
    // Cropped (1080 lines from 68 macroblock rows), High profile with 8x8 transform, and
    // interlaced (field pictures, frame_mbs_only_flag 0), beside the authored 160x90 clip.
    var inputs: [String] = []
    let clip = Self.root + "/ac3.m2ts"
    if FileManager.default.fileExists(atPath: clip) { inputs.append(clip) }
    for (name, args) in [
      ("crop.h264", ["-s", "1920x1080", "-profile:v", "high"]),
      ("fields.h264", ["-s", "720x576", "-flags", "+ilme+ildct", "-x264-params", "tff=1"]),
    ] {
      let out = dir.path + "/" + name
      let run = try Tool.run(
        "ffmpeg",
        [
          "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=duration=0.1:rate=25",
          "-c:v", "libx264", "-preset", "ultrafast",
        ] + args + ["-f", "h264", out])
      try #require(run.status == 0, "\(run.stderr)")
      inputs.append(out)
    }
    for input in inputs {
      let es = dir.path + "/es.h264"
      _ = try Tool.run(
        "ffmpeg",
        [
          "-nostdin", "-v", "error", "-y", "-i", input, "-map", "0:v", "-c", "copy", "-f", "h264",
          es,
        ])
      let sps = try #require(try Self.nals(es).first { $0.first.map { $0 & 0x1F == 7 } == true })
      let size = try VideoCodecString.avcPictureSize(sequenceParameterSet: sps)
      let probe = try Tool.run(
        "ffprobe",
        [
          "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of",
          "csv=p=0", es,
        ])
      #expect(
        "\(size.width),\(size.height)"
          == probe.text.trimmingCharacters(in: .whitespacesAndNewlines), "\(input)")
      // ffmpeg's HLS muxer (given the SPS as extradata by h264_metadata) writes the avc1 value.
      let hls = dir.path + "/hls"
      try? FileManager.default.removeItem(atPath: hls)
      try FileManager.default.createDirectory(atPath: hls, withIntermediateDirectories: true)
      _ = try Tool.run(
        "ffmpeg",
        [
          "-nostdin", "-v", "error", "-i", es, "-c", "copy", "-bsf:v", "h264_metadata", "-b:v",
          "1M",
          "-f", "hls", "-hls_playlist_type", "vod", "-master_pl_name", "m.m3u8", hls + "/o.m3u8",
        ])
      let master = (try? String(contentsOfFile: hls + "/m.m3u8", encoding: .utf8)) ?? ""
      let ours = try VideoCodecString.avc1(sequenceParameterSet: sps)
      #expect(master.contains("CODECS=\"\(ours)\""), "\(input): \(master)")
    }
  }

  /// Every single-byte change of real SPS NAL units gives a value or a typed error, never a trap.
  @Test("byte flips of SPS NAL units end in a value or a typed error")
  func byteFlips() throws {
    var units: [(ArraySlice<UInt8>, Bool)] = []
    for name in ["hdr10.hevc", "sdr-422-full.hevc"] {
      let path = Self.root + "/" + name
      guard FileManager.default.fileExists(atPath: path) else { continue }
      units += try Self.nals(path).filter { ($0[$0.startIndex] >> 1) & 0x3F == 33 }.map {
        ($0, true)
      }
    }
    // H.264 SPS-shaped bytes (High profile header, then arbitrary bits) for the H.264 paths.
    let avc: [UInt8] = [
      0x67, 0x64, 0x00, 0x28, 0xAC, 0xD9, 0x40, 0x78, 0x02, 0x27, 0xE5, 0xC0, 0x44, 0x00, 0x00,
      0x03, 0x00, 0x04, 0x00, 0x00, 0x03, 0x00, 0xC8, 0x3C, 0x60, 0xC6, 0x58,
    ]
    units.append((avc[...], false))
    var generator = SeededGenerator(seed: 20)
    for (unit, hevc) in units {
      let base = Array(unit)
      for _ in 0..<2_000 {
        var bytes = base
        let count = Int.random(in: 1...3, using: &generator)
        for _ in 0..<count {
          bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
            in: 0...255, using: &generator)
        }
        if Bool.random(using: &generator) {
          bytes.removeLast(Int.random(in: 0..<bytes.count, using: &generator))
        }
        if hevc {
          _ = try? VideoCodecString.HEVCGeneralProfile(sequenceParameterSet: bytes[...]).codecString
        } else {
          _ = try? VideoCodecString.avc1(sequenceParameterSet: bytes[...])
          _ = try? VideoCodecString.avcPictureSize(sequenceParameterSet: bytes[...])
        }
      }
    }
    #expect(units.count >= 1)
  }
}

/// A small deterministic generator (SplitMix64) for the byte-flip loop.
private struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
