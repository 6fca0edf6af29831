import DiscKitTestSupport
import Foundation
import Testing

/// The transcoded audio renditions of the fMP4 HLS (issue 28; `disckit serve` supplies
/// DiscKitTranscode's libavcodec transcoder): a stereo AAC rendition of every audio stream and
/// a lossless FLAC rendition of every TrueHD and DTS stream, judged by ffprobe (codec, profile,
/// channels, sample rate), by ffmpeg's own decode of the disc's streams (FLAC: the same samples,
/// over segment joins; AAC: the same burst onsets, within one video frame of the video, and the
/// same end) on the authored codec discs (make-codecs.sh: `audio-long` has three segments).
@Suite(
  "disckit serve AAC and FLAC renditions", .serialized,
  .enabled(
    if: ServerProcess.haveBinary && Curl.available && Tool.has("ffmpeg") && Tool.has("ffprobe")
      && FileManager.default.fileExists(atPath: Fixtures.generated("codecs/audio-long/BDMV")),
    "needs disckit-serve, curl, ffmpeg, ffprobe and the make-codecs.sh output"), .toolThreads)
struct ServerAudioRenditionTests {
  /// Served name → (PID, the disc stream's `-map` in `stream.ts`) of each TrueHD/DTS stream.
  static let lossless: [String: [(pid: Int, map: String)]] = [
    "audio-long": [(0x1100, "0:a:0"), (0x1101, "0:a:2")],
    "truehd": [(0x1100, "0:a:0")],
    "dts": [(0x1100, "0:a:0")],
  ]

  static func root() throws -> TemporaryDirectory {
    let dir = try TemporaryDirectory("disckit-serve-audio")
    for name in ["audio-long", "truehd", "dts", "ac3"] {
      try FileManager.default.copyItem(
        atPath: Fixtures.generated("codecs/" + name), toPath: dir.path + "/" + name)
    }
    return dir
  }

