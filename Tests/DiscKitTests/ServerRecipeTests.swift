import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The README's streaming-server recipe, compiled and run on a Blu-ray and on a DVD image: one
/// disc API (`Disc`, `DiscTitle`) and one time type (`MediaTime`) for both kinds.
@Suite("Streaming server recipe", .toolThreads)
struct ServerRecipeTests {
  struct Startup {
    var title: DiscTitle
    var reason: String
    var firstBytes: [UInt8]
    var scan: DiscTitle.ScanReport
    var keyframeAt: MediaTime?
  }

  /// The recipe, as the README shows it.
  static func recipe(path: String) throws -> Startup {
    let disc = try Disc.open(path: path)  // once per image; Sendable, share it between requests
    let title = try disc.mainTitle()  // same choice and numbering as `disckit titles`
    let reason = try disc.titleList().reason  // why it is the main title

    // A player asks for 4 s in: the bytes from the random access point at or before it, PAT/PMT
    // first (Blu-ray: exactly what libbluray's bd_read delivers after bd_seek_time).
    let start = MediaTime(seconds: 4)
    let stream = try title.byteSource(startingAt: start)
    var head = [UInt8](repeating: 0, count: 192)
    _ = try head.withUnsafeMutableBytes { try stream.read(at: 0, into: $0) }  // positional, any task

    // Before the demuxer runs: first keyframe and audio, the gap before the keyframe, what a
    // PAT-gated demuxer drops, the A/V offset (on the timeline of `stream`).
    let scan = try title.scan(at: start, timeline: .original)

    // Blu-ray clips keep their own PTS epochs: map the keyframe's PTS onto the title timeline.
    var keyframeAt: MediaTime?
    if let clip = title.clipIndex(at: start), let pts = scan.firstKeyframePTS {
      keyframeAt = title.titleTime(ofPTS: pts, inClip: clip)
    }
    return Startup(
      title: title, reason: reason, firstBytes: head, scan: scan, keyframeAt: keyframeAt)
  }

  @Test func bluray() throws {
    let path = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
    let startup = try Self.recipe(path: path)
    #expect(startup.title.key == "00000")
    #expect(startup.title.number == 1)
    #expect(startup.reason.contains("played by index title 1"))
    // A BDAV source packet: 4-byte arrival stamp, the TS sync byte, then a PSI packet (SIT, PAT,
    // PMT or PCR: PID <= 0x1001), not the picture.
    #expect(startup.firstBytes[4] == 0x47)
    #expect((UInt16(startup.firstBytes[5] & 0x1F) << 8 | UInt16(startup.firstBytes[6])) <= 0x1001)
    #expect(startup.scan.pesBeforePAT == 0)
    #expect(startup.scan.preKeyframeGap == .zero)
    // Clip 2 starts at 4 s with an IDR at its in-time.
    #expect(startup.keyframeAt == MediaTime(seconds: 4))
    let offset = try #require(startup.scan.audioOffset)
    #expect(abs(offset.seconds) < 0.25)
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: Fixtures.generated("dvd-pal.iso"))))
  func dvd() throws {
    let startup = try Self.recipe(path: Fixtures.generated("dvd-pal.iso"))
    let lsdvdMain = try Disc.open(path: Fixtures.generated("dvd-pal.iso")).mainTitle(
      selection: .lsdvd)
    #expect(startup.title.key == lsdvdMain.key)
    // A program stream pack header starts the bytes (00 00 01 BA): the VOBU's navigation pack.
    #expect(Array(startup.firstBytes.prefix(4)) == [0, 0, 1, 0xBA])
    #expect(startup.scan.firstKeyframePTS != nil)
    #expect(startup.scan.preKeyframeGap == .zero)
    #expect(startup.keyframeAt == nil)  // DVD titles have no clip segments
  }
}
