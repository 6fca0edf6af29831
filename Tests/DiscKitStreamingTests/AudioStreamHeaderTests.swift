import DiscKitStreaming
import DiscKitTestSupport
import Foundation
import Testing

/// The audio formats the fMP4 HLS plan reads from the streams' headers (issue 28: the AAC and
/// FLAC renditions described without loading libavcodec) against what libavcodec's decoders
/// give: `ffprobe -flags +bitexact -show_streams` (the transcoder's DTS decoder runs bit-exact)
/// on every audio stream of the generated discs and clips and of the real transport-stream
/// samples: channels, `channel_layout`, `sample_rate`, `sample_fmt` and `bits_per_raw_sample`.
/// The payloads are the stream's first PES packets, read from the file by the test's own demuxer
/// (a TrueHD PID's AC-3 core packets left out, as the plan does).
@Suite(
  "Audio stream headers against ffprobe", .toolThreads,
  .enabled(if: Tool.has("ffprobe"), "needs ffprobe"))
struct AudioStreamHeaderTests {
  /// ffprobe's view of one audio stream.
  struct Probed {
    var pid: UInt16
    var codec: String
    var sampleFormat: String
    var sampleRate: Int
    var channels: Int
    var layout: String
    var rawBits: Int
    var profile: String
  }

