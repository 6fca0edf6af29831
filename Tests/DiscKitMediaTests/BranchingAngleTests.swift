@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
@_spi(Formats) import DiscKitMedia
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Seamless branching with angles (issue 20), on `bluray/feature` of
/// `TestImages/scripts/make-bluray.sh`: two cuts of one feature sharing 23 segments, joined with
/// connection conditions 6 (continuous) and 5 (a clean break where the theatrical cut skips two
/// segments), five play items with two angles (clips cut from a second stream of the same
/// timing). libbluray is the oracle for the title structure and the original bytes; ffmpeg's
/// decoding of the source clips for the frames of every angle.
@Suite("Seamless branching with angles", .toolThreads)
struct BranchingAngleTests {
  static let folder = Fixtures.generated("bluray/feature")
  static let ready =
    Tool.has("ffmpeg") && Tool.has("ffprobe")
    && FileManager.default.fileExists(atPath: folder + "/BDMV/index.bdmv")
  static let missing = "needs ffmpeg, ffprobe and TestImages/scripts/make-bluray.sh output"

  /// The segments each playlist plays, as the script authored them.
  static let segments: [Int: [Int]] = [0: Array(0..<25), 1: Array(0..<12) + Array(14..<25)]
  /// The segments authored with two angles.
  static let multiAngle: Set<Int> = [5, 6, 7, 17, 18]

  /// The source clips a playlist plays at `angle` (0-based).
  static func sourceClips(playlist: Int, angle: Int) -> [String] {
    (segments[playlist] ?? []).map {
      Fixtures.generated(
        String(
          format: "bluray/clips/%@%02d.ts", angle == 1 && multiAngle.contains($0) ? "t" : "s", $0))
    }
  }

  static let cases: [(playlist: Int, angle: Int)] = [(0, 0), (0, 1), (1, 0), (1, 1)]

