@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The typed codec of a DVD title's video and audio streams (``DiscKit/DiscTitle/Stream/coding``)
/// against ffprobe on the title set's first VOB, stream by stream (matched by MPEG stream id and
/// private-stream-1 substream id, as ffprobe numbers them).
@Suite("DVD stream codings vs ffprobe", .toolThreads)
struct DVDStreamCodingTests {
  static let discs = ["dvd-pal", "dvd-ntsc", "dvd-menu-clean", "dvd-menu-decoy"]

  /// ffprobe's codec name to the typed codec.
  static let expected: [String: StreamCodec] = [
    "mpeg2video": .mpeg2Video, "mpeg1video": .mpeg1Video, "ac3": .ac3, "mp2": .mpegAudio,
    "pcm_dvd": .dvdLPCM, "dts": .dts,
  ]

  @Test(.enabled(if: Tool.has("ffprobe"), "ffprobe missing"), arguments: discs)
  func codingsAgreeWithFFprobe(_ name: String) throws {
    let folder = Fixtures.generated(name)
    try #require(
      FileManager.default.fileExists(atPath: folder + "/VIDEO_TS/VIDEO_TS.IFO"),
      "run TestImages/scripts/make-all.sh")
    let disc = try Disc.open(path: folder)
    var compared = 0
    for entry in try disc.titleList(includeExcluded: true).entries {
      let title = try disc.title(key: entry.key)
      guard case .dvd(let dvdTitle, _) = title.content else {
        Issue.record("\(name) is not a DVD")
        return
      }
      let vob = String(format: "VTS_%02d_1.VOB", dvdTitle.titleSet)
      let probe = try Tool.run(
        "ffprobe",
        [
          "-v", "error", "-show_entries", "stream=codec_name,id", "-of", "json",
          "\(folder)/VIDEO_TS/\(vob)",
        ])
      let streams = try #require(
        (try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any])?["streams"]
          as? [[String: Any]])
      var byID: [Int: String] = [:]
      for s in streams {
        if let id = (s["id"] as? String).flatMap({ Int($0.dropFirst(2), radix: 16) }),
          let codec = s["codec_name"] as? String
        {
          byID[id] = codec
        }
      }
      for stream in title.streams where stream.kind != .subtitle {
        guard let theirs = byID[stream.id] else { continue }
        #expect(
          stream.coding == Self.expected[theirs], "\(name) title \(entry.key) stream \(stream.id)")
        compared += 1
      }
    }
    #expect(compared >= 2, "\(name): only \(compared) streams compared")
  }
}