  static func probe(_ path: String) throws -> [Probed] {
    let run = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-flags", "+bitexact", "-select_streams", "a", "-show_entries",
        "stream=id,codec_name,profile,sample_fmt,sample_rate,channels,channel_layout,bits_per_raw_sample",
        "-of", "json", path,
      ])
    #expect(run.status == 0, "\(path): \(run.stderr)")
    let object = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
    let streams = object?["streams"] as? [[String: Any]] ?? []
    return streams.compactMap { s in
      guard let id = s["id"] as? String, let pid = UInt16(id.dropFirst(2), radix: 16),
        let codec = s["codec_name"] as? String
      else { return nil }
      return Probed(
        pid: pid, codec: codec, sampleFormat: s["sample_fmt"] as? String ?? "",
        sampleRate: Int(s["sample_rate"] as? String ?? "") ?? 0,
        channels: s["channels"] as? Int ?? 0, layout: s["channel_layout"] as? String ?? "",
        rawBits: Int(s["bits_per_raw_sample"] as? String ?? "") ?? 0,
        profile: s["profile"] as? String ?? "")
    }
  }

  /// The payloads of the first `limit` PES packets of `pid` in a 188- or 192-byte transport
  /// stream file.
  static func payloads(_ bytes: [UInt8], pid: UInt16, limit: Int = 256) -> [[UInt8]] {
    var size = 188
    var lead = 0
    if bytes.count >= 196, bytes[4] == 0x47, bytes[196] == 0x47 {
      (size, lead) = (192, 4)
    }
    var out: [[UInt8]] = []
    var current: [UInt8]?
    func close() {
      guard let pes = current, pes.count >= 9, pes[0] == 0, pes[1] == 0, pes[2] == 1 else { return }
      let start = 9 + Int(pes[8])
      if start <= pes.count { out.append(Array(pes[start...])) }
    }
    var p = lead
    while p + 188 <= bytes.count, out.count < limit {
      defer { p += size }
      guard bytes[p] == 0x47,
        UInt16(bytes[p + 1] & 0x1F) << 8 | UInt16(bytes[p + 2]) == pid,
        bytes[p + 3] & 0x10 != 0
      else { continue }
      var q = p + 4
      if bytes[p + 3] & 0x20 != 0 { q += 1 + Int(bytes[p + 4]) }
      guard q < p + 188 else { continue }
      if bytes[p + 1] & 0x40 != 0 {
        close()
        current = Array(bytes[q..<(p + 188)])
      } else if current != nil {
        current?.append(contentsOf: bytes[q..<(p + 188)])
      }
    }
    if out.count < limit { close() }
    return out
  }

  static func source(_ codec: String) -> AudioTranscodeSource? {
    switch codec {
    case "truehd": .truehd
    case "dts": .dts
    case "pcm_bluray": .lpcm
    case "ac3": .ac3
    case "eac3": .eac3
    default: nil
    }
  }

  /// Every transport-stream file of the generated images and of the real samples.
  static func files() -> [String] {
    var out: [String] = []
    for directory in ["codecs", "ts"] {
      let root = Fixtures.generated(directory)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
      for name in names.sorted() where name.hasSuffix(".ts") || name.hasSuffix(".m2ts") {
        out.append(root + "/" + name)
      }
    }
    out += Fixtures.realFiles(under: "ts", withSuffixes: [".ts"])
    out += Fixtures.realFiles(under: "m2ts", withSuffixes: [".m2ts", ".mts"])
    return out
  }

  @Test func headersGiveWhatTheDecoderGives() throws {
    let files = Self.files()
    try #require(!files.isEmpty, "no generated clips (make images) and no real samples")
    var compared: [String: Int] = [:]
    var undecoded: [String] = []
    for path in files {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      let probed = try Self.probe(path)
      let trueHDPIDs = Set(probed.filter { $0.codec == "truehd" }.map(\.pid))
      for stream in probed {
        guard let source = Self.source(stream.codec) else { continue }
        // A TrueHD PID's AC-3 core is the copied rendition (ffprobe lists it as a second
        // stream of the PID).
        if source == .ac3, trueHDPIDs.contains(stream.pid) { continue }
        let name =
          "\(URL(fileURLWithPath: path).lastPathComponent) PID \(stream.pid) \(stream.codec)"
        // A stream ffprobe's decoder gave nothing for (a truncated sample): nothing to compare.
        guard stream.sampleRate > 0, stream.channels > 0 else {
          undecoded.append(name)
          continue
        }
        var payloads = Self.payloads(bytes, pid: stream.pid)
        if source == .truehd {
          payloads.removeAll { $0.count >= 2 && $0[0] == 0x0B && $0[1] == 0x77 }
        }
        let header = AudioStreamHeader.parse(source, payloads: payloads.map { $0[...] })
        guard let header else {
          Issue.record("\(name): no header read (ffprobe: \(stream))")
          continue
        }
        #expect(header.sampleRate == stream.sampleRate, "\(name)")
        #expect(header.channels == stream.channels, "\(name)")
        #expect(header.layoutName == stream.layout, "\(name)")
        #expect(header.sampleFormat == stream.sampleFormat, "\(name)")
        #expect(header.bitsPerRawSample == stream.rawBits, "\(name)")
        compared[stream.codec, default: 0] += 1
        if stream.profile == "DTS-HD MA" {
          // The same from the extension substreams alone (a PES of their own, or what follows
          // the core frame in its PES): the lossless asset's description gives it too.
          let substreams = payloads.compactMap { p -> ArraySlice<UInt8>? in
            guard p.count > 8 else { return nil }
            if p[0] == 0x64, p[1] == 0x58, p[2] == 0x20, p[3] == 0x25 { return p[...] }
            guard p[0] == 0x7F, p[1] == 0xFE, p[2] == 0x80, p[3] == 0x01 else { return nil }
            let core = (Int(p[5] & 0x03) << 12 | Int(p[6]) << 4 | Int(p[7] >> 4)) + 1
            return core < p.count ? p[core...] : nil
          }
          #expect(!substreams.isEmpty, "\(name): no extension substream after the core")
          #expect(AudioStreamHeader.parse(.dts, payloads: substreams) == header, "\(name)")
          compared["DTS-HD MA", default: 0] += 1
        }
      }
    }
    print(
      "audio stream headers compared: \(compared.sorted { $0.key < $1.key }); not decoded by ffprobe either: \(undecoded)"
    )
    // Every coding the generated images carry was compared (make-codecs.sh, make-ts.sh).
    if FileManager.default.fileExists(atPath: Fixtures.generated("codecs/truehd.m2ts")) {
      for codec in ["truehd", "dts", "pcm_bluray", "ac3", "eac3"] {
        #expect(compared[codec, default: 0] > 0, "no \(codec) stream compared")
      }
    }
    if Fixtures.hasRealData {
      // The real DTS-HD MA stream (tsduck test 139) and E-AC-3 44.1 kHz (tsduck test 151).
      #expect(compared["DTS-HD MA", default: 0] >= 1 && compared["eac3", default: 0] >= 2)
    }
  }

  /// A header the parser does not describe gives nil (the plan then asks the decoder), never a
  /// guess: an E-AC-3 dependent substream, a DTS core with an extension (XCH) flag.
  @Test func undescribedLayoutsAreLeftToTheDecoder() throws {
    let path = Fixtures.generated("codecs/dts.m2ts")
    try #require(FileManager.default.fileExists(atPath: path), "make images")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let pid = try #require(try Self.probe(path).first { $0.codec == "dts" }?.pid)
    var payload = try #require(Self.payloads(bytes, pid: pid, limit: 1).first)
    #expect(AudioStreamHeader.parse(.dts, payloads: [payload[...]]) != nil)
    // EXT_AUDIO (bit 83 of the core header) set.
    payload[10] |= 0x10
    #expect(AudioStreamHeader.parse(.dts, payloads: [payload[...]]) == nil)
  }
}
