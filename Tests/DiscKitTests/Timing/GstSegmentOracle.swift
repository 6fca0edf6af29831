import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Runs `Tests/oracles/gst_segment_oracle.py` (GStreamer itself, through python3-gst) on a batch
/// of requests: one process per batch.
enum GstSegmentOracle {
  static let python = "/usr/bin/python3"
  static let script = Fixtures.packageRoot.appendingPathComponent(
    "Tests/oracles/gst_segment_oracle.py"
  ).path

  /// Whether /usr/bin/python3 can import GStreamer.
  static let available: Bool = {
    guard FileManager.default.isExecutableFile(atPath: python) else { return false }
    let probe = try? Tool.run(
      python, ["-c", "import gi; gi.require_version('Gst', '1.0'); from gi.repository import Gst"])
    return probe?.status == 0
  }()
  static let missing: Comment =
    "/usr/bin/python3 with python3-gst-1.0 (gi, Gst 1.0) is not installed"

  /// GStreamer's responses to `requests`, in order.
  static func run(_ requests: [SegmentRequest]) throws -> [SegmentResponse] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var input = Data()
    for request in requests {
      input.append(try encoder.encode(request))
      input.append(0x0A)
    }
    let output = try Tool.run(python, [script], stdin: input, environment: ["G_DEBUG": ""])
    guard output.status == 0 else {
      throw DiscKitError(
        .io, "GStreamer oracle", at: nil, "exit \(output.status): \(output.stderr)")
    }
    let decoder = JSONDecoder()
    return try output.text.split(separator: "\n").map {
      try decoder.decode(SegmentResponse.self, from: Data($0.utf8))
    }
  }

  /// Compares DiscKit with GStreamer on every request; returns the mismatches as readable lines.
  static func mismatches(_ requests: [SegmentRequest]) throws -> [String] {
    let expected = try run(requests)
    guard expected.count == requests.count else {
      return ["oracle answered \(expected.count) lines for \(requests.count) requests"]
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var problems: [String] = []
    for (request, gst) in zip(requests, expected) {
      let ours = request.evaluate()
      if ours != gst {
        let text = { (value: any Encodable) in
          (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        }
        problems.append("\(text(request))\n  gst:     \(text(gst))\n  disckit: \(text(ours))")
      }
    }
    return problems
  }
}

/// The shared seeded generator, under the name these tests use.
typealias SegmentTestRNG = SeededRandom
