import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// `TransportStreamTimeSeek` against ffprobe: for several times per stream, the access point must be
/// the last keyframe ffprobe lists whose PTS is at most T after the first video PTS (after the PAT),
/// at the position ffprobe gives for it; the PSI back-up is checked by an independent packet walk
/// and by scanning from the returned offset.
@Suite("Transport stream time seek", .toolThreads)
struct TransportStreamTimeSeekTests {
  static let ready =
    Tool.has("ffprobe")
    && FileManager.default.fileExists(atPath: Fixtures.generated("ts/h264-ac3.ts"))
  static let notReady = Comment(rawValue: "needs ffprobe and TestImages/generated/ts")
  static let haveFFmpeg = Tool.has("ffmpeg") && Tool.has("ffprobe")

  /// What ffprobe says a seek to `seconds` must find.
  struct Expectation {
    var pid: UInt16
    var firstPTS: UInt64
    /// Keyframes of the video PID: raw PTS and position, in file order.
    var keys: [(pts: UInt64, pos: Int64)]
    var pmtPID: UInt16?
    var unit: Int

    func distance(_ pts: UInt64) -> UInt64 { (pts &- firstPTS) & ((1 << 33) - 1) }

    /// The last keyframe at or before `seconds`, or nil when the time precedes every keyframe.
    func key(at seconds: Double) -> (pts: UInt64, pos: Int64)? {
      keys.last { Double(distance($0.pts)) <= seconds * 90_000 }
    }
  }

