import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitStreaming

/// Dolby Vision profile 8.1 from a profile 7 title (the generated `codecs/dolby-vision` disc:
/// an HDR10 base layer on PID 0x1011, an enhancement layer on 0x1015 whose every access unit
/// carries an RPU, the PMT's DOVI descriptor): the `dv` rendition is the base layer with each
/// picture's RPU converted (dovi_tool's mode 2 rule) and a `dvvC` record. Oracles: ffprobe 5.1
/// (the DOVI configuration record; the Dolby Vision metadata of every frame against the metadata
/// it reads from the disc's enhancement layer, changed as the rule says), ffmpeg (decodes without
/// a warning to the disc's base-layer frames: framemd5), the RPU NAL units' CRC-32 with the
/// test's own CRC, and make-uhd-metadata.py's minimal and full enhancement-layer RPUs (with the
/// NLQ section ffmpeg 5.1 cannot read) converted and read back by ffprobe.
@Suite(
  "Dolby Vision profile 8.1 fMP4 rendition", .toolThreads,
  .enabled(
    if: Tool.has("ffmpeg") && Tool.has("ffprobe")
      && FileManager.default.fileExists(
        atPath: Fixtures.generated("codecs/dolby-vision/BDMV/PLAYLIST/00000.mpls")),
    "needs ffmpeg, ffprobe and the make-codecs.sh output"))
struct DolbyVisionRenditionTests {
  static let root = Fixtures.generated("codecs")

  static func json(_ arguments: [String]) throws -> [String: Any] {
    let run = try Tool.run("ffprobe", ["-v", "error", "-of", "json"] + arguments)
    #expect(run.status == 0, "\(run.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
  }

  static func sideData(_ object: [String: Any]?, _ type: String) -> [String: Any]? {
    (object?["side_data_list"] as? [[String: Any]])?.first {
      $0["side_data_type"] as? String == type
    }
  }

