import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The pre-scanner against ffprobe (libavformat) on streams made by ffmpeg
/// (TestImages/scripts/make-ts.sh) and on the real samples, with the PAT gate checked by the
/// independent walker in ``TSOracle``.
///
/// ffprobe does not drop PES packets that arrive before the first PAT (libavformat reads the
/// PAT/PMT while probing, then seeks back and delivers every PES of the known PIDs), whereas the
/// scanner ignores them like GStreamer's tsdemux. So the oracle value is ffprobe's first packet
/// whose `pos` (the unit where its PES starts) is at or after the first PAT.
@Suite("PES pre-scanner vs ffprobe", .toolThreads)
struct PESPreScannerOracleTests {
  static let streams = [
    "h264-ac3.ts", "h264-ac3.m2ts", "h264-eac3.ts", "h264-aac.ts", "h264-mp2.ts", "h264-dts.m2ts",
    "h264-lpcm.m2ts",
    "hevc-ac3.ts", "hevc-aac.m2ts", "mpeg2-mp2.ts", "mpeg2-ac3.m2ts", "wrap-h264-ac3.ts",
    "wrap-h264-aac.m2ts",
  ]

  static let ready =
    Tool.has("ffprobe")
    && FileManager.default.fileExists(atPath: Fixtures.generated("ts/h264-ac3.ts"))
  static let notReady =
    "needs ffprobe and TestImages/generated/ts (run TestImages/scripts/make-all.sh)"

  enum Cut: String, CaseIterable {
    /// The whole file.
    case whole
    /// Cut 40% in, 77 bytes into a packet (mid-GOP, garbage first).
    case midPacket
    /// Cut at a packet boundary where PES packets start before the next PAT.
    case beforePAT
  }

  /// Compares one file's report with ffprobe and the walker.
  static func check(path: String, unit: Int, walkStart: Int = 0, expectPESBeforePAT: Bool = false)
    throws
  {
    let report = try TSOracle.scan(path)
    let data = try TSOracle.bytes(path)
    let walk = TSOracle.walk(data, unit: unit, start: walkStart)
    let probe = try TSOracle.probe(path)
    #expect(report.packetSize == unit)
    #expect(report.firstPATOffset == walk.firstPATOffset)
    #expect(report.pesBeforePAT == walk.pesBeforePAT)
    if expectPESBeforePAT { #expect(report.pesBeforePAT > 0) }
    let gate = try #require(report.firstPATOffset)
    // Every stream ffprobe knows is reported, with the same codec family.
    let reported = Set(report.video.map(\.pid) + report.audio.map(\.pid))
    for (pid, stream) in probe.streams where probe.packets.contains(where: { $0.pid == pid }) {
      #expect(
        reported.contains(pid),
        Comment(rawValue: "PID \(pid) (\(stream.codec)) missing from the report"))
    }
    for v in report.video {
      let family: [StreamCodec: String] = [.h264: "h264", .hevc: "hevc", .mpeg2Video: "mpeg2video"]
      #expect(family[v.codec] == probe.streams[v.pid]?.codec)
      let first = TSOracle.firstPES(probe, pid: v.pid, gate: gate)
      #expect(v.firstPTS == TSOracle.raw(first?.pts), "first video PTS")
      #expect(v.firstPTSOffset == first?.pos)
      let key = TSOracle.firstPES(probe, pid: v.pid, gate: gate, keyOnly: true)
      // ffprobe flags every IRAP (HEVC CRA too) as a keyframe: compare with the earlier of IDR and CRA.
      var ours: (pts: UInt64?, offset: Int64?) = (v.firstIDRPTS, v.firstIDROffset)
      if let cra = v.firstCRAOffset, cra < (v.firstIDROffset ?? .max) {
        ours = (v.firstCRAPTS, cra)
      }
      #expect(ours.pts == TSOracle.raw(key?.pts), "first keyframe PTS")
      #expect(ours.offset == key?.pos)
      if let f = TSOracle.raw(first?.pts), let k = TSOracle.raw(key?.pts),
        v.firstIDROffset == key?.pos
      {
        let gap = Double((k &- f) & ((1 << 33) - 1)) / 90_000
        #expect(abs((v.preIDRGapSeconds ?? -1) - gap) < 1e-9)
      }
    }
    for a in report.audio {
      let first = TSOracle.firstPES(probe, pid: a.pid, gate: gate)
      #expect(a.firstPTS == TSOracle.raw(first?.pts), "first audio PTS on \(a.pid)")
      #expect(a.firstPTSOffset == first?.pos)
    }
  }

