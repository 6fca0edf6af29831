@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// DiscKit's HEVC SPS/VUI and HDR10 SEI parser against ffmpeg's `trace_headers` bitstream
/// filter (libavcodec's own syntax tables print every field it reads) and ffprobe, on raw HEVC
/// streams x265 wrote (TestImages/scripts/make-codecs.sh), and against SEI NAL units the test
/// builds itself.
@Suite("HEVC colour metadata", .toolThreads)
struct HEVCColourMetadataTests {
  static let root = Fixtures.generated("codecs")
  static let streams = ["hdr10.hevc", "sdr-422-full.hevc"]

  /// The first value `trace_headers` prints for each field name of the stream's first frame.
  static func traceHeaders(_ path: String) throws -> [String: Int] {
    let run = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-v", "verbose", "-i", path, "-c", "copy", "-frames:v", "1", "-bsf:v",
        "trace_headers", "-f", "null", "-",
      ])
    var fields: [String: Int] = [:]
    for line in run.stderr.split(separator: "\n") where line.contains("[trace_headers") {
      // "[trace_headers @ 0x...] 225         colour_primaries        00001001 = 9"
      guard let close = line.firstIndex(of: "]") else { continue }
      let words = line[line.index(after: close)...].split(separator: " ")
      guard words.count >= 5, words[words.count - 2] == "=", Int(words[0]) != nil,
        let value = Int(words[words.count - 1])
      else { continue }
      let name = String(words[1])
      if fields[name] == nil { fields[name] = value }
    }
    return fields
  }

  @Test(
    "SPS, VUI and HDR SEI fields equal ffmpeg's trace_headers and ffprobe",
    .enabled(if: Tool.has("ffmpeg") && Tool.has("ffprobe"), "ffmpeg or ffprobe missing"),
    arguments: streams)
  func agreesWithTraceHeaders(_ name: String) throws {
    let path = Self.root + "/" + name
    try #require(FileManager.default.fileExists(atPath: path), "run TestImages/scripts/make-all.sh")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let ours = try HEVCColourMetadata(parsingAnnexB: bytes[...])
    let f = try Self.traceHeaders(path)
    #expect(f["colour_primaries"] != nil, "trace_headers printed the VUI of \(name)")

    let sps = try #require(ours.sequenceParameterSet)
    #expect(sps.profile == f["general_profile_idc"])
    #expect(sps.level == f["general_level_idc"])
    #expect(sps.chromaFormat == f["chroma_format_idc"])
    #expect(sps.lumaBitDepth == (f["bit_depth_luma_minus8"] ?? -9) + 8)
    #expect(sps.chromaBitDepth == (f["bit_depth_chroma_minus8"] ?? -9) + 8)
    #expect(sps.chromaSampleLocation == f["chroma_sample_loc_type_top_field"])
    let signal = try #require(sps.videoSignal)
    #expect(signal.videoFormat == f["video_format"])
    #expect(signal.fullRange == (f["video_full_range_flag"] == 1))
    #expect(signal.colourPrimaries == f["colour_primaries"])
    #expect(signal.transferCharacteristics == f["transfer_characteristics"])
    #expect(signal.matrixCoefficients == f["matrix_coefficients"])

    if f["display_primaries_x[0]"] != nil {
      let m = try #require(ours.masteringDisplay, "\(name) has a mastering display SEI")
      for c in 0..<3 {
        #expect(Int(m.primaries[c].x) == f["display_primaries_x[\(c)]"])
        #expect(Int(m.primaries[c].y) == f["display_primaries_y[\(c)]"])
      }
      #expect(Int(m.whitePoint.x) == f["white_point_x"])
      #expect(Int(m.whitePoint.y) == f["white_point_y"])
      #expect(Int(m.maxLuminance) == f["max_display_mastering_luminance"])
      #expect(Int(m.minLuminance) == f["min_display_mastering_luminance"])
    } else {
      #expect(ours.masteringDisplay == nil)
    }
    if f["max_content_light_level"] != nil {
      let c = try #require(ours.contentLightLevel, "\(name) has a content light level SEI")
      #expect(Int(c.maxContentLightLevel) == f["max_content_light_level"])
      #expect(Int(c.maxPictureAverageLightLevel) == f["max_pic_average_light_level"])
    } else {
      #expect(ours.contentLightLevel == nil)
    }

    // The cropped picture size: ffprobe's width and height.
    let probe = try Tool.run(
      "ffprobe",
      ["-v", "error", "-show_entries", "stream=width,height", "-of", "json", path])
    let stream = try #require(
      ((try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any])?["streams"]
        as? [[String: Any]])?.first)
    #expect(sps.width == stream["width"] as? Int)
    #expect(sps.height == stream["height"] as? Int)
  }

  /// H.265 7.4.2: a 0x03 after every two zero bytes followed by a byte 0...3.
  static func emulationPrevented(_ rbsp: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var zeros = 0
    for b in rbsp {
      if zeros >= 2 && b <= 3 {
        out.append(3)
        zeros = 0
      }
      out.append(b)
      zeros = b == 0 ? zeros + 1 : 0
    }
    return out
  }

  static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
  static func be32(_ v: UInt32) -> [UInt8] { be16(UInt16(v >> 16)) + be16(UInt16(v & 0xFFFF)) }

  /// A prefix SEI NAL unit (start code first) with an unregistered message of 300 bytes (its
  /// size coded in two bytes), then a mastering display message whose values hold zero runs
  /// (emulation prevention bytes), then a content light level message.
  static func constructedSEI() -> (
    bytes: [UInt8], mdcv: HEVCSEI.MasteringDisplayColourVolume,
    cll: HEVCSEI.ContentLightLevel
  ) {
    let mdcv = HEVCSEI.MasteringDisplayColourVolume(
      primaries: [.init(x: 0, y: 1), .init(x: 0, y: 0), .init(x: 50000, y: 2)],
      whitePoint: .init(x: 15635, y: 16450), maxLuminance: 0x0000_0003,
      minLuminance: 0x0003_0000)
    let cll = HEVCSEI.ContentLightLevel(maxContentLightLevel: 0, maxPictureAverageLightLevel: 3)
    var rbsp: [UInt8] = [5, 0xFF, 45] + [UInt8](repeating: 0, count: 300)
    rbsp += [137, 24]
    for p in mdcv.primaries { rbsp += be16(p.x) + be16(p.y) }
    rbsp += be16(mdcv.whitePoint.x) + be16(mdcv.whitePoint.y)
    rbsp += be32(mdcv.maxLuminance) + be32(mdcv.minLuminance)
    rbsp += [144, 4] + be16(cll.maxContentLightLevel) + be16(cll.maxPictureAverageLightLevel)
    rbsp += [0x80]
    return ([0, 0, 0, 1, 0x4E, 0x01] + emulationPrevented(rbsp), mdcv, cll)
  }

  @Test("SEI messages built by the test, emulation prevention bytes in, parse back")
  func constructedMessages() throws {
    let (bytes, mdcv, cll) = Self.constructedSEI()
    #expect(bytes.count > 6 + 300 + 2 + 24 + 6, "the test inserted emulation prevention bytes")
    let parsed = try HEVCColourMetadata(parsingAnnexB: bytes[...])
    #expect(parsed.masteringDisplay == mdcv)
    #expect(parsed.contentLightLevel == cll)
    #expect(parsed.sequenceParameterSet == nil)
    #expect(parsed.masteringDisplay?.red == mdcv.primaries[2])
  }

  @Test("a cut SEI NAL unit is a truncated error at an offset inside the input")
  func truncatedMessage() throws {
    let (bytes, _, _) = Self.constructedSEI()
    let cut = Array(bytes.prefix(bytes.count - 12))
    #expect {
      _ = try HEVCColourMetadata(parsingAnnexB: cut[...], offset: 1000)
    } throws: { error in
      guard let e = error as? DiscKitError, let at = e.offset else { return false }
      return e.code == .truncated && e.structure == "HEVC SEI message" && at >= 1000
        && at <= 1000 + Int64(cut.count)
    }
  }

  @Test("seeded byte flips of x265's headers and the built SEI: a value or a typed error")
  func byteFlipsNeverTrap() throws {
    var samples = [Self.constructedSEI().bytes]
    let path = Self.root + "/hdr10.hevc"
    try #require(FileManager.default.fileExists(atPath: path), "run TestImages/scripts/make-all.sh")
    let stream = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    // The first access unit's parameter sets and SEI messages (before the first slice).
    let units = HEVCNALUnit.split(stream[...])
    let firstSlice = try #require(units.first { stream[$0.lowerBound] >> 1 & 0x3F < 32 })
    samples.append(Array(stream[..<firstSlice.lowerBound]))
    var random = SeededRandom(seed: 0x4845_5643)
    var parsed = 0
    for _ in 0..<4000 {
      var bytes = samples[Int.random(in: 0..<samples.count, using: &random)]
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
          in: 0...255, using: &random)
      }
      if Bool.random(using: &random) {
        bytes.removeLast(Int.random(in: 0..<bytes.count, using: &random))
      }
      if (try? HEVCColourMetadata(parsingAnnexB: bytes[...])) != nil { parsed += 1 }
    }
    #expect(parsed > 0)
  }
}
