@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The PMT's DOVI video descriptor (tag 0xB0) as DiscKit parses it: against ffprobe's "DOVI
/// configuration record" of the authored test clip, against the spec's bit layout for a
/// descriptor the test builds, and under seeded byte flips.
@Suite("Dolby Vision configuration", .toolThreads)
struct DolbyVisionConfigurationTests {
  static let clip = Fixtures.generated("codecs") + "/dolby-vision.m2ts"

  /// The first PMT section (PID 0x0100) of a 192-byte M2TS file.
  static func programMap(_ path: String) throws -> ProgramMapTable {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var at = 4
    while at + 188 <= bytes.count {
      let pid = Int(bytes[at + 1] & 0x1F) << 8 | Int(bytes[at + 2])
      if pid == 0x100, bytes[at + 1] & 0x40 != 0, bytes[at + 3] & 0x20 == 0 {
        let section = Array(bytes[(at + 5 + Int(bytes[at + 4]))..<(at + 188)])
        var reader = BinaryReader(section, structure: "PMT")
        return try ProgramMapTable(parsing: &reader)
      }
      at += 192
    }
    throw DiscKitError(.malformed, path, at: nil, "no PMT")
  }

  @Test(
    "the test clip's descriptor equals ffprobe's DOVI configuration record",
    .enabled(if: Tool.has("ffprobe"), "ffprobe missing"))
  func agreesWithFFprobe() throws {
    try #require(
      FileManager.default.fileExists(atPath: Self.clip), "run TestImages/scripts/make-all.sh")
    let pmt = try Self.programMap(Self.clip)
    let el = try #require(pmt.streams.first { $0.dolbyVision != nil })
    let ours = try #require(el.dolbyVision)
    #expect(el.pid == 0x1015 && el.codec == .hevc)
    let run = try Tool.run(
      "ffprobe", ["-v", "error", "-show_streams", "-of", "json", Self.clip])
    let streams =
      (try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])?["streams"]
      as? [[String: Any]] ?? []
    let stream = try #require(streams.first { $0["id"] as? String == "0x1015" })
    let record = try #require(
      (stream["side_data_list"] as? [[String: Any]])?.first {
        $0["side_data_type"] as? String == "DOVI configuration record"
      })
    #expect(record["dv_version_major"] as? Int == Int(ours.versionMajor))
    #expect(record["dv_version_minor"] as? Int == Int(ours.versionMinor))
    #expect(record["dv_profile"] as? Int == Int(ours.profile))
    #expect(record["dv_level"] as? Int == Int(ours.level))
    #expect(record["rpu_present_flag"] as? Int == (ours.rpuPresent ? 1 : 0))
    #expect(record["el_present_flag"] as? Int == (ours.enhancementLayerPresent ? 1 : 0))
    #expect(record["bl_present_flag"] as? Int == (ours.baseLayerPresent ? 1 : 0))
    #expect(
      record["dv_bl_signal_compatibility_id"] as? Int == Int(ours.baseLayerCompatibilityID))
    #expect(ours.dependencyPID == 0x1011 && ours.isEnhancementLayer)
  }

  @Test(
    "a 188-byte source on other PIDs: the authored EL sits on 0x1015 and names the moved BL",
    .enabled(if: Tool.has("ffprobe"), "ffprobe missing"))
  func movedLayers() throws {
    let root = Fixtures.generated("codecs")
    let source = root + "/dolby-vision-188.ts"
    let authored = root + "/dolby-vision-188/BDMV/STREAM/00000.m2ts"
    try #require(
      FileManager.default.fileExists(atPath: authored), "run TestImages/scripts/make-all.sh")
    // The source's EL names its BL (ffprobe: the one stream without a DOVI record).
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
    var sourceEL: UInt16?
    var sourceBL: UInt16?
    var at = 0
    while at + 188 <= bytes.count, sourceEL == nil {
      let pid = Int(bytes[at + 1] & 0x1F) << 8 | Int(bytes[at + 2])
      if pid == 0x1000, bytes[at + 1] & 0x40 != 0 {
        let section = Array(bytes[(at + 5 + Int(bytes[at + 4]))..<(at + 188)])
        var reader = BinaryReader(section, structure: "PMT")
        let pmt = try ProgramMapTable(parsing: &reader)
        let el = pmt.streams.first { $0.dolbyVision != nil }
        sourceEL = el?.pid
        sourceBL = el?.dolbyVision?.dependencyPID
      }
      at += 188
    }
    #expect(sourceEL == 0x201 && sourceBL == 0x200)
    let pmt = try Self.programMap(authored)
    let el = try #require(pmt.streams.first { $0.dolbyVision != nil })
    #expect(el.pid == 0x1015 && el.dolbyVision?.dependencyPID == 0x1011)
    let run = try Tool.run("ffprobe", ["-v", "error", "-show_streams", "-of", "json", authored])
    let streams =
      (try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])?["streams"]
      as? [[String: Any]] ?? []
    let plain = streams.filter {
      $0["codec_name"] as? String == "hevc" && $0["side_data_list"] == nil
    }
    #expect(plain.map { $0["id"] as? String } == ["0x1011"], "the BL the record names")
  }

  @Test("a descriptor built from the spec's layout")
  func builtDescriptor() throws {
    // version 1.0; profile 8 level 9 rpu 1 el 0 bl 1 (16 bits: 0010000 001001 1 0 1); compat 4.
    let flags = 8 << 9 | 9 << 3 | 0b101
    let body: [UInt8] = [1, 0, UInt8(flags >> 8), UInt8(flags & 0xFF), 0x4F]
    let d = try DolbyVisionConfiguration(parsing: body)
    #expect(d.profile == 8 && d.level == 9 && d.rpuPresent && !d.enhancementLayerPresent)
    #expect(d.baseLayerPresent && d.dependencyPID == nil && d.baseLayerCompatibilityID == 4)
    #expect(!d.isEnhancementLayer)
    // Without a base layer, a dependency_pid must follow the flags.
    #expect(throws: DiscKitError.self) {
      _ = try DolbyVisionConfiguration(parsing: [1, 0, 0x0E, 0x36], offset: 40)
    }
  }

  @Test("seeded byte flips and cuts: a configuration or a typed error")
  func byteFlipsNeverTrap() throws {
    var random = SeededRandom(seed: 0x444F_5649)
    let sample: [UInt8] = [0x01, 0x00, 0x0E, 0x36, 0x80, 0x8F, 0x6F]
    var parsed = 0
    for _ in 0..<4000 {
      var bytes = sample
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
          in: 0...255, using: &random)
      }
      bytes.removeLast(Int.random(in: 0..<bytes.count, using: &random))
      do {
        _ = try DolbyVisionConfiguration(parsing: bytes)
        parsed += 1
      } catch {
        #expect(error.code == .truncated)
      }
    }
    #expect(parsed > 0)
  }
}