  /// ffprobe's fields of a playlist's first audio stream.
  static func probe(_ url: String) throws -> [String: String] {
    let run = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "a:0", "-show_entries",
        "stream=codec_name,profile,channels,sample_rate", "-of", "default=noprint_wrappers=1", url,
      ])
    var fields: [String: String] = [:]
    for line in run.text.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      if parts.count == 2 { fields[parts[0]] = parts[1] }
    }
    return fields
  }

  /// The rendition at `uri` is stereo AAC-LC at 48 kHz (ffprobe) and decodes without a warning
  /// (`ffmpeg -v warning ... -f null -` prints nothing).
  static func expectStereoAAC(_ uri: String, _ what: String) throws {
    let fields = try probe(uri)
    #expect(
      fields["codec_name"] == "aac" && fields["profile"] == "LC" && fields["channels"] == "2"
        && fields["sample_rate"] == "48000", "\(what): \(fields)")
    let run = try Tool.run(
      "ffmpeg", ["-nostdin", "-hide_banner", "-v", "warning", "-i", uri, "-f", "null", "-"])
    #expect(run.status == 0 && run.stderr.isEmpty, "\(what): \(run.stderr)")
  }

  static func decoded(_ url: String, _ map: String, _ options: [String]) throws -> Data {
    try Tool.run(
      "ffmpeg",
      ["-nostdin", "-v", "error"] + options + ["-i", url, "-map", map] + ["-f", "s32le", "-"]
    ).stdout
  }

  /// The FLAC renditions decode to the samples ffmpeg decodes from the disc's TrueHD and DTS
  /// (DTS in libavcodec's bit-exact mode, as the transcoder decodes it), across segment joins.
  @Test func flacHoldsTheDecodedSamples() throws {
    let dir = try Self.root()
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    for (name, streams) in Self.lossless.sorted(by: { $0.key < $1.key }) {
      let base = server.base + "/discs/\(try ServerFixture.id(server, name))/titles/00000/"
      let master = try ServerFMP4HLSTests.text(base + "master.m3u8")
      for stream in streams {
        let uri = "fmp4/flac-\(stream.pid).m3u8"
        #expect(master.contains("URI=\"\(uri)\""), "\(name): \(master)")
        let fields = try Self.probe(base + uri)
        #expect(fields["codec_name"] == "flac", "\(name) \(uri): \(fields)")
        #expect(fields["channels"] == "6" && fields["sample_rate"] == "48000", "\(name): \(fields)")
        let flac = try Self.decoded(base + uri, "0:a:0", [])
        let disc = try Self.decoded(base + "stream.ts", stream.map, ["-flags", "+bitexact"])
        #expect(
          !flac.isEmpty && flac == disc, "\(name) \(uri): \(flac.count) vs \(disc.count) bytes")
      }
    }
  }

  /// A clip join inside a FLAC segment (`truehd-joins`: three 2 s TrueHD encodes played by one
  /// title, each clip's audio ending about 2 ms before its video): decoded with each frame placed
  /// at its time (ffmpeg's `aresample` filling every gap and trimming every overlap of over 5
  /// samples that the timestamps show), the FLAC rendition gives the samples ffmpeg decodes
  /// from the title's TrueHD (`stream.ts`) placed the same way: the frames after each join sit
  /// where the title's timeline has them, not back to back with the ones before. (Back to back,
  /// as a plain decode lays them, the disc's samples are not those: the joins have gaps.)
  @Test func flacKeepsTheTimelineAcrossClipJoins() throws {
    let dir = try TemporaryDirectory("disckit-serve-flac-joins")
    try FileManager.default.copyItem(
      atPath: Fixtures.generated("codecs/truehd-joins"), toPath: dir.path + "/truehd-joins")
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    let base = server.base + "/discs/\(try ServerFixture.id(server, "truehd-joins"))/titles/00000/"
    let uri = "fmp4/flac-4352.m3u8"
    #expect(try ServerFMP4HLSTests.text(base + "master.m3u8").contains("URI=\"\(uri)\""))
    let placed = ["-af", "aresample=async=1:min_hard_comp=0.0001"]
    func decoded(_ url: String, _ map: String, _ filter: [String]) throws -> Data {
      try Tool.run(
        "ffmpeg", ["-nostdin", "-v", "error", "-i", url, "-map", map] + filter + ["-f", "s32le", "-"]
      ).stdout
    }
    let flac = try decoded(base + uri, "0:a:0", placed)
    let disc = try decoded(base + "stream.ts", "0:a:0", placed)
    #expect(!flac.isEmpty && flac == disc, "\(flac.count) vs \(disc.count) bytes")
    #expect(try decoded(base + "stream.ts", "0:a:0", []) != disc, "the joins have no gap")
  }

  /// The first PTS (seconds) of a stream of `url`.
  static func firstTime(_ url: String, _ stream: String) throws -> Double {
    let run = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time",
        "-read_intervals", "%+#1", "-of", "csv=p=0", url,
      ])
    return try #require(Double(run.text.split(whereSeparator: { $0 == "\n" || $0 == "," }).first ?? ""), "\(url) \(stream)")
  }

  /// Mono 48 kHz samples of a stream, and the sample index where each burst (|x| > 0.12 after
  /// at least half a second without one) starts.
  static func onsets(_ url: String, _ map: String) throws -> (onsets: [Int], count: Int) {
    let data = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-v", "error", "-i", url, "-map", map, "-ac", "1", "-ar", "48000", "-f",
        "f32le", "-",
      ]
    ).stdout
    let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    var onsets: [Int] = []
    var i = 0
    while i < samples.count {
      if abs(samples[i]) > 0.12 {
        onsets.append(i)
        i += 24_000
      } else {
        i += 1
      }
    }
    return (onsets, samples.count)
  }

  /// Every AAC rendition (of TrueHD, DTS and AC-3): LC, stereo, 48 kHz; each burst starts
  /// where the disc's own decode has it, relative to the first video frame, within one video
  /// frame (measured: the same sample), in every segment; the rendition ends where the disc's
  /// audio does (within a frame); ffmpeg decodes it without a warning.
  @Test func aacIsInSyncWithTheVideo() throws {
    let dir = try Self.root()
    let server = try ServerProcess(root: dir.path, ["--quiet"])
    let base =
      server.base + "/discs/\(try ServerFixture.id(server, "audio-long"))/titles/00000/"
    let frame = 1001.0 / 24000
    let videoHLS = try Self.firstTime(base + "fmp4/video.m3u8", "v:0")
    let videoDisc = try Self.firstTime(base + "stream.ts", "v:0")
    for (pid, map) in [(0x1100, "0:a:0"), (0x1101, "0:a:2"), (0x1102, "0:a:3")] {
      let uri = base + "fmp4/aac-\(pid).m3u8"
      try Self.expectStereoAAC(uri, "\(pid)")
      let hls = try Self.onsets(uri, "0:a:0")
      let disc = try Self.onsets(base + "stream.ts", map)
      let hlsStart = try Self.firstTime(uri, "a:0") - videoHLS
      let discStart = try Self.firstTime(base + "stream.ts", String(map.dropFirst(2))) - videoDisc
      #expect(hls.onsets.count == 16 && disc.onsets.count == 16, "\(pid): \(hls) \(disc)")
      for (ours, theirs) in zip(hls.onsets, disc.onsets) {
        let a = hlsStart + Double(ours) / 48_000
        let b = discStart + Double(theirs) / 48_000
        #expect(abs(a - b) < frame, "\(pid): burst at \(b) s plays at \(a) s")
      }
      let hlsEnd = hlsStart + Double(hls.count) / 48_000
      let discEnd = discStart + Double(disc.count) / 48_000
      #expect(
        abs(hlsEnd - discEnd) < frame, "\(pid): ends at \(hlsEnd) s, the disc's at \(discEnd) s")
    }
  }
}
