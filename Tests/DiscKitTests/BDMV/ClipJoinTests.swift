@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Clip joins on the continuous timeline (issue 20): every PID's continuity counter follows
/// ISO/IEC 13818-1 §2.4.3.3 across every join, ffmpeg reads the bytes without a warning, and
/// the decoded frames are those of the source clips (their in..<out presentation) decoded alone.
@Suite("Clip joins", .toolThreads)
struct ClipJoinTests {
  static func generated(_ name: String) -> String { Fixtures.generated(name) }
  static let ready =
    Tool.has("ffmpeg") && Tool.has("ffprobe")
    && FileManager.default.fileExists(atPath: generated("bluray/branching/BDMV/index.bdmv"))
    && FileManager.default.fileExists(atPath: generated("epochs/bd-epochs/BDMV/index.bdmv"))
  static let missing = "needs ffmpeg, ffprobe and TestImages/scripts/make-all.sh output"

  /// (disc folder, playlist, source clip files in play order when the items play whole clips,
  /// the items that continue the one before seamlessly, as the scripts made them).
  static let titles: [(String, String, [String]?, Set<Int>)] = [
    ("epochs/bd-epochs", "00000.mpls", ["e2", "e1", "e3"].map { "epochs/clips/\($0).ts" }, []),
    ("epochs/bd-epochs", "00001.mpls", ["s0", "s1", "e2"].map { "epochs/clips/\($0).ts" }, [1]),
    ("epochs/bd-wrap", "00001.mpls", nil, []),
    ("bluray/simple", "00000.mpls", nil, []),
    ("bluray/seamless", "00000.mpls", nil, []),
    (
      "bluray/branching", "00000.mpls",
      (0..<25).map { String(format: "bluray/clips/s%02d.ts", $0) }, Set(1..<25)
    ),
    (
      "bluray/branching", "00001.mpls",
      (Array(0..<10) + Array(15..<25) + Array(10..<15)).map {
        String(format: "bluray/clips/s%02d.ts", $0)
      }, Set(1..<25).subtracting([10, 20])
    ),
    // Decoys cut at random access points inside clips: in/out times mid-clip.
    ("bluray/decoys", "00001.mpls", nil, []),
    ("bluray/decoys", "00004.mpls", nil, []),
  ]

