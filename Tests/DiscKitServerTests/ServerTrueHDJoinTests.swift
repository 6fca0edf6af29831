import DiscKitTestSupport
import Foundation
import Testing

/// TrueHD with its AC-3 core on one PID across clip joins (issue 20): a title of three clips, each
/// its own TrueHD encode with an interleaved AC-3 core (TestImages/scripts/make-codecs.sh,
/// `truehd-joins`), served as `stream` and `stream.ts` and extracted as one M2TS.
///
/// Oracles: the source clips themselves. ffmpeg prints no demuxer or decoder warning but the
/// TrueHD decoder's lossless-check lines, and exactly the lines it prints when it decodes the
/// three source clips' TrueHD one after the other (`cat` of the sources: the check of the next
/// stream's first restart header covers the previous stream's last samples, a property of
/// splicing two TrueHD encodes, not of the bytes DiscKit writes); the decoded TrueHD equals
/// decoding each source clip on its own; the AC-3 core's frames are the source clips' frames
/// presented inside each play item's IN-OUT range (at the joins; the title's own start and end
/// are left whole), byte for byte, and decode as those frames decoded in one run.
@Suite(
  "disckit serve TrueHD + AC-3 core joins", .serialized,
  .enabled(
    if: ServerProcess.haveBinary && Curl.available && Tool.has("ffmpeg")
      && FileManager.default.fileExists(atPath: Fixtures.generated("codecs/truehd-joins/BDMV"))
      && FileManager.default.fileExists(atPath: Fixtures.generated("codecs/thd-join3.ts")),
    "needs disckit-serve, curl, ffmpeg and TestImages/scripts/make-codecs.sh output"), .toolThreads)
struct ServerTrueHDJoinTests {
  static let sources = (1...3).map { Fixtures.generated("codecs/thd-join\($0).ts") }
  static let pid: UInt16 = 0x1100

  /// One PES of `pid`: its PTS and payload.
  struct PES: Equatable {
    var pts: UInt64?
    var payload: [UInt8]
    var isAC3: Bool { payload.starts(with: [0x0B, 0x77]) }
  }

