import DiscKit
import DiscKitTestSupport
import Testing

/// DiscKit's Segment against GStreamer's GstSegment (python3-gst), bit for bit.
@Suite("Segment vs GStreamer", .enabled(if: GstSegmentOracle.available, GstSegmentOracle.missing), .toolThreads)
struct SegmentOracleTests {
  static let casesPerOperation = 2500

  @Test("random and edge cases, every conversion", arguments: SegmentOperation.allCases)
  func randomCases(op: SegmentOperation) throws {
    var generator = SegmentCaseGenerator(
      seed: 0x5E6_0000 &+ UInt64(SegmentOperation.allCases.firstIndex(of: op) ?? 0))
    let requests = (0..<Self.casesPerOperation).map { _ in generator.request(op) }
    let problems = try GstSegmentOracle.mismatches(requests)
    #expect(
      problems.isEmpty,
      "\(problems.count) of \(requests.count) differ, first: \(problems.prefix(5).joined(separator: "\n"))"
    )
  }

  @Test("exhaustive edge grid for the conversions")
  func edgeGrid() throws {
    let values: [UInt64?] = [nil, 0, 1, 1000, 2000, 1 << 63, UInt64.max - 1]
    var requests: [SegmentRequest] = []
    for start: UInt64 in [0, 1000, 1 << 63, UInt64.max - 1] {
      for stop: UInt64? in [nil, 0, 2000, 1 << 63, UInt64.max - 1] {
        for time: UInt64? in [nil, 0, 5000, 1 << 63] {
          for rate in [1.0, -1, 0.5, -2] {
            for appliedRate in [1.0, -1, -0.5] {
              var segment = Segment()
              segment.start = start
              segment.stop = stop
              segment.time = time
              segment.rate = rate
              segment.appliedRate = appliedRate
              segment.base = start / 3
              for value in values {
                for op in SegmentOperation.allCases where op != .doSeek && op != .offsetRunningTime
                {
                  requests.append(
                    SegmentRequest(
                      op: op, segment: segment, value: value, stop: value.map { $0 &+ 500 }))
                }
              }
            }
          }
        }
      }
    }
    let problems = try GstSegmentOracle.mismatches(requests)
    #expect(
      problems.isEmpty,
      "\(problems.count) of \(requests.count) differ, first: \(problems.prefix(5).joined(separator: "\n"))"
    )
  }
}
