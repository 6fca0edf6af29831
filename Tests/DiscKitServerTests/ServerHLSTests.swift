import DiscKitTestSupport
import Foundation
import Testing

/// `index.m3u8`: an HLS playlist of byte ranges over `stream.ts`, the 188-byte view of the
/// continuous title, read by ffmpeg's HLS demuxer to the end.
@Suite(
  "disckit serve HLS", .serialized,
  .enabled(if: ServerFixture.ready && Tool.has("ffprobe"), "needs disckit-serve, curl, ffprobe and generated images"), .toolThreads)
struct ServerHLSTests {
  static func packets(_ url: String) throws -> [[String]] {
    let result = try Tool.run(
      "ffprobe",
      ["-v", "error", "-show_entries", "packet=codec_type,pts,dts,size,flags", "-of", "csv=p=0", url])
    #expect(result.status == 0, "\(result.stderr)")
    return result.text.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
  }

  @Test func ffmpegReadsThePlaylistToTheEndWithTheStreamsPackets() throws {
    let fixture = try ServerFixture()
    let server = try fixture.start(["--quiet"])
    for path in ["movies/simple.iso", "folders/seamless"] {
      let (id, key) = try ServerEndToEndTests.mainKey(server, path)
      let base = server.base + "/discs/\(id)/titles/\(key)"
      let reply = try Curl.get(base + "/index.m3u8")
      #expect(reply.status == 200)
      #expect(reply.headers["content-type"] == "application/vnd.apple.mpegurl")
      let lines = String(decoding: reply.body, as: UTF8.self).split(separator: "\n")
      #expect(lines.first == "#EXTM3U")
      #expect(lines.last == "#EXT-X-ENDLIST")
      // Byte ranges follow each other and cover the whole 188-byte stream.
      let ranges = lines.filter { $0.hasPrefix("#EXT-X-BYTERANGE:") }.map {
        $0.dropFirst("#EXT-X-BYTERANGE:".count).split(separator: "@").compactMap { Int($0) }
      }
      let durations = lines.filter { $0.hasPrefix("#EXTINF:") }.compactMap {
        Double($0.dropFirst("#EXTINF:".count).dropLast())
      }
      #expect(ranges.count == durations.count && ranges.count >= 1)
      var next = 0
      for range in ranges {
        #expect(range.count == 2 && range[1] == next)
        next += range.first ?? 0
      }
      // stream.ts is the title (as extracted) without the 4-byte arrival time stamps.
      let m2ts = try ServerEndToEndTests.extracted(fixture, path, key: key)
      var ts = Data(capacity: m2ts.count / 192 * 188)
      for packet in stride(from: 0, to: m2ts.count, by: 192) {
        ts.append(m2ts.subdata(in: (packet + 4)..<(packet + 192)))
      }
      let served = try Curl.get(base + "/stream.ts")
      #expect(served.body == ts)
      #expect(next == ts.count)
      // Segments start with a sync byte and last the title.
      for range in ranges { #expect(ts[range[1]] == 0x47) }
      let titles = try ServerEndToEndTests.jsonObject(try Curl.get(server.base + "/discs/\(id)/titles").body)
      let row = (titles["titles"] as? [[String: Any]])?.first { $0["key"] as? String == key }
      let duration = Double(row?["duration90k"] as? Int ?? 0) / 90_000
      #expect(abs(durations.reduce(0, +) - duration) < 0.001)
      // ffmpeg's HLS demuxer reads every segment: the same packets as the stream itself.
      let overHLS = try Self.packets(base + "/index.m3u8")
      let direct = try Self.packets(base + "/stream.ts")
      #expect(overHLS.count > 10)
      #expect(overHLS == direct, "\(path): \(overHLS.count) vs \(direct.count) packets")
    }
    // DVDs have no HLS view.
    let dvd = try ServerEndToEndTests.mainKey(server, "dvd/dvd-pal.iso")
    #expect(try Curl.get(server.base + "/discs/\(dvd.id)/titles/\(dvd.key)/index.m3u8").status == 404)
  }

  @Test(.enabled(if: ServerClientTests.haveBigClip, "run TestImages/scripts/make-all.sh"))
  func longTitlesAreCutAboutSixSecondsApartAtKeyframes() throws {
    let directory = try TemporaryDirectory("disckit-hls-big")
    _ = try ServerClientTests.bigDisc(directory)
    let server = try ServerProcess(root: directory.path + "/big", ["--quiet"])
    let disc = try #require(
      (try ServerEndToEndTests.jsonObject(try Curl.get(server.base + "/discs").body)["discs"] as? [[String: Any]])?.first)
    let base = server.base + "/discs/\(disc["id"] as? String ?? "")/titles/\(disc["mainTitle"] as? String ?? "")"
    let text = String(decoding: try Curl.get(base + "/index.m3u8").body, as: UTF8.self)
    let durations = text.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.compactMap {
      Double($0.dropFirst("#EXTINF:".count).dropLast())
    }
    // 40 s of video: several segments, none longer than the target duration announced.
    #expect(durations.count >= 4)
    let target = try #require(
      text.split(separator: "\n").first { $0.hasPrefix("#EXT-X-TARGETDURATION:") }.flatMap {
        Double($0.dropFirst("#EXT-X-TARGETDURATION:".count))
      })
    #expect(durations.allSatisfy { $0 <= target })
    // Each segment starts where ffprobe sees a keyframe (PAT/PMT first, then the IDR).
    let keyframes = try Tool.run(
      "ffprobe",
      ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos,flags,pts_time", "-of", "csv=p=0", base + "/stream.ts"])
    let keyPositions = keyframes.text.split(separator: "\n").compactMap { line -> Int? in
      let f = line.split(separator: ",")
      return f.count >= 3 && f[2].hasPrefix("K") ? Int(f[1]) : nil
    }
    let starts = text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-BYTERANGE:") }.compactMap {
      Int($0.split(separator: "@").last ?? "")
    }
    for start in starts {
      // The first keyframe at or after the segment start follows only PSI packets (< 6144 bytes).
      let key = keyPositions.first { $0 >= start }
      #expect(key.map { $0 - start < 6144 } == true, "segment at \(start)")
    }
  }
}
