@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitOutput
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Titles over real M2TS made by ffmpeg, with CLPI/MPLS written by the test
/// (``FFmpegTwoClipBluray``), against libbluray. Concurrent reads (no C library) are checked in
/// DiscKitAuthoringTests' suite of the same name.
@Suite("Blu-ray title bytes, seek and extraction", .toolThreads)
struct BlurayExtractionTests {
  /// Equal except for packets libbluray wiped (``ClipJoinProbe/equalAfterNormalising(ours:libbluray:)``).
  static func equalAfterNormalising(ours: [UInt8], libbluray: [UInt8]) -> Bool {
    ClipJoinProbe.equalAfterNormalising(ours: ours, libbluray: libbluray)
  }

  @Test(.enabled(if: Tool.has("ffmpeg") && Tool.has("ffprobe"), "needs ffmpeg and ffprobe"))
  func titleBytesSizeAndChaptersMatchLibbluray() throws {
    let (disc, a, b) = try FFmpegTwoClipBluray.make()
    let bluray = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
    let title = try bluray.title(playlist: "00001.mpls")
    // Independent expectation from the walk: A whole, B from the key frame at 2 s.
    #expect(title.clips[0].startPacket == 0 && title.clips[0].endPacket == UInt32(a.packets))
    #expect(
      title.clips[1].startPacket == b.keyFrames[2].spn
        && title.clips[1].endPacket == UInt32(b.packets))

    let bd = try Reference.Bluray(path: disc.path)
    #expect(bd.selectPlaylist(1))
    #expect(UInt64(title.size) == bd.titleSize)
    let info = try #require(bd.playlistInfo(1))
    #expect(title.chapters.map { UInt64($0.offset) } == info.chapters.map(\.offset))
    #expect(title.clips.map { UInt32($0.packetCount) } == info.clips.map(\.packetCount))

    let source = try title.byteSource()
    let ours = try FFmpegTwoClipBluray.readAll(source, chunk: 1 << 20)
    for chunk in [192, 6144, 100_003] {
      #expect(try FFmpegTwoClipBluray.readAll(source, chunk: chunk) == ours)
    }
    var theirs: [UInt8] = []
    _ = bd.readToEnd { theirs += $0 }
    #expect(Self.equalAfterNormalising(ours: ours, libbluray: theirs))

    // bd_splice output starts at the chapter-0 seek point and is a suffix of ours (normalised).
    let splice = disc.directory.file("splice.m2ts")
    if Tool.has("bd_splice") {
      let run = try Tool.run("bd_splice", ["-p", "1", disc.path, splice])
      #expect(run.status == 0, "\(run.stderr)")
      let spliced = [UInt8](try Data(contentsOf: URL(fileURLWithPath: splice)))
      #expect(
        spliced.count <= ours.count && spliced.count >= ours.count - Int(title.chapters[0].offset))
      #expect(
        Self.equalAfterNormalising(ours: Array(ours.suffix(spliced.count)), libbluray: spliced))
    }

    // Time seek: the byte offset for a time is libbluray's bd_seek_time position.
    for seconds in [0.0, 1.5, 3.2, 5.9, 6.5, 8.0] {
      let tick = UInt64(seconds * 90000)
      let theirsPos = bd.seekTime(tick)
      #expect(title.byteOffset(forTitleTime: tick) == theirsPos, "seek \(seconds) s")
      let back = title.titleTime(forByteOffset: title.byteOffset(forTitleTime: tick))
      #expect(back <= tick && tick - back <= 90000, "round trip \(seconds) s")
    }
    #expect(title.byteOffset(forChapter: 1) == Int64(info.chapters[1].offset))
    #expect(
      title.clips.map { UInt64(MediaTime(ticks45k: $0.titleTime).ticks) }
        == info.clips.map(\.startTime90k))

    // Extraction through the sink (zero-copy path: folder files into a regular file).
    let out = disc.directory.file("title.m2ts")
    let sink = try AtomicFileWriter(destination: out, overwrite: false)
    try source.copy(to: sink)
    try sink.commit()
    #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))) == ours)
    #expect(throws: DiscKitError.self) { try AtomicFileWriter(destination: out, overwrite: false) }

    // ffprobe reads it: 150 frames of A and 100 of B (from the 2 s key frame) = 10 s at 25 fps.
    let probe = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
        "stream=nb_read_frames", "-of", "csv=p=0", out,
      ])
    // (ffprobe lists the stream once per program entry; every line must say 250.)
    let counts = probe.text.split(whereSeparator: \.isNewline).map(String.init)
    #expect(!counts.isEmpty && counts.allSatisfy { $0 == "250" }, "\(probe.text)")
  }

  @Test(.enabled(if: Tool.has("ffmpeg"), "needs ffmpeg"))
  func angleSelectionMatchesLibbluray() throws {
    let disc = try SyntheticBluray()
    let a = try FFmpegTwoClipBluray.makeStream(
      seconds: 4, offsetSeconds: 0, in: disc.directory, name: "a.m2ts")
    let b = try FFmpegTwoClipBluray.makeStream(
      seconds: 5, offsetSeconds: 0, in: disc.directory, name: "b.m2ts")
    try disc.write("BDMV/STREAM/00001.m2ts", a.bytes)
    try disc.write("BDMV/STREAM/00002.m2ts", b.bytes)
    try disc.clip("00001", FFmpegTwoClipBluray.clipInformation(a))
    try disc.clip("00002", FFmpegTwoClipBluray.clipInformation(b))
    let item = PlayItem(
      clips: [PlayItemClip(clipID: "00001"), PlayItemClip(clipID: "00002")],
      inTime: a.keyFrames[0].pts45k,
      outTime: a.keyFrames[0].pts45k + 3 * 45000, streams: FFmpegTwoClipBluray.streams())
    try disc.playlist(
      1, MoviePlaylist(playItems: [item], marks: [PlaylistMark(playItemRef: 0, time: item.inTime)]))
    try disc.navigation(plays: [[1]])
    let bluray = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
    let bd = try Reference.Bluray(path: disc.path)
    for angle in [0, 1, 5] {
      let title = try bluray.title(playlist: "00001.mpls", angle: angle)
      #expect(title.angleCount == 2)
      let info = try #require(bd.playlistInfo(1, angle: angle))
      #expect(title.clips.map(\.packetCount) == info.clips.map(\.packetCount), "angle \(angle)")
      #expect(title.clips[0].clipID == (angle == 1 ? "00002" : "00001"))
      #expect(bd.selectPlaylist(1))
      bd.selectAngle(angle)
      #expect(UInt64(title.size) == bd.titleSize, "angle \(angle)")
    }
  }

  @Test(
    .enabled(
      if: Tool.has("ffmpeg") && FileManager.default.fileExists(atPath: "/dev/full"),
      "needs ffmpeg and /dev/full"))
  func devFullGivesACleanError() throws {
    let (disc, _, _) = try FFmpegTwoClipBluray.make()
    let source = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path)).title(
      playlist: "00001.mpls"
    ).byteSource()
    let sink = try AtomicFileWriter(destination: "/dev/full", overwrite: true)
    do {
      try source.copy(to: sink)
      Issue.record("writing to /dev/full succeeded")
    } catch {
      #expect(error.code == .io)
      #expect(error.structure == "/dev/full")
    }
    sink.abort()
    var st = stat()
    #expect(stat("/dev/full", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
  }
}
