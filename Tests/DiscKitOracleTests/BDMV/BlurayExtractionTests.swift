@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitOutput
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Titles over real M2TS made by ffmpeg, with CLPI/MPLS written by the test, against libbluray.
@Suite("Blu-ray title bytes, seek and extraction")
struct BlurayExtractionTests {
  /// A 192-byte-packet stream made by ffmpeg, and its key frames found by an independent walk
  /// (video PES starts flagged random-access in their adaptation field).
  struct Stream {
    var bytes: [UInt8]
    var keyFrames: [(pts45k: UInt32, spn: UInt32)]
    var lastPTS45k: UInt32
    var packets: Int { bytes.count / 192 }
  }

  static func makeStream(seconds: Int, offsetSeconds: Int, in dir: TemporaryDirectory, name: String)
    throws -> Stream
  {
    let path = dir.file(name)
    let result = try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi",
        "-i",
        "sine=frequency=440:sample_rate=48000", "-t", "\(seconds)", "-c:v", "libx264", "-g", "25",
        "-keyint_min", "25",
        "-sc_threshold", "0", "-bf", "0", "-pix_fmt", "yuv420p", "-c:a", "ac3", "-output_ts_offset",
        "\(offsetSeconds)",
        "-f", "mpegts", "-mpegts_m2ts_mode", "1", path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var keys: [(UInt32, UInt32)] = []
    var last: UInt32 = 0
    for i in 0..<bytes.count / 192 {
      let p = i * 192 + 4
      let pid = Int(bytes[p + 1] & 0x1F) << 8 | Int(bytes[p + 2])
      guard pid == 0x1011, bytes[p + 1] & 0x40 != 0 else { continue }
      var payload = p + 4
      var rai = false
      if bytes[p + 3] & 0x20 != 0 {
        let length = Int(bytes[p + 4])
        rai = length > 0 && bytes[p + 5] & 0x40 != 0
        payload += 1 + length
      }
      guard bytes[payload] == 0, bytes[payload + 1] == 0, bytes[payload + 2] == 1,
        bytes[payload + 7] & 0x80 != 0
      else { continue }
      let b = bytes[(payload + 9)...(payload + 13)].map(UInt64.init)
      let pts = (b[0] >> 1 & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1
      last = max(last, UInt32(pts / 2))
      if rai { keys.append((UInt32(pts / 2), UInt32(i))) }
    }
    return Stream(bytes: bytes, keyFrames: keys, lastPTS45k: last)
  }

  static func clipInformation(_ s: Stream) -> ClipInformation {
    ClipInformation(
      sourcePacketCount: UInt32(s.packets),
      sequence: ClipSequenceInfo(atcSequences: [
        .init(stcSequences: [
          .init(
            pcrPID: 0x1011, spnSTCStart: 0, presentationStartTime: s.keyFrames[0].pts45k,
            presentationEndTime: s.lastPTS45k)
        ])
      ]),
      program: ClipProgramInfo(programs: [
        .init(streams: [
          .init(pid: 0x1011, codingType: 0x1B, format: 6, rate: 3),
          .init(pid: 0x1100, codingType: 0x81, format: 3, rate: 1, language: "eng"),
        ])
      ]),
      epMap: EPMap(streams: [EPMap.Stream(pid: 0x1011, entries: s.keyFrames)]))
  }

  static func streams() -> StreamNumberTable {
    var stn = StreamNumberTable()
    stn.video = [PlaylistStream(pid: 0x1011, codingType: 0x1B, format: 6, rate: 3)]
    stn.audio = [PlaylistStream(pid: 0x1100, codingType: 0x81, format: 3, rate: 1, language: "eng")]
    return stn
  }

  /// Clip A (6 s) whole, then clip B (6 s, PTS continuing after A) from 2.5 s (non-seamless: from
  /// the entry point at 2 s) to its end; chapters at both items' in-times and at 4 s into A.
  static func makeDisc() throws -> (SyntheticBluray, Stream, Stream) {
    let disc = try SyntheticBluray()
    let a = try makeStream(seconds: 6, offsetSeconds: 0, in: disc.directory, name: "a.m2ts")
    let b = try makeStream(seconds: 6, offsetSeconds: 10, in: disc.directory, name: "b.m2ts")
    try disc.write("BDMV/STREAM/00001.m2ts", a.bytes)
    try disc.write("BDMV/STREAM/00002.m2ts", b.bytes)
    try disc.clip("00001", clipInformation(a))
    try disc.clip("00002", clipInformation(b))
    let inA = a.keyFrames[0].pts45k
    let inB = b.keyFrames[0].pts45k + 45000 * 5 / 2
    let items = [
      PlayItem(
        clips: [PlayItemClip(clipID: "00001")], inTime: inA, outTime: a.lastPTS45k + 1800,
        streams: streams()),
      PlayItem(
        clips: [PlayItemClip(clipID: "00002")], connectionCondition: 1, inTime: inB,
        outTime: b.lastPTS45k + 1800, streams: streams()),
    ]
    let marks = [
      PlaylistMark(playItemRef: 0, time: inA), PlaylistMark(playItemRef: 0, time: inA + 4 * 45000),
      PlaylistMark(playItemRef: 1, time: inB),
    ]
    try disc.playlist(1, MoviePlaylist(playItems: items, marks: marks))
    try disc.navigation(plays: [[1]])
    return (disc, a, b)
  }

  static func readAll(_ source: any ByteSource, chunk: Int) throws -> [UInt8] {
    var out: [UInt8] = []
    var position: Int64 = 0
    while position < source.size {
      let n = Int(min(Int64(chunk), source.size - position))
      out += try source.bytes(at: position, count: n)
      position += Int64(n)
    }
    return out
  }

  /// Equal except for packets libbluray wiped (``ClipJoinProbe/equalAfterNormalising(ours:libbluray:)``).
  static func equalAfterNormalising(ours: [UInt8], libbluray: [UInt8]) -> Bool {
    ClipJoinProbe.equalAfterNormalising(ours: ours, libbluray: libbluray)
  }

  @Test(.enabled(if: Tool.has("ffmpeg") && Tool.has("ffprobe"), "needs ffmpeg and ffprobe"))
  func titleBytesSizeAndChaptersMatchLibbluray() throws {
    let (disc, a, b) = try Self.makeDisc()
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
    let ours = try Self.readAll(source, chunk: 1 << 20)
    for chunk in [192, 6144, 100_003] { #expect(try Self.readAll(source, chunk: chunk) == ours) }
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
    let a = try Self.makeStream(seconds: 4, offsetSeconds: 0, in: disc.directory, name: "a.m2ts")
    let b = try Self.makeStream(seconds: 5, offsetSeconds: 0, in: disc.directory, name: "b.m2ts")
    try disc.write("BDMV/STREAM/00001.m2ts", a.bytes)
    try disc.write("BDMV/STREAM/00002.m2ts", b.bytes)
    try disc.clip("00001", Self.clipInformation(a))
    try disc.clip("00002", Self.clipInformation(b))
    let item = PlayItem(
      clips: [PlayItemClip(clipID: "00001"), PlayItemClip(clipID: "00002")],
      inTime: a.keyFrames[0].pts45k,
      outTime: a.keyFrames[0].pts45k + 3 * 45000, streams: Self.streams())
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

  @Test(.enabled(if: Tool.has("ffmpeg"), "needs ffmpeg"))
  func concurrentReadersSeeTheSameBytes() async throws {
    let (disc, _, _) = try Self.makeDisc()
    let title = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path)).title(
      playlist: "00001.mpls")
    let source = try title.byteSource()
    let whole = try Self.readAll(source, chunk: 1 << 20)
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for k in 0..<16 {
        group.addTask {
          var ok = true
          for r in 0..<50 {
            let offset = Int64((k * 7919 + r * 104_729) % max(1, whole.count - 5000))
            let got = try source.bytes(at: offset, count: 4096)
            ok = ok && got[...] == whole[Int(offset)..<Int(offset) + 4096]
          }
          return ok
        }
      }
      for try await ok in group { #expect(ok) }
    }
  }

  @Test(
    .enabled(
      if: Tool.has("ffmpeg") && FileManager.default.fileExists(atPath: "/dev/full"),
      "needs ffmpeg and /dev/full"))
  func devFullGivesACleanError() throws {
    let (disc, _, _) = try Self.makeDisc()
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
