@_spi(Formats) import DiscKit
import DiscKitMedia
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// UHD Blu-ray signalling on discs DiscKit authored (TestImages/scripts/make-codecs.sh): a Dolby
/// Vision profile 7 clip (enhancement layer with RPUs on PID 0x1015, the PMT's DOVI descriptor)
/// and an HDR10+ clip. Oracles: ffprobe on the source clips (DOVI configuration record, HDR10+
/// and Dolby Vision frame side data), libbluray's `bd_read_clpi` on the authored clip
/// information, mkvmerge -J and mkvinfo on the playlist and on the Matroska files.
@Suite("UHD signalling", .toolThreads)
struct UHDSignallingTests {
  static let root = Fixtures.generated("codecs")
  static let hevcDiscs = ["dolby-vision", "hdr10plus", "hdr10-eac3", "hevc-sdr"]

  static func json(_ tool: String, _ arguments: [String]) throws -> [String: Any] {
    let run = try Tool.run(tool, arguments)
    return try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
  }

  static func folder(_ name: String) throws -> String {
    let folder = root + "/" + name
    try #require(
      FileManager.default.fileExists(atPath: folder + "/BDMV/PLAYLIST/00000.mpls"),
      "run TestImages/scripts/make-all.sh")
    return folder
  }

  /// ffprobe's streams of a clip (with stream side data), keyed by PID.
  static func probedStreams(_ clip: String) throws -> [Int: [String: Any]] {
    let streams =
      try json("ffprobe", ["-v", "error", "-show_streams", "-of", "json", clip])["streams"]
      as? [[String: Any]] ?? []
    var result: [Int: [String: Any]] = [:]
    for s in streams {
      if let id = (s["id"] as? String).flatMap({ Int($0.dropFirst(2), radix: 16) }) {
        result[id] = s
      }
    }
    return result
  }

  static func sideData(_ stream: [String: Any]?, _ type: String) -> [String: Any]? {
    (stream?["side_data_list"] as? [[String: Any]])?.first {
      $0["side_data_type"] as? String == type
    }
  }

  /// The side data types ffprobe reports on the first frame of the clip's stream `index`.
  static func frameSideData(_ path: String, stream index: Int) throws -> [String] {
    let frames =
      try json(
        "ffprobe",
        [
          "-v", "error", "-select_streams", "v:\(index)", "-read_intervals", "%+#1",
          "-show_frames", "-of", "json", path,
        ])["frames"] as? [[String: Any]] ?? []
    return (frames.first?["side_data_list"] as? [[String: Any]] ?? []).compactMap {
      $0["side_data_type"] as? String
    }
  }

  @Test(
    "titles: the enhancement layer is the stream ffprobe reads a base-layer-less DOVI record on",
    .enabled(if: Tool.has("ffprobe") && Tool.has("mkvmerge"), "ffprobe or mkvmerge missing"))
  func titlesReportTheEnhancementLayer() throws {
    let folder = try Self.folder("dolby-vision")
    let probed = try Self.probedStreams(Self.root + "/dolby-vision.m2ts")
    let elPIDs = probed.filter { _, s in
      Self.sideData(s, "DOVI configuration record")?["bl_present_flag"] as? Int == 0
    }.map(\.key)
    #expect(elPIDs == [0x1015], "the source's EL, by its PMT descriptor")

    let title = try Disc.open(path: folder).title(key: "00000")
    let video = title.streams.filter { $0.kind == .video }
    #expect(video.map(\.id) == [0x1011, 0x1015])
    #expect(video.filter { $0.enhancementLayer == true }.map(\.id) == elPIDs)
    #expect(video.first?.dynamicRange == "HDR10")
    #expect(video.last?.dynamicRange == "Dolby Vision")

    // mkvmerge (the installed v74 keeps the layers apart; v81 and later combine them) sees the
    // same two HEVC video tracks in the playlist.
    let tracks =
      try Self.json("mkvmerge", ["-J", folder + "/BDMV/PLAYLIST/00000.mpls"])["tracks"]
      as? [[String: Any]] ?? []
    let mkvVideo = tracks.filter { $0["type"] as? String == "video" }
    #expect(mkvVideo.count == video.count)
    #expect(mkvVideo.allSatisfy { ($0["codec"] as? String)?.hasPrefix("HEVC") == true })
  }

  @Test(
    "titles: HDR10+ exactly where ffprobe reads ST 2094-40 side data on the first frame",
    .enabled(if: Tool.has("ffprobe"), "ffprobe missing"),
    arguments: ["hdr10plus", "hdr10-eac3"])
  func hdr10Plus(_ name: String) throws {
    let folder = try Self.folder(name)
    let types = try Self.frameSideData(Self.root + "/" + name + ".m2ts", stream: 0)
    let plus = types.contains { $0.contains("SMPTE2094-40") }
    #expect(plus == (name == "hdr10plus"))
    let title = try Disc.open(path: folder).title(key: "00000")
    let video = try #require(title.streams.first { $0.kind == .video })
    #expect(video.dynamicRange == (plus ? "HDR10+" : "HDR10"))
  }

  @Test(
    "the raw HDR10+ stream's SEI head as DiscKit reads it, against ffprobe",
    .enabled(if: Tool.has("ffprobe"), "ffprobe missing"))
  func hdr10PlusSEI() throws {
    let path = Self.root + "/hdr10plus.hevc"
    try #require(FileManager.default.fileExists(atPath: path), "run TestImages/scripts/make-all.sh")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let ours = try #require(try HEVCColourMetadata(parsingAnnexB: bytes[...]).hdr10Plus)
    let frames =
      try Self.json(
        "ffprobe",
        ["-v", "error", "-read_intervals", "%+#1", "-show_frames", "-of", "json", path])["frames"]
      as? [[String: Any]] ?? []
    let side = try #require(
      (frames.first?["side_data_list"] as? [[String: Any]])?.first {
        ($0["side_data_type"] as? String)?.contains("SMPTE2094-40") == true
      })
    #expect(side["application version"] as? Int == Int(ours.applicationVersion))
    #expect(side["num_windows"] as? Int == Int(ours.windowCount))
    // The HDR10 clip has static metadata only.
    let hdr10 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.root + "/hdr10.hevc")))
    #expect(try HEVCColourMetadata(parsingAnnexB: hdr10[...]).hdr10Plus == nil)
  }

  @Test(
    "authored CLPI HEVC attributes: libbluray reads what the source clip says",
    .enabled(if: Tool.has("ffprobe"), "ffprobe missing"), arguments: hevcDiscs)
  func clipInformationHEVCAttributes(_ name: String) throws {
    let folder = try Self.folder(name)
    let path = folder + "/BDMV/CLIPINF/00000.clpi"
    let theirs = try #require(Reference.Bluray.clipProgramStreams(atPath: path)?.first)
    let probed = try Self.probedStreams(Self.root + "/" + name + ".m2ts")
    let plus = try Self.frameSideData(Self.root + "/" + name + ".m2ts", stream: 0).contains {
      $0.contains("SMPTE2094-40")
    }
    let hevc = theirs.filter { $0.codingType == 0x24 }
    #expect(hevc.count == probed.values.filter { $0["codec_name"] as? String == "hevc" }.count)
    for s in hevc {
      let source = try #require(probed[Int(s.pid)])
      let el = Self.sideData(source, "DOVI configuration record")?["bl_present_flag"] as? Int == 0
      let pq = source["color_transfer"] as? String == "smpte2084"
      #expect(s.dynamicRangeType == (el ? 2 : pq ? 1 : 0), "\(name) 0x\(String(s.pid, radix: 16))")
      let space: UInt8 =
        switch source["color_primaries"] as? String {
        case "bt709": 1
        case "bt2020": 2
        default: 0
        }
      #expect(s.colorSpace == space, "\(name) 0x\(String(s.pid, radix: 16))")
      #expect(s.hdrPlusFlag == (plus && !el && pq), "\(name) 0x\(String(s.pid, radix: 16))")
      if source["height"] as? Int == 1080, source["r_frame_rate"] as? String == "24000/1001" {
        #expect(s.format == 6 && s.rate == 1, "1080p (6) at 23.976 (1)")
      }
    }
    // DiscKit's own reading of the file equals libbluray's.
    let ours =
      try ClipInformation(
        bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      ).program.programs.first?.streams ?? []
    #expect(ours.count == theirs.count)
    for (a, b) in zip(ours, theirs) {
      #expect(a.pid == b.pid && a.codingType == b.codingType && a.format == b.format)
      #expect(a.dynamicRangeType == b.dynamicRangeType && a.colorSpace == b.colorSpace)
      #expect(a.hdrPlusFlag == b.hdrPlusFlag && a.crFlag == b.crFlag && a.aspect == b.aspect)
    }
  }

  @Test(
    "real UHD clip information: DiscKit's HEVC attributes equal libbluray's",
    .enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)))
  func realClipInformation() throws {
    let base = Fixtures.real("bluray")
    var hevcStreams = 0
    for disc in try FileManager.default.contentsOfDirectory(atPath: base).sorted() {
      let dir = base + "/" + disc + "/BDMV/CLIPINF"
      guard let files = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
      for file in files.sorted() where file.hasSuffix(".clpi") {
        let path = dir + "/" + file
        guard let theirs = Reference.Bluray.clipProgramStreams(atPath: path) else { continue }
        let ours = try ClipInformation(
          bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        ).program.programs.map(\.streams)
        #expect(ours.count == theirs.count, "\(path)")
        for (p, q) in zip(ours, theirs) {
          for (a, b) in zip(p, q) where b.codingType == 0x24 {
            hevcStreams += 1
            #expect(a.format == b.format && a.rate == b.rate && a.aspect == b.aspect, "\(path)")
            #expect(a.dynamicRangeType == b.dynamicRangeType, "\(path)")
            #expect(a.colorSpace == b.colorSpace && a.crFlag == b.crFlag, "\(path)")
            #expect(a.hdrPlusFlag == b.hdrPlusFlag, "\(path)")
          }
        }
      }
    }
    #expect(hevcStreams > 0, "the corpus's UHD disc (bdpl_disc5) has HEVC clips")
  }

  @Test("seeded byte flips of the HDR10+ stream head and a UHD CLPI: a value or a typed error")
  func byteFlipsNeverTrap() throws {
    let stream = Self.root + "/hdr10plus.hevc"
    let clpi = Self.root + "/dolby-vision/BDMV/CLIPINF/00000.clpi"
    try #require(
      FileManager.default.fileExists(atPath: stream)
        && FileManager.default.fileExists(atPath: clpi),
      "run TestImages/scripts/make-all.sh")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stream)))
    let units = HEVCNALUnit.split(bytes[...])
    let firstSlice = try #require(units.first { bytes[$0.lowerBound] >> 1 & 0x3F < 32 })
    let head = Array(bytes[..<firstSlice.lowerBound])
    let clip = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clpi)))
    var random = SeededRandom(seed: 0x5548_4421)
    var parsed = (sei: 0, clpi: 0)
    for round in 0..<3000 {
      var sample = round % 2 == 0 ? head : clip
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        sample[Int.random(in: 0..<sample.count, using: &random)] = UInt8.random(
          in: 0...255, using: &random)
      }
      if Bool.random(using: &random) {
        sample.removeLast(Int.random(in: 0..<sample.count, using: &random))
      }
      if round % 2 == 0 {
        if (try? HEVCColourMetadata(parsingAnnexB: sample[...])) != nil { parsed.sei += 1 }
      } else if (try? ClipInformation(bytes: sample)) != nil {
        parsed.clpi += 1
      }
    }
    #expect(parsed.sei > 0 && parsed.clpi > 0)
  }
}
