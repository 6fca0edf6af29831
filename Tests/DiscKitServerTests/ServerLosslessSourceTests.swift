import DiscKitTestSupport
import Foundation
import Testing

/// DTS-HD Master Audio and LPCM through `disckit serve`'s fMP4 HLS end to end (issue 28), on
/// Blu-ray discs authored at test time beside an H.264 video:
/// - `dtshdma`: the real DTS-HD MA stream of `ts/tsduck_test-139_hdmv_mpeg2_dtshdma.ts` (PID
///   0x1100 of a broadcast-captured Blu-ray transport stream, 8 frames; see the corpus's
///   SOURCES.md), copied out by ffmpeg, its frames repeated 160 times (13.7 s, three HLS
///   segments), muxed by ffmpeg beside a generated H.264 video and the PMT's stream type set to
///   0x86 (DTS-HD MA, as a Blu-ray has it; ffmpeg's muxer writes 0x82);
/// - `lpcm-long`: ffmpeg's `pcm_bluray`, 5.1 24-bit and stereo 16-bit, 16 s.
///
/// Oracles: the FLAC renditions (libavcodec's FLAC of the DTS-HD MA decode; DiscKit's own
/// FLAC of LPCM) decode to the samples ffmpeg decodes from the disc's own stream (`stream.ts`),
/// across segment joins, and those are the real stream's samples repeated; the AAC renditions
/// are AAC-LC stereo 48 kHz that `ffmpeg -v warning` reads without a word; each rendition's
/// segments chain (`tfdt`) and `EXTINF` is their samples' duration.
@Suite(
  "disckit serve DTS-HD MA and LPCM renditions", .serialized,
  .enabled(
    if: ServerProcess.haveBinary && Curl.available && Tool.has("ffmpeg") && Tool.has("ffprobe"),
    "needs disckit-serve, curl, ffmpeg and ffprobe"), .toolThreads)
struct ServerLosslessSourceTests {
  static let realDTSHDMA = Fixtures.real("ts/tsduck_test-139_hdmv_mpeg2_dtshdma.ts")
  static let repeats = 160