  @Test(.enabled(if: ready, "\(missing)"), arguments: 0..<9)
  func everyJoinIsClean(_ index: Int) throws {
    let (folder, playlist, sources, seamless) = Self.titles[index]
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: Self.generated(folder)))
    let title = try disc.title(playlist: playlist)
    let source = try title.byteSource(timeline: .continuous)
    let bytes = try source.bytes(at: 0, count: Int(source.size))
    #expect(ClipJoinProbe.continuityBreaks(bytes, packetSize: 192) == [], "\(folder) \(playlist)")
    // PCR continuous across the joins: never back, at most 0.1 s apart (ISO/IEC 13818-1
    // §2.7.2), modulo 2^33.
    let pcrs = ClipJoinProbe.pcrs(bytes, packetSize: 192)
    let steps = zip(pcrs, pcrs.dropFirst()).map { ($1 - $0) & 0x1_FFFF_FFFF }
    #expect(!pcrs.isEmpty && steps.allSatisfy { $0 <= 9000 }, "\(folder) \(playlist)")
    // Any read equals the same range of a full read.
    for chunk in [192 * 7, 6144, 100_003] {
      var again: [UInt8] = []
      var at: Int64 = 0
      while at < source.size {
        let n = Int(min(Int64(chunk), source.size - at))
        again += try source.bytes(at: at, count: n)
        at += Int64(n)
      }
      #expect(again == bytes, "\(folder) \(playlist): reads of \(chunk) bytes")
    }
    let dir = try TemporaryDirectory("clip-joins")
    let path = dir.file("title.m2ts")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(try ClipJoinProbe.ffmpegWarnings(path) == "", "\(folder) \(playlist)")

    // The frames: each source clip decoded alone, kept from its in-time to its out-time by the
    // PTS of the PES holding them (libbluray's m2ts filter rule: a PES presented before the
    // in-time or from the out-time on goes) at each non-seamless join (at a seamless one, one
    // stream cut in two, everything is kept). Video decoded; audio as coded frames (an AC-3 decoder's output
    // depends on the frame before, which a non-seamless join changes).
    guard let sources else { return }
    for (map, copy) in [("0:v:0", false), ("0:a:0", true)] {
      var expected: [String] = []
      for (i, clip) in sources.map(Self.generated).enumerated() {
        let shown = try ClipJoinProbe.presentation(clip)
        // The title's start and end are no joins: nothing goes there.
        let from = i == 0 || seamless.contains(i) ? Int64.min : shown.lowerBound
        let to = i == sources.count - 1 || seamless.contains(i + 1) ? Int64.max : shown.upperBound
        let starts = copy ? try ClipJoinProbe.audioPESTimes(clip) : []
        expected += try ClipJoinProbe.frames(clip, map, copy: copy).filter { frame in
          // The PES holding the frame: the latest start at or before it (video: one a frame).
          let pes = starts.last { $0 <= frame.pts90k } ?? frame.pts90k
          return pes >= from && pes < to
        }.map(\.hash)
      }
      let ours = try ClipJoinProbe.frames(path, map, copy: copy).map(\.hash)
      #expect(ours.count == expected.count, "\(folder) \(playlist) \(map)")
      #expect(ours == expected, "\(folder) \(playlist) \(map)")
    }
  }

  /// `--timeline original` stays the disc's bytes: the joins are left as they are there.
  @Test(.enabled(if: ready, "\(missing)"))
  func originalTimelineIsUntouched() throws {
    let disc = try BlurayDisc(
      fileSystem: try FolderFileSystem(root: Self.generated("bluray/branching")))
    let title = try disc.title(playlist: "00000.mpls")
    let original = try title.byteSource(timeline: .original)
    var concatenated: [UInt8] = []
    for clip in title.clips {
      let file = try disc.fileSystem.openFile(atPath: "/BDMV/STREAM/" + clip.streamFileName)
      concatenated += try file.bytes(
        at: Int64(clip.startPacket) * 192, count: Int(clip.packetCount) * 192)
    }
    #expect(try original.bytes(at: 0, count: Int(original.size)) == concatenated)
    // The clips' counters restart at every join (ffmpeg's segment muxer): the continuous
    // timeline is what renumbers them.
    #expect(!ClipJoinProbe.continuityBreaks(concatenated, packetSize: 192).isEmpty)
  }
}

/// Damaged stream files: the join scan and the rewrite read them in bounded time, never trap,
/// and every read still equals the same range of a full read.
@Suite("Clip joins on damaged streams", .toolThreads)
struct ClipJoinByteFlipTests {
  @Test(.enabled(if: ClipJoinTests.ready, "\(ClipJoinTests.missing)"))
  func seededByteFlips() throws {
    let folder = ClipJoinTests.generated("bluray/branching")
    let dir = try TemporaryDirectory("clip-join-flips")
    let copy = dir.file("disc")
    try FileManager.default.copyItem(atPath: folder, toPath: copy)
    let streams = copy + "/BDMV/STREAM"
    let names = try FileManager.default.contentsOfDirectory(atPath: streams).sorted()
    let originals = try names.map { try Data(contentsOf: URL(fileURLWithPath: streams + "/" + $0)) }
    var random = SeededRandom(seed: 20)
    for round in 0..<12 {
      // Flip bytes (headers included: sync bytes, PIDs, adaptation lengths, PES headers).
      for (name, original) in zip(names, originals) {
        var bytes = [UInt8](original)
        for _ in 0..<(bytes.count / 500) {
          let at = Int.random(in: 0..<bytes.count, using: &random)
          bytes[at] ^= UInt8.random(in: 1...255, using: &random)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: streams + "/" + name))
      }
      let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: copy))
      for playlist in ["00000.mpls", "00001.mpls"] {
        let title = try disc.title(playlist: playlist)
        let source = try title.byteSource(timeline: .continuous)
        #expect(source.size == title.size)
        let whole = try source.bytes(at: 0, count: Int(source.size))
        var again: [UInt8] = []
        var at: Int64 = 0
        let chunk = Int64(1000 + round * 997)
        while at < source.size {
          let n = Int(min(chunk, source.size - at))
          again += try source.bytes(at: at, count: n)
          at += Int64(n)
        }
        #expect(again == whole, "round \(round) \(playlist)")
      }
    }
  }
}