  static func expectation(_ path: String, data: [UInt8]) throws -> Expectation {
    let probe = try TSOracle.probe(path)
    let unit = path.hasSuffix(".m2ts") || path.hasSuffix(".mts") ? 192 : 188
    let walk = TSOracle.walk(data, unit: unit)
    let gate = try #require(walk.firstPATOffset)
    let videoPID = try #require(
      probe.streams.filter { ["h264", "hevc", "mpeg2video"].contains($0.value.codec) }.keys.min())
    let first = try #require(TSOracle.firstPES(probe, pid: videoPID, gate: gate))
    let keys = probe.packets.filter { $0.pid == videoPID && $0.key && ($0.pos ?? -1) >= gate }
      .compactMap { p in TSOracle.raw(p.pts).flatMap { pts in p.pos.map { (pts, $0) } } }
    return Expectation(
      pid: videoPID, firstPTS: try #require(TSOracle.raw(first.pts)), keys: keys,
      pmtPID: pmtPID(data, unit: unit, at: gate), unit: unit)
  }

  /// The first program's PMT PID from the PAT packet at `offset` (parsed here, not by DiscKit).
  static func pmtPID(_ data: [UInt8], unit: Int, at offset: Int64) -> UInt16? {
    let p = Int(offset) + (unit == 192 ? 4 : 0)
    guard p + 188 <= data.count, data[p + 1] & 0x40 != 0 else { return nil }
    var s = p + 4
    if data[p + 3] & 0x20 != 0 { s += 1 + Int(data[p + 4]) }
    s += 1 + Int(data[s])  // pointer_field
    var entry = s + 8
    while entry + 4 <= p + 188 {
      let program = Int(data[entry]) << 8 | Int(data[entry + 1])
      let pid = UInt16(data[entry + 2] & 0x1F) << 8 | UInt16(data[entry + 3])
      if program != 0 { return pid }
      entry += 4
    }
    return nil
  }

  static func pid(_ data: [UInt8], unit: Int, at offset: Int64) -> UInt16? {
    let p = Int(offset) + (unit == 192 ? 4 : 0)
    guard offset >= 0, p + 3 <= data.count, data[p] == 0x47 else { return nil }
    return UInt16(data[p + 1] & 0x1F) << 8 | UInt16(data[p + 2])
  }

  /// Checks one seek against the expectation; returns the result.
  @discardableResult
  static func check(
    _ source: any ByteSource, _ data: [UInt8], _ e: Expectation, seconds: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> TransportStreamTimeSeek.Result {
    let result = try TransportStreamTimeSeek.seek(source: source, to: seconds)
    let expected = try #require(e.key(at: seconds), "T \(seconds) precedes every keyframe")
    #expect(result.pid == e.pid, sourceLocation: sourceLocation)
    #expect(result.firstPTS == e.firstPTS, "T \(seconds)", sourceLocation: sourceLocation)
    #expect(result.pts == expected.pts, "T \(seconds)", sourceLocation: sourceLocation)
    #expect(
      result.accessPointOffset == expected.pos, "T \(seconds)", sourceLocation: sourceLocation)
    #expect(result.placement == .atOrBefore, sourceLocation: sourceLocation)
    #expect(
      result.seconds == Double(e.distance(expected.pts)) / 90_000, sourceLocation: sourceLocation)
    #expect(result.packetSize == e.unit, sourceLocation: sourceLocation)
    // The PSI back-up, by an independent walk: every unit in [offset, access point) is PAT, PMT or
    // SIT (BDAV: PID <= 0x1001), and the unit before `offset` is not.
    func psi(_ pid: UInt16?) -> Bool {
      guard let pid else { return false }
      return pid == 0 || pid == 0x1F || pid == e.pmtPID || (e.unit == 192 && pid <= 0x1001)
    }
    #expect(result.offset <= result.accessPointOffset, sourceLocation: sourceLocation)
    #expect((result.accessPointOffset - result.offset) % Int64(e.unit) == 0)
    var o = result.offset
    while o < result.accessPointOffset {
      #expect(psi(pid(data, unit: e.unit, at: o)), "unit at \(o)", sourceLocation: sourceLocation)
      o += Int64(e.unit)
    }
    #expect(
      !psi(pid(data, unit: e.unit, at: result.offset - Int64(e.unit)))
        || result.accessPointOffset - result.offset >= 64 * Int64(e.unit),
      "T \(seconds): backed up over every PSI unit", sourceLocation: sourceLocation)
    // ffmpeg writes PAT + PMT right before every keyframe: the start is that PAT, and a PAT-gated
    // scan from it loses nothing.
    let walk = TSOracle.walk(data, unit: e.unit, start: Int(result.offset))
    if pid(data, unit: e.unit, at: result.offset) == 0 {
      #expect(walk.firstPATOffset == result.offset, sourceLocation: sourceLocation)
      let report = try PESPreScanner.scan(source: source, offset: result.offset, window: 1 << 20)
      #expect(report.pesBeforePAT == 0, sourceLocation: sourceLocation)
      #expect(report.firstPATOffset == result.offset, sourceLocation: sourceLocation)
      let video = try #require(report.video.first { $0.pid == e.pid })
      #expect(video.firstPTS == expected.pts, sourceLocation: sourceLocation)
      if result.kind == .cra || result.kind == .bla {
        // HEVC open GOP: ffprobe's keyframe is a CRA, reported apart from IDR pictures.
        #expect(video.firstCRAOffset == expected.pos, sourceLocation: sourceLocation)
        #expect(video.firstCRAPTS == expected.pts, sourceLocation: sourceLocation)
      } else {
        #expect(video.firstIDROffset == expected.pos, sourceLocation: sourceLocation)
        #expect(video.preIDRGapSeconds == 0, sourceLocation: sourceLocation)
      }
    }
    return result
  }

  @Test(
    "the access point equals ffprobe's last keyframe at or before T",
    .enabled(if: ready, notReady),
    arguments: [
      "h264-ac3.ts", "h264-ac3.m2ts", "mpeg2-mp2.ts", "mpeg2-ac3.m2ts", "hevc-ac3.ts",
      "hevc-aac.m2ts", "wrap-h264-ac3.ts", "wrap-h264-aac.m2ts",
    ])
  func fixtures(name: String) throws {
    let path = Fixtures.generated("ts/\(name)")
    let data = try TSOracle.bytes(path)
    let e = try Self.expectation(path, data: data)
    #expect(e.keys.count >= 4)
    let source = try FileByteSource(path: path)
    let keyTimes = e.keys.map { Double(e.distance($0.pts)) / 90_000 }
    var times: [Double] = [0, 0.3, 1.5, 2.75, 4.99]
    // Exactly at each keyframe, and a tick before it (which must give the previous one).
    for t in keyTimes { times += [t, max(0, t - 1.0 / 90_000)] }
    for t in times { try Self.check(source, data, e, seconds: t) }
    // Beyond the end: the last keyframe, flagged.
    let end = try Self.check(source, data, e, seconds: 1000)
    #expect(end.clamped)
    #expect(end.accessPointOffset == e.keys.last?.pos)
    #expect(!(try TransportStreamTimeSeek.seek(source: source, to: 1)).clamped)
    // The same result whatever the reads return (short reads of 1000 and 188 bytes).
    for limit in [1000, 188] {
      let short = ShortReadSource(base: source, limit: limit)
      for t in [0.0, 2.2, 1000] {
        #expect(
          try TransportStreamTimeSeek.seek(source: short, to: t)
            == TransportStreamTimeSeek.seek(source: source, to: t))
      }
    }
  }

  /// Reads at most `limit` bytes per call.
  struct ShortReadSource: ByteSource {
    var base: any ByteSource
    var limit: Int
    var size: Int64 { base.size }
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError)
      -> Int
    {
      try base.read(
        at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(limit)))
    }
  }

  /// Makes a stream with ffmpeg.
  static func make(_ path: String, seconds: Int, args: [String]) throws {
    let result = try Tool.run(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "testsrc=size=320x240:rate=25:duration=\(seconds)", "-f", "lavfi", "-i",
        "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
      ] + args + [path])
    try #require(result.status == 0, "ffmpeg: \(result.stderr)")
  }

  static let h264 = [
    "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-keyint_min", "25", "-sc_threshold",
    "0", "-bf", "2", "-b:v", "1M", "-pix_fmt", "yuv420p",
  ]

  @Test(
    "36 s streams with 1 s GOPs and a PAT every 50 ms: bisection over many windows",
    .enabled(if: haveFFmpeg, "needs ffmpeg and ffprobe"))
  func longStreams() throws {
    let dir = try TemporaryDirectory()
    for (name, extra) in [
      ("long.ts", ["-f", "mpegts"]), ("long.m2ts", ["-f", "mpegts", "-mpegts_m2ts_mode", "1"]),
    ] {
      let path = dir.file(name)
      try Self.make(
        path, seconds: 36,
        args: Self.h264 + ["-c:a", "aac", "-b:a", "128k", "-pat_period", "0.05"] + extra)
      let data = try TSOracle.bytes(path)
      #expect(data.count > 8 * TransportStreamTimeSeek.probeWindow, "big enough to bisect")
      let e = try Self.expectation(path, data: data)
      #expect(e.keys.count >= 30)
      let source = try FileByteSource(path: path)
      var times = stride(from: 0.0, through: 37, by: 0.7).map { $0 }
      times += e.keys.map { Double(e.distance($0.pts)) / 90_000 }
      for t in times {
        let result = try Self.check(source, data, e, seconds: t)
        // Bounded reads: the head, the probes and a few windows, not the file.
        #expect(
          result.bytesRead
            < min(Int64(data.count), TransportStreamTimeSeek.headWindow)
            + 40 * Int64(TransportStreamTimeSeek.probeWindow + (128 << 10)))
      }
    }
  }

  @Test(
    "a 40 MB stream: reads stay far below the file size", .enabled(if: ready, notReady))
  func benchStream() throws {
    let path = Fixtures.generated("ts/bench-h264.m2ts")
    try #require(FileManager.default.fileExists(atPath: path))
    let data = try TSOracle.bytes(path)
    let e = try Self.expectation(path, data: data)
    let source = try FileByteSource(path: path)
    for t in [0, 7.3, 19.96, 33, 39.5] {
      let result = try Self.check(source, data, e, seconds: t)
      #expect(result.bytesRead < Int64(data.count) / 2)
    }
  }

  @Test(
    "real samples: the access point equals ffprobe's",
    .enabled(
      if: Fixtures.hasRealData && Tool.has("ffprobe"), Comment(rawValue: Fixtures.realDataMissing)),
    arguments: [
      "ts/gomediainfo_sample_h264_aac.ts", "ts/tsduck_test-064_h264_mp2.ts",
      "ts/tsduck_test-100.1_hevc.ts", "ts/tsduck_test-139_hdmv_mpeg2_dtshdma.ts",
      "m2ts/exiftool_M2TS.mts",
    ])
  func realSamples(name: String) throws {
    let path = Fixtures.real(name)
    let data = try TSOracle.bytes(path)
    let e = try Self.expectation(path, data: data)
    let source = try FileByteSource(path: path)
    var times = [0, 0.5, 2, 5, 9, 100]
    times += e.keys.map { Double(e.distance($0.pts)) / 90_000 }
    for t in times { try Self.check(source, data, e, seconds: t) }
  }

  // MARK: Bad input

  @Test("negative, NaN and infinite times are invalid arguments", .enabled(if: ready, notReady))
  func invalidTimes() throws {
    let source = try FileByteSource(path: Fixtures.generated("ts/h264-ac3.ts"))
    for t in [-1, -0.001, .nan, .infinity, -.infinity] {
      #expect {
        try TransportStreamTimeSeek.seek(source: source, to: t)
      } throws: { ($0 as? DiscKitError)?.code == .invalidArgument }
    }
  }

  @Test("empty and random input: a typed error")
  func notTransportStreams() {
    var generator = SeededRandom(seed: 0x7E57_5EED)
    let random = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
      .map { $0 == 0x47 ? 0 : $0 }
    for bytes in [[], random] {
      #expect {
        try TransportStreamTimeSeek.seek(source: MemoryByteSource(bytes), to: 1)
      } throws: { ($0 as? DiscKitError)?.code == .malformed }
    }
  }

  @Test("video PES without PTS: malformed", .enabled(if: ready, notReady))
  func noPTS() throws {
    var data = try TSOracle.bytes(Fixtures.generated("ts/h264-ac3.ts"))
    // Clear PTS_DTS_flags in every video PES header (PID 0x100, payload_unit_start).
    var cleared = 0
    for o in stride(from: 0, to: data.count - 187, by: 188)
    where data[o + 1] & 0x40 != 0
      && (UInt16(data[o + 1] & 0x1F) << 8 | UInt16(data[o + 2])) == 0x100
    {
      var p = o + 4
      if data[o + 3] & 0x20 != 0 { p += 1 + Int(data[o + 4]) }
      guard p + 8 < o + 188, data[p] == 0, data[p + 1] == 0, data[p + 2] == 1 else { continue }
      data[p + 7] &= 0x3F
      cleared += 1
    }
    #expect(cleared > 10)
    #expect {
      try TransportStreamTimeSeek.seek(source: MemoryByteSource(data), to: 1)
    } throws: { error in
      let e = error as? DiscKitError
      return e?.code == .malformed && e?.detail.contains("PTS") == true
    }
  }

  @Test(
    "a file cut mid-GOP: before its first keyframe the seek starts at it",
    .enabled(if: ready, notReady))
  func cutMidGOP() throws {
    let full = try TSOracle.bytes(Fixtures.generated("ts/h264-ac3.ts"))
    let dir = try TemporaryDirectory()
    let path = dir.file("cut.ts")
    try TSOracle.write(Array(full[(188 * 100)...]), to: path)
    let data = try TSOracle.bytes(path)
    let e = try Self.expectation(path, data: data)
    let firstKey = try #require(e.keys.first)
    #expect(e.distance(firstKey.pts) > 0, "the cut leaves frames before the first keyframe")
    let source = try FileByteSource(path: path)
    let early = try TransportStreamTimeSeek.seek(source: source, to: 0)
    #expect(early.placement == .after)
    #expect(early.accessPointOffset == firstKey.pos)
    #expect(early.pts == firstKey.pts)
    #expect(!early.warnings.isEmpty)
    // Later times behave as usual.
    for t in [Double(e.distance(firstKey.pts)) / 90_000, 3.1, 100] {
      try Self.check(source, data, e, seconds: t)
    }
  }

  @Test(
    "a PTS discontinuity (two epochs spliced): a valid keyframe, no crash",
    .enabled(if: haveFFmpeg, "needs ffmpeg and ffprobe"))
  func discontinuity() throws {
    let dir = try TemporaryDirectory()
    try Self.make(dir.file("a.ts"), seconds: 4, args: Self.h264 + ["-c:a", "ac3", "-f", "mpegts"])
    try Self.make(
      dir.file("b.ts"), seconds: 4,
      args: Self.h264 + ["-c:a", "ac3", "-output_ts_offset", "5000", "-f", "mpegts"])
    let joined = try TSOracle.bytes(dir.file("a.ts")) + TSOracle.bytes(dir.file("b.ts"))
    let path = dir.file("joined.ts")
    try TSOracle.write(joined, to: path)
    let probe = try TSOracle.probe(path)
    let keyPositions = Set(probe.packets.filter(\.key).compactMap(\.pos))
    let source = try FileByteSource(path: path)
    for t in [0, 1, 2.5, 3.9, 6, 100, 5001, 5003, 1e6] {
      let result = try TransportStreamTimeSeek.seek(source: source, to: t)
      #expect(keyPositions.contains(result.accessPointOffset), "T \(t)")
      #expect(result.offset <= result.accessPointOffset)
    }
  }
}