  @Test(
    "generated streams, whole and cut", .enabled(if: ready, Comment(rawValue: notReady)),
    arguments: streams, Cut.allCases)
  func generated(name: String, cut: Cut) throws {
    let path = Fixtures.generated("ts/\(name)")
    let unit = name.hasSuffix(".m2ts") ? 192 : 188
    let data = try TSOracle.bytes(path)
    switch cut {
    case .whole:
      try Self.check(path: path, unit: unit)
    case .midPacket:
      let dir = try TemporaryDirectory()
      let cutAt = (data.count * 2 / 5) / unit * unit + 77
      let file = dir.file(name)
      try TSOracle.write(Array(data[cutAt...]), to: file)
      try Self.check(path: file, unit: unit, walkStart: unit - 77)
    case .beforePAT:
      let walk = TSOracle.walk(data, unit: unit)
      // A PAT past 30% of the file with PES starts between it and the packet after the previous PAT's PMT.
      var cutAt: Int64?
      for (i, pat) in walk.patOffsets.enumerated() where i > 0 && pat > Int64(data.count) * 3 / 10 {
        let previous = walk.patOffsets[i - 1] + Int64(2 * unit)
        if let pes = walk.pesStarts.first(where: { $0.offset > previous && $0.offset < pat }) {
          cutAt = pes.offset
          break
        }
      }
      let at = try #require(cutAt)
      let dir = try TemporaryDirectory()
      let file = dir.file(name)
      try TSOracle.write(Array(data[Int(at)...]), to: file)
      try Self.check(path: file, unit: unit, expectPESBeforePAT: true)
    }
  }

  @Test(
    "PTS wrap: the first PES is before 2^33, the IDR after it",
    .enabled(if: ready, Comment(rawValue: notReady)))
  func wrap() throws {
    let path = Fixtures.generated("ts/wrap-h264-ac3.ts")
    let data = try TSOracle.bytes(path)
    let probe = try TSOracle.probe(path)
    // Cut at the PES start of the last non-key video frame before the first keyframe after the wrap.
    let video = probe.packets.filter { $0.pid == 256 && $0.pos != nil }
    let wrapKey = try #require(video.first { $0.key && ($0.pts ?? -1) >= 0 && $0.pos ?? 0 > 0 })
    let before = try #require(
      video.last { ($0.pos ?? 0) < (wrapKey.pos ?? 0) && ($0.pts ?? 0) < 0 })
    // Start one PAT period earlier so the cut file has a PAT before `before`.
    let walk = TSOracle.walk(data, unit: 188)
    let pat = try #require(walk.patOffsets.last { $0 < (before.pos ?? 0) })
    let dir = try TemporaryDirectory()
    let file = dir.file("wrap.ts")
    try TSOracle.write(Array(data[Int(pat)...]), to: file)
    let report = try TSOracle.scan(file)
    let v = try #require(report.video.first)
    let first = try #require(v.firstPTS)
    let idr = try #require(v.firstIDRPTS)
    #expect(first > idr, "the first PTS lies before the wrap, the IDR after it")
    #expect((v.preIDRGapSeconds ?? -1) > 0 && (v.preIDRGapSeconds ?? 100) < 2)
    try Self.check(path: file, unit: 188)
  }

  @Test(
    "real samples",
    .enabled(
      if: Fixtures.hasRealData && Tool.has("ffprobe"), Comment(rawValue: Fixtures.realDataMissing)))
  func realSamples() throws {
    for name in [
      "ts/gomediainfo_sample_h264_aac.ts", "ts/tsduck_test-064_h264_mp2.ts",
      "ts/tsduck_test-100.1_hevc.ts",
      "ts/tsduck_test-139_hdmv_mpeg2_dtshdma.ts", "ts/tsduck_test-151_h264_aac_eac3.ts",
    ] {
      try Self.check(path: Fixtures.real(name), unit: 188)
    }
  }

  @Test(
    "real AVCHD head (7 BDAV packets): PAT, PMT, H.264 and AC-3 PES starts",
    .enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)))
  func avchd() throws {
    let path = Fixtures.real("m2ts/exiftool_M2TS.mts")
    let report = try TSOracle.scan(path)
    let walk = TSOracle.walk(try TSOracle.bytes(path), unit: 192)
    #expect(report.packetSize == 192)
    #expect(report.firstPATOffset == walk.firstPATOffset)
    #expect(report.video.map(\.pid) == [0x1011])
    #expect(report.audio.map(\.pid) == [0x1100])
    #expect(report.audio.first?.codec == .ac3)
    // Each PES start in the walk is the first PTS offset of its PID.
    for v in report.video {
      #expect(v.firstPTSOffset == walk.pesStarts.first { $0.pid == v.pid }?.offset)
    }
    for a in report.audio {
      #expect(a.firstPTSOffset == walk.pesStarts.first { $0.pid == a.pid }?.offset)
    }
  }
}