  /// Duration, clips (with their angle's clip), chapters and angle count: libbluray's
  /// `bd_get_playlist_info` for each angle; the connection conditions and angles as authored.
  @Test(.enabled(if: ready, "\(missing)"), arguments: 0..<4)
  func structureMatchesLibbluray(_ index: Int) throws {
    let (playlist, angle) = Self.cases[index]
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: Self.folder))
    let name = String(format: "%05d.mpls", playlist)
    let title = try disc.title(playlist: name, angle: angle)
    let reference = try Reference.Bluray(path: Self.folder)
    let info = try #require(reference.playlistInfo(playlist, angle: angle))
    #expect(title.angleCount == 2 && info.angleCount == 2)
    #expect(title.duration90k == info.duration90k)
    #expect(title.clips.count == Self.segments[playlist]?.count)
    // libbluray's clip info names the play item's first clip whatever the angle (its
    // `_fill_title_info` copies `clip[0]`'s id); its packet counts are the angle's clips'.
    let items = title.playlist.playItems
    #expect(title.clips.map { items[$0.index].clips[0].clipID } == info.clips.map(\.clipID))
    // The clip read: the item's clip of that angle; the script passed t05, t06, t07, t17, t18
    // as clips 25 to 29.
    let segments = try #require(Self.segments[playlist])
    let angleClips = [5: 25, 6: 26, 7: 27, 17: 28, 18: 29]
    #expect(
      title.clips.map(\.clipID)
        == segments.map {
          BDMVBuilder.fiveDigits(angle == 1 ? angleClips[$0] ?? $0 : $0)
        })
    #expect(title.clips.map(\.packetCount) == info.clips.map(\.packetCount))
    #expect(title.clips.map { UInt64($0.inTime) * 2 } == info.clips.map(\.inTime90k))
    #expect(title.clips.map { UInt64($0.outTime) * 2 } == info.clips.map(\.outTime90k))
    #expect(title.clips.map { UInt64($0.titleTime) * 2 } == info.clips.map(\.startTime90k))
    #expect(UInt64(title.size) == UInt64(info.clips.map(\.packetCount).reduce(0, +)) * 192)
    #expect(title.chapters.count == info.chapters.count && !info.chapters.isEmpty)
    #expect(title.chapters.map { UInt64($0.titleTime) * 2 } == info.chapters.map(\.start90k))
    #expect(title.chapters.map { UInt64($0.offset) } == info.chapters.map(\.offset))
    // As authored: condition 6 at every join but the theatrical cut's skip (5); two angles on
    // the items of s05-s07 and s17-s18, changing seamlessly.
    let conditions = title.clips.map(\.connectionCondition)
    #expect(conditions.first == 1)
    for k in 1..<segments.count {
      #expect(conditions[k] == (segments[k] == segments[k - 1] + 1 ? 6 : 5), "item \(k)")
    }
    #expect(
      items.indices.filter { items[$0].angleCount == 2 }.map { segments[$0] }
        == segments.filter(Self.multiAngle.contains))
    let seamlessAngles = items.filter { $0.angleCount == 2 }.map(\.isSeamlessAngle)
    #expect(!seamlessAngles.contains(false))
  }

  /// `--timeline original` at every angle is libbluray's `bd_read` after `bd_select_angle`.
  @Test(.enabled(if: ready, "\(missing)"), arguments: 0..<4)
  func originalTimelineIsLibblurayRead(_ index: Int) throws {
    let (playlist, angle) = Self.cases[index]
    let disc = try Disc.open(path: Self.folder)
    let title = try disc.title(key: String(format: "%05d", playlist), angle: angle + 1)
    let source = try title.byteSource(timeline: .original)
    let ours = try source.bytes(at: 0, count: Int(source.size))
    let reference = try Reference.Bluray(path: Self.folder)
    #expect(reference.selectPlaylist(playlist))
    #expect(reference.selectAngle(angle))
    var theirs: [UInt8] = []
    _ = reference.readToEnd { theirs += $0 }
    // Equal but for the packets libbluray's m2ts filter wipes (PID 0x1FFF).
    #expect(ours.count == theirs.count)
    #expect(
      ClipJoinProbe.equalAfterNormalising(ours: ours, libbluray: theirs),
      "playlist \(playlist) angle \(angle + 1)")
  }

  /// The continuous timeline of every angle (what `disckit extract --angle N` and `serve
  /// ?angle=N` give): continuity counters and PCR continuous, ffmpeg reads it without a
  /// warning, and its video and audio frames are the source clips' of that angle, in order
  /// (every join is seamless: nothing is cut).
  @Test(.enabled(if: ready, "\(missing)"), arguments: 0..<4)
  func everyAngleIsContinuousAndClean(_ index: Int) throws {
    let (playlist, angle) = Self.cases[index]
    let label = "playlist \(playlist) angle \(angle + 1)"
    let disc = try Disc.open(path: Self.folder)
    let title = try disc.title(key: String(format: "%05d", playlist), angle: angle + 1)
    #expect(title.angle == angle + 1 && title.angleCount == 2)
    let source = try title.byteSource(timeline: .continuous)
    let bytes = try source.bytes(at: 0, count: Int(source.size))
    #expect(ClipJoinProbe.continuityBreaks(bytes, packetSize: 192) == [], "\(label)")
    let pcrs = ClipJoinProbe.pcrs(bytes, packetSize: 192)
    let steps = zip(pcrs, pcrs.dropFirst()).map { ($1 - $0) & 0x1_FFFF_FFFF }
    #expect(!pcrs.isEmpty && steps.allSatisfy { $0 <= 9000 }, "\(label)")
    let dir = try TemporaryDirectory("branching-angles")
    let path = dir.file("title.m2ts")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(try ClipJoinProbe.ffmpegWarnings(path) == "", "\(label)")
    let clips = Self.sourceClips(playlist: playlist, angle: angle)
    for (map, copy) in [("0:v:0", false), ("0:a:0", true)] {
      let expected = try clips.flatMap { try ClipJoinProbe.frames($0, map, copy: copy).map(\.hash) }
      let ours = try ClipJoinProbe.frames(path, map, copy: copy).map(\.hash)
      #expect(ours.count == expected.count, "\(label) \(map)")
      #expect(ours == expected, "\(label) \(map)")
    }
    // The video timeline is one: PTS never go back and never jump by more than a frame.
    let times = try ClipJoinProbe.frames(path, "0:v:0").map(\.pts90k).sorted()
    let gaps = Set(zip(times, times.dropFirst()).map { $1 - $0 })
    #expect(gaps == [3600], "\(label): frame steps \(gaps)")
  }

  /// Matroska of every angle: decodes without a timestamp warning, to the frames of the source
  /// clips of that angle, as long as libbluray's title.
  @Test(.enabled(if: ready && MatroskaOracle.available, "\(missing), mkvmerge"), arguments: 0..<4)
  func matroskaOfEveryAngle(_ index: Int) throws {
    let (playlist, angle) = Self.cases[index]
    let label = "playlist \(playlist) angle \(angle + 1)"
    let disc = try Disc.open(path: Self.folder)
    let title = try disc.title(key: String(format: "%05d", playlist), angle: angle + 1)
    let dir = try TemporaryDirectory("branching-angles-mkv")
    let out = dir.file("title.mkv")
    try MatroskaWriter.write(try MatroskaTitle(title: title), toPath: out, overwrite: false)
    let oracle = try MatroskaOracle.read(out)
    #expect(oracle.tracks.map(\.type) == ["video", "audio"], "\(label)")
    let reference = try Reference.Bluray(path: Self.folder)
    let info = try #require(reference.playlistInfo(playlist, angle: angle))
    #expect(abs(oracle.duration - Double(info.duration90k) / 90000) <= 3.0 / 25, "\(label)")
    #expect(oracle.chapterCount == info.chapters.count, "\(label)")
    #expect(try MatroskaOracle.timestampWarnings(out) == [], "\(label)")
    let warnings = try ClipJoinProbe.ffmpegWarnings(out)
    #expect(warnings == "", "\(label)")
    let expected = try MatroskaOracle.videoFrameHashes(
      Self.sourceClips(playlist: playlist, angle: angle))
    #expect(try MatroskaOracle.videoFrameHashes([out]) == expected, "\(label)")
  }
}
