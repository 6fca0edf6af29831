import ArgumentParser
import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitCLI

/// `disckit segment`: argument parsing, and `--batch` end to end against GStreamer.
@Suite("disckit segment", .toolThreads)
struct SegmentCommandTests {
  static let python = "/usr/bin/python3"
  static let oracle = Fixtures.packageRoot.appendingPathComponent(
    "Tests/oracles/gst_segment_oracle.py"
  ).path
  static let hasGStreamer: Bool = {
    guard FileManager.default.isExecutableFile(atPath: python) else { return false }
    let probe = try? Tool.run(python, ["-c", "import gi; gi.require_version('Gst', '1.0')"])
    return probe?.status == 0
  }()

  @Test func parsesASegmentAndNone() throws {
    let parsed = try DiscKitCommand.parseAsRoot([
      "segment", "running-time", "--start", "1000", "--stop", "none", "--time", "none", "--base",
      "7",
      "--offset", "3", "--rate", "-2", "--applied-rate", "-0.5", "--duration", "5000", "--position",
      "1500", "--json",
    ])
    let command = try #require(parsed as? SegmentCommand)
    #expect(command.mode == .runningTime)
    #expect(command.output.json)
    let segment = command.segment
    #expect(segment.start == 1000 && segment.stop == nil && segment.time == nil)
    #expect(segment.base == 7 && segment.offset == 3 && segment.duration == 5000)
    #expect(segment.rate == -2 && segment.appliedRate == -0.5)
    #expect(command.position == .value(1500))
  }

