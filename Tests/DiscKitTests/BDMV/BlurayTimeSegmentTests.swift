import DiscKitTestSupport
import Testing

@_spi(Formats) @testable import DiscKit

/// A clip's GStreamer segment where no libbluray comparison is needed: a play item whose in-time
/// is past its out-time has none. (The segments against libbluray's clip start times are in
/// DiscKitOracleTests' suite of the same name.)
@Suite("Blu-ray clip segments", .toolThreads)
struct BlurayTimeSegmentTests {
  @Test func brokenPlayItemHasNoSegment() throws {
    let clip = BlurayTitle.Clip(
      index: 0, clipID: "00001", streamFileName: "00001.m2ts", angle: 0, inTime: 9_000, outTime: 10,
      stcID: 0, connectionCondition: 1, startPacket: 0, endPacket: 0, titlePacket: 0, titleTime: 0,
      hasClipInformation: false, stillMode: 0, stillTime: 0)
    #expect(clip.timeSegment == nil)
  }
}