  /// The title's `dv` (or `video`) rendition as one fragmented MP4 file: the init segment and
  /// every media segment.
  static func rendition(_ title: FMP4Title, _ rendition: FMP4Title.Rendition, in dir: String)
    throws -> String
  {
    var bytes = try title.initSegment(rendition)
    for k in title.segments.indices { bytes += try title.mediaSegment(rendition, index: k) }
    let path = dir + "/\(rendition == .video ? "hdr10" : "dv").mp4"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func title() throws -> FMP4Title {
    try FMP4Title(title: try Disc.open(path: root + "/dolby-vision").title(key: "00000"))
  }

  /// The Dolby Vision metadata of every frame of `path`'s video stream `stream`.
  static func frameMetadata(_ path: String, stream: Int) throws -> [[String: Any]] {
    let frames =
      try json(["-select_streams", "v:\(stream)", "-show_frames", path])["frames"]
      as? [[String: Any]] ?? []
    return frames.map { sideData($0, "Dolby Vision Metadata") ?? [:] }
  }

  /// A JSON value as sorted JSON text (Swift and Foundation numbers alike).
  static func canonical(_ value: [String: Any]) throws -> String {
    String(
      decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]),
      as: UTF8.self)
  }

  /// What dovi_tool's mode 2 changes in the metadata ffprobe shows (header flags, NLQ gone, one
  /// partition, profile 8.1's matrices, signal_color_space 0); `identity` for a full
  /// enhancement layer (its curves become 0 + 1·x over 0…1023).
  static func converted(_ source: [String: Any], identity: Bool = false) -> [String: Any] {
    var m = source
    m["el_spatial_resampling_filter_flag"] = 0
    m["disable_residual_flag"] = 1
    m["nlq_method_idc"] = -1
    m["nlq_method_idc_name"] = "none"
    m["num_x_partitions"] = 1
    m["num_y_partitions"] = 1
    m["ycc_to_rgb_matrix"] =
      "9574/8192 0/8192 13802/8192 9574/8192 -1540/8192 -5348/8192 9574/8192 17610/8192 0/8192"
    m["ycc_to_rgb_offset"] = "16777216/268435456 134217728/268435456 134217728/268435456"
    m["rgb_to_lms_matrix"] =
      "7222/16384 8771/16384 390/16384 2654/16384 12430/16384 1300/16384 0/16384 422/16384 15962/16384"
    m["signal_color_space"] = 0
    m.removeValue(forKey: "nlq")
    if identity {
      let piece: [String: Any] = [
        "mapping_idc": 0, "mapping_idc_name": "polynomial", "poly_order": 1,
        "poly_coef": "0 \(1 << 23)",
      ]
      m["components"] = Array(repeating: ["pivots": "0 1023", "pieces": [piece]], count: 3)
    }
    return m
  }

  @Test("the dvvC record and every frame's RPU, against ffprobe on the disc's enhancement layer")
  func profile81AgainstTheEnhancementLayer() throws {
    let title = try Self.title()
    let dv = try #require(title.dolbyVision, "a profile 7 title has the Dolby Vision rendition")
    #expect(dv.enhancementLayerPID == 0x1015)
    let dir = try TemporaryDirectory("disckit-dv")
    let path = try Self.rendition(title, .dolbyVision, in: dir.path)
    let clip = Self.root + "/dolby-vision.m2ts"

    // The configuration record: profile 8, the disc's level, RPU and base layer, no EL, HDR10.
    let source = try Self.json(["-show_streams", clip])["streams"] as? [[String: Any]] ?? []
    let el = try #require(
      source.compactMap { Self.sideData($0, "DOVI configuration record") }.first {
        $0["bl_present_flag"] as? Int == 0
      })
    let streams = try Self.json(["-show_streams", path])["streams"] as? [[String: Any]] ?? []
    #expect(streams.count == 1)
    let record = try #require(Self.sideData(streams.first, "DOVI configuration record"))
    #expect(record["dv_profile"] as? Int == 8)
    #expect(record["dv_level"] as? Int == el["dv_level"] as? Int)
    #expect(record["rpu_present_flag"] as? Int == 1)
    #expect(record["el_present_flag"] as? Int == 0)
    #expect(record["bl_present_flag"] as? Int == 1)
    #expect(record["dv_bl_signal_compatibility_id"] as? Int == 1)
    #expect(streams.first?["codec_tag_string"] as? String == "hvc1")
    #expect(
      dv.supplementalCodecs
        == "dvh1.08.\(String(format: "%02d", el["dv_level"] as? Int ?? -1))/db1p")

    // Every frame: the enhancement layer's metadata, converted.
    let ours = try Self.frameMetadata(path, stream: 0)
    let theirs = try Self.frameMetadata(clip, stream: 1)
    #expect(!ours.isEmpty && ours.count == theirs.count)
    for (k, (a, b)) in zip(ours, theirs).enumerated() {
      #expect(!a.isEmpty, "frame \(k) has Dolby Vision metadata")
      #expect(
        try Self.canonical(a) == Self.canonical(Self.converted(b)),
        "frame \(k): \(a) against \(Self.converted(b))")
    }
    #expect(dv.framesWithoutRPU == 0, "\(dv.lastFailure ?? "")")
  }

  @Test("ffmpeg decodes the rendition without a warning to the disc's base-layer frames")
  func picturesUnchanged() throws {
    let title = try Self.title()
    let dir = try TemporaryDirectory("disckit-dv")
    let path = try Self.rendition(title, .dolbyVision, in: dir.path)
    let run = try Tool.run(
      "ffmpeg", ["-nostdin", "-hide_banner", "-v", "warning", "-i", path, "-f", "null", "-"])
    #expect(run.status == 0)
    #expect(run.stderr.trimmingCharacters(in: .whitespacesAndNewlines) == "", "\(run.stderr)")
    func hashes(_ input: String) throws -> [Substring] {
      let out = try Tool.run(
        "ffmpeg", ["-nostdin", "-v", "error", "-i", input, "-map", "0:v:0", "-f", "framemd5", "-"])
      return out.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
        $0.split(separator: ",").last?.trimmingCharacters(in: .whitespaces)[...]
      }
    }
    let source = try hashes(Self.root + "/dolby-vision.m2ts")
    let ours = try hashes(path)
    #expect(!source.isEmpty && ours == source)
    let hdr10 = try hashes(try Self.rendition(title, .video, in: dir.path))
    #expect(hdr10 == source)
  }

  /// The RPU NAL units in the samples (ffmpeg's Annex B copy of the rendition): one per
  /// picture, after its slices, escaped (no `00 00 0x`, x ≤ 3, inside), ending in 0x80 after a
  /// CRC-32/MPEG-2 (this test's own bitwise CRC) of the bytes after the 0x19 prefix.
  @Test("every sample ends with an escaped RPU whose CRC-32 matches")
  func rpuBytes() throws {
    let title = try Self.title()
    let dir = try TemporaryDirectory("disckit-dv")
    let path = try Self.rendition(title, .dolbyVision, in: dir.path)
    let annexB = [UInt8](
      try Tool.run(
        "ffmpeg",
        [
          "-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-c", "copy", "-bsf:v",
          "hevc_mp4toannexb", "-f", "hevc", "-",
        ]
      ).stdout)
    let units = Self.nalUnits(annexB)
    let rpus = units.filter { ($0.first ?? 0) >> 1 & 0x3F == 62 }
    let pictures = units.filter { ($0.first ?? 0xFF) >> 1 & 0x3F < 32 }
    #expect(!rpus.isEmpty && rpus.count == pictures.count)
    // After each picture's slices: the unit before an RPU is a slice.
    for (k, unit) in units.enumerated() where unit.first.map({ $0 >> 1 & 0x3F == 62 }) == true {
      #expect(k > 0 && units[k - 1][0] >> 1 & 0x3F < 32)
    }
    // The enhancement layer's own RPUs, in the same order (one per picture, no B-frames).
    let elAnnexB = [UInt8](
      try Tool.run(
        "ffmpeg",
        [
          "-nostdin", "-v", "error", "-i", Self.root + "/dolby-vision.m2ts", "-map", "0:v:1",
          "-c", "copy", "-f", "hevc", "-",
        ]
      ).stdout)
    let sourceRPUs = Self.nalUnits(elAnnexB).filter { ($0.first ?? 0) >> 1 & 0x3F == 62 }
    #expect(sourceRPUs.count == rpus.count)
    for (rpu, sourceRPU) in zip(rpus, sourceRPUs) {
      let payload = Array(rpu.dropFirst(2))
      for i in 2..<payload.count {
        #expect(!(payload[i - 2] == 0 && payload[i - 1] == 0 && payload[i] <= 3 && payload[i] != 3))
      }
      var raw: [UInt8] = []
      var zeros = 0
      for b in payload {
        if zeros >= 2, b == 3 {
          zeros = 0
          continue
        }
        raw.append(b)
        zeros = b == 0 ? zeros + 1 : 0
      }
      while raw.last == 0 { raw.removeLast() }
      #expect(raw.first == 0x19 && raw.last == 0x80)
      let n = raw.count
      let stored = raw[(n - 5)..<(n - 1)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      #expect(Self.crc32MPEG(raw[1..<(n - 5)]) == stored)
      // The extension blocks are kept: make-uhd-metadata.py's one L1 block (ue(5), level 1, 40
      // payload bits, then the RPU's alignment: 7 bytes, after a byte-aligned start), which
      // differs from frame to frame, ends the data before the CRC in both.
      let theirs = Self.unescaped(Array(sourceRPU.dropFirst(2)))
      #expect(raw.count >= 12 && theirs.count >= 12)
      if raw.count >= 12, theirs.count >= 12 {
        #expect(raw[(n - 12)..<(n - 5)] == theirs[(theirs.count - 12)..<(theirs.count - 5)])
      }
    }
  }

  /// An RBSP: emulation prevention bytes removed, trailing zeros left out.
  static func unescaped(_ payload: [UInt8]) -> [UInt8] {
    var raw: [UInt8] = []
    var zeros = 0
    for b in payload {
      if zeros >= 2, b == 3 {
        zeros = 0
        continue
      }
      raw.append(b)
      zeros = b == 0 ? zeros + 1 : 0
    }
    while raw.last == 0 { raw.removeLast() }
    return raw
  }

  /// CRC-32/MPEG-2, bit by bit.
  static func crc32MPEG(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      for bit in (0..<8).reversed() {
        let top = (crc >> 31) ^ UInt32(byte >> UInt8(bit) & 1)
        crc <<= 1
        if top == 1 { crc ^= 0x04C1_1DB7 }
      }
    }
    return crc
  }

  /// The NAL units of an Annex B stream (trailing zeros left out).
  static func nalUnits(_ bytes: [UInt8]) -> [[UInt8]] {
    var starts: [Int] = []
    var i = 0
    while i + 3 <= bytes.count {
      if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
        starts.append(i + 3)
        i += 3
      } else {
        i += 1
      }
    }
    return starts.enumerated().map { k, s in
      var e = k + 1 < starts.count ? starts[k + 1] - 3 : bytes.count
      while e > s, bytes[e - 1] == 0 { e -= 1 }
      return Array(bytes[s..<e])
    }
  }

  /// make-uhd-metadata.py's RPUs with an NLQ section (minimal and full enhancement layer),
  /// converted and appended to the first picture of the generated HDR10 stream: ffprobe reads
  /// the header flags, no NLQ, one partition and the mapping: the source's for the minimal
  /// layer, the identity for the full one. A damaged RPU (a CRC that no longer matches) is
  /// refused with a typed error at the CRC's offset.
  @Test(
    "minimal and full enhancement-layer RPUs converted, read back by ffprobe",
    arguments: ["mel", "fel"])
  func enhancementLayerKinds(_ kind: String) throws {
    let dir = try TemporaryDirectory("disckit-dv")
    let script = Fixtures.testImages.path + "/scripts/make-uhd-metadata.py"
    let made = try Tool.run("python3", [script, "rpu-nal", kind, dir.path + "/rpu.bin"])
    #expect(made.status == 0, "\(made.stderr)")
    let source = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path + "/rpu.bin")))
    let converted = try DolbyVisionRPU.profile81(source[...])
    #expect(converted.source == (kind == "fel" ? .full : .minimal))

    // The first access unit of the HDR10 stream, then the RPU.
    let hdr10 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.root + "/hdr10.hevc")))
    var stream: [UInt8] = []
    var seenPicture = false
    for unit in Self.nalUnits(hdr10) {
      let type = unit[0] >> 1 & 0x3F
      if seenPicture, (32...40).contains(type) || (type < 32 && unit[2] & 0x80 != 0) { break }
      if type < 32 { seenPicture = true }
      stream += [0, 0, 0, 1] + unit
    }
    stream += [0, 0, 0, 1] + converted.nal
    let file = dir.path + "/one.hevc"
    try Data(stream).write(to: URL(fileURLWithPath: file))
    let ours = try #require(try Self.frameMetadata(file, stream: 0).first)

    // The source as ffprobe would show it without its NLQ section: the fields the generator
    // wrote (the same as the disc's enhancement layer's, whose RPUs have none).
    let disc = try #require(
      try Self.frameMetadata(Self.root + "/dolby-vision.m2ts", stream: 1).first)
    // (make-uhd-metadata.py's RPUs differ from frame to frame only in the L1 block, which
    // ffprobe 5.1 does not show.)
    let expected = Self.converted(disc, identity: kind == "fel")
    #expect(try Self.canonical(ours) == Self.canonical(expected), "\(ours) against \(expected)")

    // A damaged CRC: refused, at the CRC's offset.
    var damaged = source
    damaged[damaged.count - 2] ^= 0x01
    #expect {
      _ = try DolbyVisionRPU.profile81(damaged[...], offset: 1000)
    } throws: { error in
      guard let error = error as? DiscKitError else { return false }
      return error.code == .checksumMismatch && (error.offset ?? 0) >= 1000
    }
  }
}