  @Test func usageErrors() {
    for arguments in [
      ["segment"],  // no mode
      ["segment", "stream-time"],  // no --position
      ["segment", "position", "--stream-time", "1", "--running-time", "2"],
      ["segment", "stream-time", "--batch"],
      ["segment", "stream-time", "--position", "-5"],
      ["segment", "stream-time", "--position", "18446744073709551615"],  // that is none: spell it none
      ["segment", "bogus", "--position", "1"],
    ] {
      #expect(throws: (any Error).self, "\(arguments)") {
        try DiscKitCommand.parseAsRoot(arguments)
      }
    }
  }

  @Test func rateZeroIsRejected() throws {
    let command = try #require(
      try DiscKitCommand.parseAsRoot(["segment", "stream-time", "--position", "1", "--rate", "0"])
        as? SegmentCommand)
    #expect(throws: DiscKitError(.invalidArgument, "segment", at: nil, "")) {
      try command.evaluate()
    }
  }

  @Test func batchReportsUnreadableLinesAndGoesOn() throws {
    let output = SegmentCommand.runBatch(
      """
      {"op":"streamTime","segment":{"start":10},"value":15}
      not json

      {"op":"nope","segment":{}}
      {"op":"runningTimeFull","segment":{"start":1000,"stop":null,"rate":-2},"value":7}
      """)
    let lines = output.split(separator: "\n").map(String.init)
    try #require(lines.count == 4)
    let decoder = JSONDecoder()
    let responses = try lines.map { try decoder.decode(SegmentResponse.self, from: Data($0.utf8)) }
    #expect(responses[0].result == 5)
    #expect(responses[1].error != nil)
    #expect(responses[2].error != nil)
    #expect(responses[3].sign == 0 && responses[3].value == nil)
  }

  /// Random requests through `disckit segment --batch` and through GStreamer: same lines.
  @Test(.enabled(if: hasGStreamer, "python3-gst-1.0 missing"))
  func batchEqualsGStreamer() throws {
    var state: UInt64 = 0xC0FFEE
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 11
    }
    let interesting: [UInt64] = [0, 1, 1000, 5000, 1 << 62, (1 << 63) - 1, 1 << 63, UInt64.max - 1]
    func value() -> UInt64? {
      switch next() % 6 {
      case 0: return nil
      case 1, 2: return interesting[Int(next() % UInt64(interesting.count))]
      default: return next() % 20_000
      }
    }
    let rates = [1.0, -1, 0.5, -0.5, 2, -2, 3.5, -0.25]
    var lines: [String] = []
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for _ in 0..<3000 {
      var segment = Segment(
        start: value() ?? 0, stop: value(), time: value(), position: value(), duration: value())
      segment.base = value() ?? 0
      segment.offset = next() % 3 == 0 ? (value() ?? 0) : 0
      segment.rate = rates[Int(next() % UInt64(rates.count))]
      segment.appliedRate = rates[Int(next() % UInt64(rates.count))]
      let op = SegmentOperation.allCases[Int(next() % UInt64(SegmentOperation.allCases.count))]
      let request = SegmentRequest(
        op: op, segment: segment, value: value(), stop: value(),
        signedValue: Int64(bitPattern: value() ?? 0) / 2,
        rate: rates[Int(next() % UInt64(rates.count))],
        seekFlags: SeekFlags(rawValue: UInt32(next() % 0x400)), startType: .set, stopType: .set)
      lines.append(String(decoding: try encoder.encode(request), as: UTF8.self))
    }
    let input = lines.joined(separator: "\n") + "\n"
    let ours = SegmentCommand.runBatch(input).split(separator: "\n")
    let gst = try Tool.run(Self.python, [Self.oracle], stdin: Data(input.utf8))
    try #require(gst.status == 0, "\(gst.stderr)")
    let theirs = gst.text.split(separator: "\n")
    try #require(ours.count == lines.count && theirs.count == lines.count)
    let decoder = JSONDecoder()
    var differences = 0
    for index in lines.indices {
      let a = try decoder.decode(SegmentResponse.self, from: Data(ours[index].utf8))
      let b = try decoder.decode(SegmentResponse.self, from: Data(theirs[index].utf8))
      if a != b {
        differences += 1
        if differences <= 3 {
          Issue.record("\(lines[index])\n gst: \(theirs[index])\n ours: \(ours[index])")
        }
      }
    }
    #expect(differences == 0)
  }

  /// The single-mode JSON equals GStreamer's answers for the same segment.
  @Test(.enabled(if: hasGStreamer, "python3-gst-1.0 missing"))
  func singleModeEqualsGStreamer() throws {
    let arguments: [[String]] = [
      [
        "stream-time", "--start", "1000000000", "--time", "600000000000", "--position",
        "1500000000",
      ],
      [
        "stream-time", "--start", "1000", "--stop", "9000", "--applied-rate", "-2", "--position",
        "500",
      ],
      ["running-time", "--start", "0", "--stop", "5000", "--rate", "-2", "--position", "7"],
      ["running-time", "--start", "100", "--base", "50", "--rate", "0.5", "--position", "20"],
      ["position", "--start", "1000", "--time", "600", "--stream-time", "5"],
      ["position", "--rate", "-0.5", "--stop", "5000", "--running-time", "100"],
    ]
    var requests: [String] = []
    var results: [SegmentResult] = []
    let encoder = JSONEncoder()
    for argv in arguments {
      let command = try #require(
        try DiscKitCommand.parseAsRoot(["segment"] + argv) as? SegmentCommand)
      let result = try command.evaluate()
      results.append(result)
      let (plain, full): (SegmentOperation, SegmentOperation) =
        switch command.mode {
        case .streamTime: (.streamTime, .streamTimeFull)
        case .runningTime: (.runningTime, .runningTimeFull)
        default:
          command.streamTime != nil
            ? (.positionFromStreamTime, .positionFromStreamTimeFull)
            : (.positionFromRunningTime, .positionFromRunningTimeFull)
        }
      for op in [plain, full] {
        requests.append(
          String(
            decoding: try encoder.encode(
              SegmentRequest(op: op, segment: result.segment, value: result.input)), as: UTF8.self))
      }
    }
    let gst = try Tool.run(
      Self.python, [Self.oracle], stdin: Data(requests.joined(separator: "\n").utf8))
    let answers = try gst.text.split(separator: "\n").map {
      try JSONDecoder().decode(SegmentResponse.self, from: Data($0.utf8))
    }
    try #require(answers.count == 2 * results.count)
    for (index, result) in results.enumerated() {
      #expect(result.result == answers[2 * index].result, "\(arguments[index])")
      let full = answers[2 * index + 1]
      #expect(result.full?.sign.rawValue ?? 0 == full.sign, "\(arguments[index])")
      #expect(result.full?.magnitude == full.value, "\(arguments[index])")
    }
    // And the JSON is stable camelCase with null for none.
    let json = try Output.json(results[0])
    #expect(json.contains(#""result":600500000000"#))
    #expect(json.contains(#""stop":null"#))
  }
}