  /// The PES packets of `pid` in a transport stream of `packetSize`-byte packets.
  static func pes(_ bytes: [UInt8], packetSize: Int, pid: UInt16 = pid) -> [PES] {
    var result: [PES] = []
    var current: PES?
    var i = packetSize - 188
    while i + 188 <= bytes.count {
      defer { i += packetSize }
      guard bytes[i] == 0x47, UInt16(bytes[i + 1] & 0x1F) << 8 | UInt16(bytes[i + 2]) == pid,
        bytes[i + 3] & 0x10 != 0
      else { continue }
      var start = i + 4
      if bytes[i + 3] & 0x20 != 0 { start += 1 + Int(bytes[i + 4]) }
      guard start < i + 188 else { continue }
      if bytes[i + 1] & 0x40 != 0 {
        if let current { result.append(current) }
        var pts: UInt64?
        if bytes[start + 7] & 0x80 != 0 {
          let b = bytes[(start + 9)..<(start + 14)].map(UInt64.init)
          pts = (b[0] >> 1 & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1
        }
        current = PES(
          pts: pts, payload: Array(bytes[(start + 9 + Int(bytes[start + 8]))..<(i + 188)]))
      } else {
        current?.payload += bytes[start..<(i + 188)]
      }
    }
    if let current { result.append(current) }
    return result
  }

  /// ffmpeg's warnings reading `input` (`[truehd @ 0x…]` addresses dropped).
  static func warnings(_ input: String, _ map: [String] = ["-map", "0"]) throws -> [String] {
    let run = try Tool.run(
      "ffmpeg",
      ["-nostdin", "-hide_banner", "-v", "warning", "-i", input] + map + ["-f", "null", "-"])
    #expect(run.status == 0, "\(input): \(run.stderr)")
    return run.stderr.split(separator: "\n").map { line in
      guard line.hasPrefix("["), let at = line.firstIndex(of: "@"),
        let close = line.firstIndex(of: "]")
      else { return String(line) }
      return String(line[..<at]) + String(line[close...])
    }
  }

  /// The decoded frames' hashes of audio stream `index` of `input`.
  static func decodedHashes(_ input: String, audio index: Int) throws -> [String] {
    let run = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-v", "error", "-i", input, "-map", "0:a:\(index)", "-c:a", "pcm_s32le", "-f",
        "framemd5", "-",
      ])
    #expect(run.status == 0, "\(input): \(run.stderr)")
    return run.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
      $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  @Test func streamsAndExtractJoinTheTrueHDAndItsCore() throws {
    let dir = try TemporaryDirectory("disckit-truehd-joins")
    try FileManager.default.copyItem(
      atPath: Fixtures.generated("codecs/truehd-joins"), toPath: dir.path + "/truehd-joins")
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    let id = try ServerFixture.id(server, "truehd-joins")
    let base = server.base + "/discs/\(id)/titles/00000"

    // The oracles from the sources.
    let sourceBytes = try Self.sources.map {
      [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0)))
    }
    let concatenated = dir.path + "/sources.ts"
    try Data(sourceBytes.joined()).write(to: URL(fileURLWithPath: concatenated))
    let spliceWarnings = try Self.warnings(concatenated, ["-map", "0:a:0"]).filter {
      $0.hasPrefix("[truehd")
    }
    #expect(spliceWarnings.count == 2, "one lossless-check line per splice: \(spliceWarnings)")
    let trueHD = try Self.sources.flatMap { try Self.decodedHashes($0, audio: 0) }
    let (status, titles) = try Curl.json(server.base + "/discs/\(id)/titles")
    #expect(status == 200)
    let title = (titles["titles"] as? [[String: Any]])?.first { $0["key"] as? String == "00000" }
    let clips = try #require(title?["clips"] as? [[String: Any]])
    try #require(clips.count == 3)
    var core: [[UInt8]] = []
    for (k, bytes) in sourceBytes.enumerated() {
      let inTime = UInt64(clips[k]["in90k"] as? Int ?? 0)
      let outTime = UInt64(clips[k]["out90k"] as? Int ?? 0)
      for unit in Self.pes(bytes, packetSize: 188) where unit.isAC3 {
        let pts = unit.pts ?? 0
        if (k == 0 || pts >= inTime) && (k == 2 || pts < outTime) { core.append(unit.payload) }
      }
    }
    let expectedCore = dir.path + "/core.ac3"
    try Data(core.joined()).write(to: URL(fileURLWithPath: expectedCore))
    let coreDecoded = try Self.decodedHashes(expectedCore, audio: 0)

    // The outputs: served (continuous) stream, its 188-byte view, and the extracted M2TS.
    let extracted = dir.path + "/title.m2ts"
    let run = try ServerFixture.disckit([
      "extract", dir.path + "/truehd-joins", "--title", "1", "-o", extracted, "--force",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    for (name, packetSize) in [("stream", 192), ("stream.ts", 188), ("extract", 192)] {
      let local = name == "extract" ? extracted : dir.path + "/" + name
      if name != "extract" {
        let reply = try Curl.get(base + "/" + name)
        #expect(reply.status == 200)
        try reply.body.write(to: URL(fileURLWithPath: local))
        // Over HTTP: nothing but the splice's own lossless-check lines.
        #expect(try Self.warnings(base + "/" + name) == spliceWarnings, "\(name)")
      }
      #expect(try Self.warnings(local) == spliceWarnings, "\(name)")
      #expect(try Self.decodedHashes(local, audio: 0) == trueHD, "\(name): TrueHD decoded")
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: local)))
      let served = Self.pes(bytes, packetSize: packetSize).filter(\.isAC3).map(\.payload)
      #expect(served == core, "\(name): AC-3 core frames")
      #expect(try Self.decodedHashes(local, audio: 1) == coreDecoded, "\(name): AC-3 decoded")
    }
  }
}
