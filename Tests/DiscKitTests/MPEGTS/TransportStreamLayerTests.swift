@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The transport-stream layer on its own: CRC, time stamps, packet sizes, PMT, access points.
@Suite("Transport stream layer", .toolThreads)
struct TransportStreamLayerTests {
  static let ready =
    Tool.has("ffprobe")
    && FileManager.default.fileExists(atPath: Fixtures.generated("ts/h264-ac3.ts"))
  static let notReady = Comment(rawValue: "needs ffprobe and TestImages/generated/ts")

  @Test("CRC-32/MPEG-2 check value")
  func crc() {
    // The catalogue check value of CRC-32/MPEG-2 over "123456789".
    #expect(MPEGCRC32.checksum(Array("123456789".utf8)) == 0x0376_E6E7)
  }

  @Test("PTS arithmetic modulo 2^33")
  func timestamps() {
    #expect(MPEGTimestamp.forwardDistance(from: (1 << 33) - 10, to: 5) == 15)
    #expect(MPEGTimestamp.signedDifference(5, (1 << 33) - 10) == 15)
    #expect(MPEGTimestamp.signedDifference((1 << 33) - 10, 5) == -15)
    // 0x21 0x00 0x01 0x00 0x01 encodes 0 with markers; 0x2F 0xFF 0xFF 0xFF 0xFF is 2^33 - 1.
    #expect(MPEGTimestamp.decode(0x21, 0x00, 0x01, 0x00, 0x01) == 0)
    #expect(MPEGTimestamp.decode(0x2F, 0xFF, 0xFF, 0xFF, 0xFF) == (1 << 33) - 1)
  }

  struct Counter: TransportPacketConsumer {
    var offsets: [Int64] = []
    var pids: [UInt16] = []
    mutating func consume(_ packet: TransportPacket) {
      offsets.append(packet.offset)
      pids.append(packet.pid)
    }
  }

  @Test(
    "188, 192 and 204-byte packets are detected, offsets are absolute",
    .enabled(if: ready, notReady))
  func packetSizes() throws {
    let plain = Array(try TSOracle.bytes(Fixtures.generated("ts/h264-ac3.ts")).prefix(188 * 300))
    var rs: [UInt8] = []
    var bdav: [UInt8] = []
    for i in stride(from: 0, to: plain.count, by: 188) {
      rs += plain[i..<i + 188] + [UInt8](repeating: 0x5A, count: 16)
      bdav += [0x00, 0x01, 0x02, 0x03] + plain[i..<i + 188]
    }
    for (data, format) in [(plain, TransportPacketFormat.plain), (bdav, .bdav), (rs, .reedSolomon)]
    {
      var reader = TransportPacketReader(baseOffset: 1000)
      var counter = Counter()
      data.withUnsafeBytes { raw in
        var i = 0
        while i < raw.count {
          let n = min(333, raw.count - i)
          reader.feed(UnsafeRawBufferPointer(rebasing: raw[i..<i + n]), into: &counter)
          i += n
        }
      }
      reader.finish(into: &counter)
      #expect(reader.format == format)
      #expect(counter.offsets.count == 300)
      #expect(counter.offsets.first == 1000)
      #expect(counter.offsets.last == 1000 + Int64(299 * format.unitSize))
      let expected = stride(from: 0, to: plain.count, by: 188).map {
        UInt16(plain[$0 + 1] & 0x1F) << 8 | UInt16(plain[$0 + 2])
      }
      #expect(counter.pids == expected)
      #expect(reader.skippedBytes == 0)
    }
  }

  @Test(
    "PMT streams, types, PIDs and languages equal ffprobe's",
    .enabled(if: ready && Fixtures.hasRealData, notReady))
  func pmtAgainstFFprobe() throws {
    let files = [
      Fixtures.generated("ts/h264-lpcm.m2ts"), Fixtures.generated("ts/h264-dts.m2ts"),
      Fixtures.generated("ts/mpeg2-mp2.ts"),
      Fixtures.real("ts/tsduck_test-139_hdmv_mpeg2_dtshdma.ts"),
      Fixtures.real("ts/tsduck_test-151_h264_aac_eac3.ts"),
      Fixtures.real("ts/tsduck_test-100.1_hevc.ts"),
    ]
    for file in files {
      let probe = try TSOracle.probe(file)
      let report = try TSOracle.scan(file)
      var ours: [UInt16: UInt8?] = [:]
      for v in report.video { ours[v.pid] = v.streamType }
      for a in report.audio { ours[a.pid] = a.streamType }
      for o in report.other where o.inPMT { ours[o.pid] = o.streamType }
      #expect(Set(ours.keys) == Set(probe.streams.keys), Comment(rawValue: file))
      for (pid, stream) in probe.streams {
        // ffprobe's codec_tag is the stream type unless a registration descriptor replaced it.
        if stream.type < 0x100, let type = ours[pid] ?? nil, stream.type != 6 {
          #expect(Int(type) == stream.type, Comment(rawValue: "\(file) PID \(pid)"))
        }
      }
    }
    // Languages from the ISO 639 descriptor (tsduck test-139 lists "eng" on its audio).
    let report = try TSOracle.scan(Fixtures.real("ts/tsduck_test-139_hdmv_mpeg2_dtshdma.ts"))
    let languages = try Tool.run(
      "ffprobe",
      [
        "-v", "quiet", "-show_entries", "stream=id:stream_tags=language", "-of", "csv=p=0",
        Fixtures.real("ts/tsduck_test-139_hdmv_mpeg2_dtshdma.ts"),
      ]
    ).text
    for a in report.audio {
      // ffprobe prints each stream twice (program and stream sections); one line carries the tag.
      #expect(a.language == "eng")
      #expect(
        languages.split(separator: "\n").contains {
          $0 == "0x\(String(a.pid, radix: 16)),\(a.language ?? "-")"
        })
    }
  }

  @Test(
    "every access point equals ffprobe's keyframes", .enabled(if: ready, notReady),
    arguments: [
      "h264-ac3.ts", "h264-ac3.m2ts", "mpeg2-mp2.ts", "mpeg2-ac3.m2ts", "hevc-ac3.ts",
      "wrap-h264-ac3.ts",
    ])
  func accessPoints(name: String) throws {
    let path = Fixtures.generated("ts/\(name)")
    let probe = try TSOracle.probe(path)
    let report = try TSOracle.scan(path)
    let video = try #require(report.video.first)
    var finder = RandomAccessPointFinder(pid: video.pid, codec: video.codec)
    let data = try TSOracle.bytes(path)
    data.withUnsafeBytes { raw in
      var i = 0
      while i < raw.count {
        let n = min(65_536, raw.count - i)
        finder.feed(UnsafeRawBufferPointer(rebasing: raw[i..<i + n]))
        i += n
      }
    }
    let points = finder.finish()
    let keys = probe.packets.filter { $0.pid == video.pid && $0.key && $0.pos != nil }
    #expect(points.count == keys.count)
    #expect(points.map(\.offset) == keys.compactMap(\.pos))
    #expect(points.map(\.pts) == keys.map { TSOracle.raw($0.pts) })
    let unit = Int64(name.hasSuffix(".m2ts") ? 192 : 188)
    #expect(points.allSatisfy { $0.packetIndex * unit == $0.offset })
  }
}
