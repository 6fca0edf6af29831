@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The program-stream scanner against ffprobe on DVD titles authored by TestImages/scripts/make-dvd.sh.
@Suite("MPEG program stream scanner", .toolThreads)
struct ProgramStreamScannerTests {
  static let discs = ["dvd-ntsc", "dvd-pal"].map { Fixtures.generated($0) }
  static let haveDiscs = discs.allSatisfy { FileManager.default.fileExists(atPath: $0) }

  /// What ffprobe reports for the first packets of a file: first video PTS, first keyframe PTS,
  /// first PTS per audio stream id (`0x80`, `0x1c0`, ...).
  struct Oracle {
    var firstVideoPTS: UInt64?
    var firstKeyframePTS: UInt64?
    var firstAudioPTS: [String: UInt64] = [:]
  }

  static func ffprobe(_ path: String) throws -> Oracle {
    let result = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-show_entries", "stream=index,id,codec_type:packet=stream_index,pts,flags",
        "-of", "json", path,
      ])
    let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    let streams = try #require(json["streams"] as? [[String: Any]])
    var kinds: [Int: (String, String)] = [:]
    for stream in streams {
      if let index = stream["index"] as? Int, let id = stream["id"] as? String,
        let type = stream["codec_type"] as? String
      {
        kinds[index] = (type, id)
      }
    }
    var oracle = Oracle()
    for packet in try #require(json["packets"] as? [[String: Any]]) {
      guard let index = packet["stream_index"] as? Int, let (type, id) = kinds[index],
        let pts = (packet["pts"] as? NSNumber)?.uint64Value
      else { continue }
      let keyframe = (packet["flags"] as? String)?.hasPrefix("K") ?? false
      if type == "video" {
        if oracle.firstVideoPTS == nil { oracle.firstVideoPTS = pts }
        if keyframe && oracle.firstKeyframePTS == nil { oracle.firstKeyframePTS = pts }
      } else if type == "audio", oracle.firstAudioPTS[id] == nil {
        oracle.firstAudioPTS[id] = pts
      }
    }
    return oracle
  }

  static func ffprobeID(_ audio: ProgramStreamScanReport.Audio) -> String {
    "0x" + String(audio.substreamId ?? (0x100 + audio.streamId), radix: 16)
  }

  @Test(
    .enabled(
      if: haveDiscs && Tool.has("ffprobe"),
      "needs ffprobe and TestImages/scripts/make-all.sh output"))
  func everyTitleMatchesFFprobe() throws {
    let scratch = try TemporaryDirectory()
    var checked = 0
    for path in Self.discs {
      let disc = try DVDDisc.open(path: path)
      for (index, title) in disc.titles.enumerated() {
        guard case .success = title else { continue }
        let source = try disc.byteSource(title: index + 1)
        let file = scratch.file("title-\(checked).vob")
        try Data(try source.readAll(limit: 64 << 20)).write(to: URL(fileURLWithPath: file))
        let report = try ProgramStreamScanner.scan(source: source)
        let oracle = try Self.ffprobe(file)
        let video = try #require(report.video.first)
        #expect(video.firstPTS == oracle.firstVideoPTS, "\(path) title \(index + 1)")
        #expect(video.firstIDRPTS == oracle.firstKeyframePTS, "\(path) title \(index + 1)")
        #expect(!report.audio.isEmpty)
        for audio in report.audio {
          #expect(
            audio.firstPTS == oracle.firstAudioPTS[Self.ffprobeID(audio)],
            "\(path) title \(index + 1) \(audio)")
        }
        #expect(Set(report.audio.map(Self.ffprobeID)) == Set(oracle.firstAudioPTS.keys))
        checked += 1
      }
    }
    #expect(checked >= 4)
  }

  @Test(
    .enabled(
      if: haveDiscs && Tool.has("ffprobe"),
      "needs ffprobe and TestImages/scripts/make-all.sh output"))
  func scanFromTheMiddleOfAVOBMatchesFFprobe() throws {
    let vob = try FileByteSource(path: Self.discs[0] + "/VIDEO_TS/VTS_01_1.VOB")
    let scratch = try TemporaryDirectory()
    // A start that is not on a pack boundary: the scanner must resynchronise, like ffprobe.
    for start in [Int64(2048 * 40 + 777), vob.size / 2 + 5] {
      let file = scratch.file("cut-\(start).vob")
      try Data(try vob.bytes(at: start, count: Int(vob.size - start))).write(
        to: URL(fileURLWithPath: file))
      let report = try ProgramStreamScanner.scan(source: vob, offset: start)
      let oracle = try Self.ffprobe(file)
      #expect(report.video.first?.firstIDRPTS == oracle.firstKeyframePTS, "cut at \(start)")
      let gap = try #require(report.video.first?.preIDRGapSeconds)
      #expect(gap >= 0)
      #expect(report.warnings.contains { $0.description.contains("garbage") })
    }
  }

  @Test(.enabled(if: haveDiscs, "run TestImages/scripts/make-all.sh"))
  func reportDoesNotDependOnReadSize() throws {
    let vob = try FileByteSource(path: Self.discs[1] + "/VIDEO_TS/VTS_01_1.VOB")
    let window: Int64 = 600_000
    let reference = try ProgramStreamScanner.scan(
      source: vob, offset: 3, window: window, chunkSize: 1 << 20)
    for chunk in [1, 7, 188, 2048, 4096] {
      #expect(
        try ProgramStreamScanner.scan(source: vob, offset: 3, window: window, chunkSize: chunk)
          == reference)
    }
  }

  @Test func garbageAndEmptyInputGiveWarningsNotCrashes() throws {
    var rng = SeededRandom(seed: 0x0B5_0001)
    let random = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
    let report = try ProgramStreamScanner.scan(source: MemoryByteSource(random))
    #expect(report.warnings.contains { $0.description.contains("no video") })
    #expect(report.warnings.contains(.noVideo))
    let empty = try ProgramStreamScanner.scan(source: MemoryByteSource([]))
    #expect(empty.bytesScanned == 0)
    #expect(empty.video.isEmpty)
    // A PES whose header length runs past its packet.
    let lying: [UInt8] = [0, 0, 1, 0xE0, 0, 5, 0x80, 0x80, 0xF0, 0, 0, 0, 0, 1, 0xBA]
    let lyingReport = try ProgramStreamScanner.scan(source: MemoryByteSource(lying))
    #expect(lyingReport.warnings.contains { $0.description.contains("header length") })
    #expect(
      lyingReport.warnings.contains(.headerLengthPastPacket(streamID: 0xE0, headerLength: 0xF0)))
  }

  @Test(.enabled(if: haveDiscs, "run TestImages/scripts/make-all.sh"))
  func fuzzedVOBNeverCrashes() throws {
    let original = try FileByteSource(path: Self.discs[1] + "/VIDEO_TS/VTS_01_1.VOB").bytes(
      at: 0, count: 200_000)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<60 {
      var bytes = original
      for _ in 0..<200 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes[Int(state >> 33) % bytes.count] = UInt8(truncatingIfNeeded: state >> 17)
      }
      _ = try ProgramStreamScanner.scan(source: MemoryByteSource(bytes), chunkSize: 4096)
    }
  }
}