  /// Runs ffmpeg, failing the test with its message.
  static func ffmpeg(_ arguments: [String]) throws {
    let run = try Tool.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments)
    try #require(run.status == 0, "ffmpeg \(arguments.joined(separator: " ")): \(run.stderr)")
  }

  static func author(_ clip: String, _ folder: String) throws {
    let run = try ServerFixture.disckit(["author", "--clips", clip, "--folder", folder])
    try #require(run.status == 0, "disckit author: \(run.stderr)")
  }

  /// Sets the PMT's stream type of `pid` to `type` in a stream of 192-byte packets (the
  /// section's CRC-32 recomputed); the number of entries changed.
  static func setStreamType(_ data: inout Data, pid: Int, from: UInt8, to type: UInt8) -> Int {
    var changed = 0
    var bytes = [UInt8](data)
    var p = 0
    while p + 192 <= bytes.count {
      let ts = p + 4
      defer { p += 192 }
      guard bytes[ts] == 0x47, bytes[ts + 1] & 0x40 != 0, bytes[ts + 3] & 0x10 != 0 else {
        continue
      }
      var start = ts + 4
      if bytes[ts + 3] & 0x20 != 0 { start += 1 + Int(bytes[ts + 4]) }
      guard start < ts + 188 else { continue }
      let section = start + 1 + Int(bytes[start])
      guard section + 12 < ts + 188, bytes[section] == 0x02 else { continue }
      let length = Int(bytes[section + 1] & 0x0F) << 8 | Int(bytes[section + 2])
      let end = section + 3 + length
      guard end <= ts + 188, length >= 13 else { continue }
      let programInfo = Int(bytes[section + 10] & 0x0F) << 8 | Int(bytes[section + 11])
      var e = section + 12 + programInfo
      while e + 5 <= end - 4 {
        let esPID = Int(bytes[e + 1] & 0x1F) << 8 | Int(bytes[e + 2])
        if esPID == pid, bytes[e] == from {
          bytes[e] = type
          changed += 1
        }
        e += 5 + (Int(bytes[e + 3] & 0x0F) << 8 | Int(bytes[e + 4]))
      }
      let crc = crc32MPEG2(bytes[section..<(end - 4)])
      for k in 0..<4 { bytes[end - 4 + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
    }
    data = Data(bytes)
    return changed
  }

  /// CRC-32/MPEG-2 (ISO/IEC 13818-1 Annex A): polynomial 0x04C11DB7, initial all ones, no
  /// reflection, no final XOR.
  static func crc32MPEG2(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte) << 24
      for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
    }
    return crc
  }

  /// The served root: `dtshdma/` (when the real stream is present) and `lpcm-long/`.
  static func root(dts: Bool = true) throws -> (TemporaryDirectory, elementary: Data?) {
    let dir = try TemporaryDirectory("disckit-serve-lossless")
    let work = dir.path + "/work"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let video = [
      "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=24000/1001:duration=16",
    ]
    let h264 = [
      "-c:v", "libx264", "-preset", "ultrafast", "-threads", "1", "-pix_fmt", "yuv420p", "-g", "24",
    ]
    let m2ts = ["-mpegts_m2ts_mode", "1", "-fflags", "+bitexact"]
    var elementary: Data?
    if dts, FileManager.default.fileExists(atPath: realDTSHDMA) {
      try ffmpeg(["-i", realDTSHDMA, "-map", "0:a:0", "-c", "copy", "-f", "dts", work + "/one.dts"])
      let one = try Data(contentsOf: URL(fileURLWithPath: work + "/one.dts"))
      try #require(!one.isEmpty)
      var looped = Data()
      for _ in 0..<repeats { looped.append(one) }
      try looped.write(to: URL(fileURLWithPath: work + "/loop.dts"))
      try ffmpeg(
        ["-threads", "1"] + video + ["-i", work + "/loop.dts", "-map", "0:v", "-map", "1:a"]
          + h264 + ["-shortest", "-c:a", "copy", "-metadata:s:a:0", "language=eng"] + m2ts
          + [work + "/dts-plain.m2ts"])
      var clip = try Data(contentsOf: URL(fileURLWithPath: work + "/dts-plain.m2ts"))
      let changed = setStreamType(&clip, pid: 0x1100, from: 0x82, to: 0x86)
      try #require(changed > 0, "no PMT entry of 0x1100 with stream type 0x82")
      try clip.write(to: URL(fileURLWithPath: work + "/dtshdma.m2ts"))
      try author(work + "/dtshdma.m2ts", dir.path + "/dtshdma")
      // What the muxed stream decodes to (its frames carry decoder state from one to the next:
      // a repetition after the first decodes to other low bits).
      elementary = try pcm(work + "/loop.dts", "0:a:0", ["-flags", "+bitexact"])
    }
    try ffmpeg(
      ["-threads", "1"] + video + [
        "-f", "lavfi", "-i",
        "aevalsrc=if(lt(mod(t\\,1)\\,0.1)\\,0.5*sin(2*PI*1000*t)\\,0.05*sin(2*PI*300*t)):s=48000:d=16",
        "-map", "0:v", "-map", "1:a", "-map", "1:a",
      ] + h264 + [
        "-c:a:0", "pcm_bluray", "-sample_fmt:a:0", "s32", "-ac:a:0", "6",
        "-c:a:1", "pcm_bluray", "-sample_fmt:a:1", "s16", "-ac:a:1", "2",
        "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra",
      ] + m2ts + [work + "/lpcm-long.m2ts"])
    try author(work + "/lpcm-long.m2ts", dir.path + "/lpcm-long")
    try FileManager.default.removeItem(atPath: work)
    return (dir, elementary)
  }

  /// The PCM ffmpeg decodes from `url`'s stream `map`, as signed 32-bit samples.
  static func pcm(_ url: String, _ map: String, _ options: [String] = []) throws -> Data {
    try Tool.run(
      "ffmpeg", ["-nostdin", "-v", "error"] + options + ["-i", url, "-map", map, "-f", "s32le", "-"]
    ).stdout
  }

  /// Checks one rendition's media playlist: its segments chain by `tfdt`, `EXTINF` is each
  /// segment's samples' duration (and at most the target + 0.5 s), the sequence numbers count
  /// from 1.
  static func checkChain(_ base: String, _ uri: String, _ what: String) throws {
    let playlist = ServerFMP4HLSTests.media(try ServerFMP4HLSTests.text(base + uri))
    let folder = (uri as NSString).deletingLastPathComponent
    #expect(playlist.segments.count >= 3, "\(what): \(playlist.segments.count) segments")
    var expected: UInt64?
    for (k, (duration, segment)) in playlist.segments.enumerated() {
      let bytes = try ServerFMP4HLSTests.bytes(base + folder + "/" + segment)
      let fragment = try #require(MP4Fragment(bytes), "\(what) \(segment)")
      #expect(fragment.sequence == k + 1, "\(what) \(segment)")
      if let expected { #expect(fragment.decodeTime == expected, "\(what) \(segment): tfdt") }
      let total = fragment.duration
      expected = fragment.decodeTime + UInt64(total)
      #expect(
        abs(Double(total) / 90_000 - duration) < 0.000_01,
        "\(what) \(segment): EXTINF \(duration), samples \(Double(total) / 90_000)")
      #expect(duration <= playlist.target + 0.5, "\(what) \(segment)")
    }
  }

  /// ffprobe's codec fields of a playlist's first audio stream.
  static func probe(_ url: String) throws -> [String: String] {
    try ServerAudioRenditionTests.probe(url)
  }

  /// The DTS-HD MA stream: the disc lists it as DTS-HD MA; its FLAC rendition (6 channels, 24
  /// bits, 48 kHz) decodes to ffmpeg's decode of the disc's stream over every segment join,
  /// which is the real stream's own decode repeated; its AAC rendition plays without a
  /// warning; both chain and carry their own durations.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: realDTSHDMA),
    "the real DTS-HD MA stream (../shared/realdata ts/tsduck_test-139_hdmv_mpeg2_dtshdma.ts) is absent: skipped"))
  func dtsHDMasterAudio() throws {
    let (dir, decoded) = try Self.root()
    let elementary = try #require(decoded)
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    let base = server.base + "/discs/\(try ServerFixture.id(server, "dtshdma"))/titles/00000/"
    let master = try ServerFMP4HLSTests.text(base + "master.m3u8")
    #expect(master.contains("NAME=\"eng FLAC 5.1 (DTS-HD MA)\""), "\(master)")
    let flacURI = base + "fmp4/flac-4352.m3u8"
    let fields = try Self.probe(flacURI)
    #expect(
      fields["codec_name"] == "flac" && fields["channels"] == "6"
        && fields["sample_rate"] == "48000", "\(fields)")
    let flac = try Self.pcm(flacURI, "0:a:0")
    let disc = try Self.pcm(base + "stream.ts", "0:a:0", ["-flags", "+bitexact"])
    let real = try Self.pcm(Self.realDTSHDMA, "0:a:0", ["-flags", "+bitexact"])
    // The real stream's 8 frames of 512 samples, 6 channels, decode to 24-bit values (not
    // silence); the disc holds its 160 repetitions, the first decoding as the real stream does.
    // (Data compared to a Bool first: a failed #expect on megabytes would diff them.)
    #expect(real.count == 8 * 512 * 6 * 4)
    #expect(real.contains { $0 != 0 })
    let discHoldsTheStream = disc == elementary && disc.prefix(real.count) == real
    #expect(discHoldsTheStream, "the disc's DTS-HD MA: \(disc.count) bytes decoded")
    let flacIsTheDisc = !flac.isEmpty && flac == disc
    #expect(flacIsTheDisc, "FLAC \(flac.count) vs the disc's \(disc.count) bytes")

    let aacURI = base + "fmp4/aac-4352.m3u8"
    try ServerAudioRenditionTests.expectStereoAAC(aacURI, "dtshdma AAC")
    try Self.checkChain(base, "fmp4/flac-4352.m3u8", "dtshdma FLAC")
    try Self.checkChain(base, "fmp4/aac-4352.m3u8", "dtshdma AAC")
  }

  /// LPCM 5.1 24-bit and stereo 16-bit: the FLAC renditions (DiscKit's, `audio-PID`) decode to
  /// ffmpeg's decode of the disc's LPCM over every join; the AAC renditions (libavcodec's, of
  /// the same stream) play without a warning; every rendition chains and carries its own
  /// durations.
  @Test func lpcm() throws {
    let (dir, _) = try Self.root(dts: false)
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    let base = server.base + "/discs/\(try ServerFixture.id(server, "lpcm-long"))/titles/00000/"
    let master = try ServerFMP4HLSTests.text(base + "master.m3u8")
    for (pid, map, channels) in [(4352, "0:a:0", "6"), (4353, "0:a:1", "2")] {
      let flacURI = base + "fmp4/audio-\(pid).m3u8"
      #expect(master.contains("URI=\"fmp4/audio-\(pid).m3u8\""), "\(master)")
      let fields = try Self.probe(flacURI)
      #expect(
        fields["codec_name"] == "flac" && fields["channels"] == channels
          && fields["sample_rate"] == "48000", "\(pid): \(fields)")
      let flac = try Self.pcm(flacURI, "0:a:0")
      let disc = try Self.pcm(base + "stream.ts", map)
      let same = !flac.isEmpty && flac == disc
      #expect(same, "\(pid): FLAC \(flac.count) vs \(disc.count) bytes")

      let aacURI = base + "fmp4/aac-\(pid).m3u8"
      #expect(master.contains("URI=\"fmp4/aac-\(pid).m3u8\""), "\(master)")
      let aac = try Self.probe(aacURI)
      #expect(
        aac["codec_name"] == "aac" && aac["channels"] == "2" && aac["sample_rate"] == "48000",
        "\(pid): \(aac)")
      let run = try Tool.run(
        "ffmpeg", ["-nostdin", "-hide_banner", "-v", "warning", "-i", aacURI, "-f", "null", "-"])
      #expect(run.status == 0 && run.stderr.isEmpty, "\(pid): \(run.stderr)")
      try Self.checkChain(base, "fmp4/audio-\(pid).m3u8", "lpcm \(pid) FLAC")
      try Self.checkChain(base, "fmp4/aac-\(pid).m3u8", "lpcm \(pid) AAC")
    }
  }
}
