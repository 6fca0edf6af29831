import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The README's library example, run on the committed sample disc, so the documented API stays true.
@Suite("README example")
struct ReadmeExampleTests {
  @Test func libraryExampleRuns() throws {
    let path = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
    let disc = try DiscImage.open(path: path)  // UDF, ISO9660 or a folder
    let bluray = try BlurayDisc(disc: disc)
    let title = try bluray.title(playlist: "00000.mpls")
    let source = try title.byteSource()  // one seekable source: all clip ranges
    let offset = try title.playbackOffset(forTitleTime: 90_000 * 3)  // 3 s in, PAT/PMT first
    var buffer = [UInt8](repeating: 0, count: 6144)
    let read = try buffer.withUnsafeMutableBytes { try source.read(at: offset, into: $0) }
    let report = try PESPreScanner.scan(source: source, offset: offset, window: 30 << 20)
    let segment = title.clips[1].timeSegment  // clip 2's PTS epoch -> title time

    #expect(read == 6144)
    #expect(buffer[4] == 0x47)  // a BDAV source packet: 4-byte header, then the TS sync byte
    #expect(report.video.first?.firstIDRPTS != nil)
    #expect(report.video.first?.preIDRGapSeconds == 0)  // the seek landed on a random access point
    #expect(segment?.time == ClockTime.nanoseconds(ticks45kHz: UInt64(title.clips[1].titleTime)))
  }
}
