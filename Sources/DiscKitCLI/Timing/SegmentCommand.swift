import ArgumentParser
import DiscKit
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `disckit segment`: GStreamer segment time math (stream time, running time, positions, clipping).
struct SegmentCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "segment",
    abstract:
      "Convert between buffer timestamps, stream time and running time with GStreamer's segment rules.",
    discussion: """
      Computes what GStreamer's GstSegment functions compute, bit for bit (GStreamer 1.22 semantics). \
      All times are nanoseconds; `none` is GST_CLOCK_TIME_NONE.

        stream-time   --position NS       stream time of a buffer timestamp:
                        (position - start) * |applied-rate| + time
        position      --stream-time NS    buffer timestamp of a stream time
                      --running-time NS   buffer timestamp of a running time
        running-time  --position NS       running time of a buffer timestamp:
                        (position - start - offset) / |rate| + base
        clip          --position NS --end NS
                                          [position, end] clipped to [start, stop]

      Each prints the plain result (none outside [start, stop]) and the extrapolated signed \
      ("full") result. Example, audio of a Blu-ray title whose segment starts at PTS 1 s = title 600 s:

        disckit segment stream-time --start 1000000000 --time 600000000000 \\
          --position 1500000000

      --batch reads JSON lines from stdin, one request per line, and writes one JSON line per \
      request (the protocol of Tests/oracles/gst_segment_oracle.py):
        {"op":"streamTimeFull","segment":{"start":0,"stop":null,"time":0,"rate":1,"appliedRate":-1},"value":5}
      op is one of: \(SegmentOperation.allCases.map(\.rawValue).joined(separator: ", ")). \
      A line that cannot be read gives {"error":"..."} and the batch goes on.
      """
  )

  /// What to compute.
  enum Mode: String, ExpressibleByArgument, CaseIterable {
    case streamTime = "stream-time"
    case position
    case runningTime = "running-time"
    case clip
  }

  @Argument(help: "stream-time, position, running-time or clip (omit with --batch).")
  var mode: Mode?

  @Option(help: "Segment start (ns).") var start: Nanoseconds = .value(0)
  @Option(help: "Segment stop (ns or none).") var stop: Nanoseconds = .none
  @Option(help: "Segment time: stream time at start (ns or none).") var time: Nanoseconds = .value(
    0)
  @Option(help: "Segment base: running time at start (ns).") var base: Nanoseconds = .value(0)
  @Option(help: "Segment offset (ns).") var offset: Nanoseconds = .value(0)
  @Option(help: "Segment duration (ns or none; used for negative rates without stop).")
  var duration: Nanoseconds = .none
  @Option(parsing: .unconditional, help: "Playback rate (negative: reverse).") var rate: Double = 1
  @Option(
    parsing: .unconditional, help: "Applied rate (negative: stream time counts back from stop).")
  var appliedRate: Double = 1

  @Option(help: "The buffer timestamp to convert (stream-time, running-time, clip start).")
  var position: Nanoseconds?
  @Option(help: "The stream time to convert to a position.") var streamTime: Nanoseconds?
  @Option(help: "The running time to convert to a position.") var runningTime: Nanoseconds?
  @Option(help: "The end of the range to clip (ns or none).") var end: Nanoseconds?

  @Flag(help: "Read JSON-line requests on stdin and answer each with a JSON line.") var batch =
    false
  @OptionGroup var output: JSONFlag

  func validate() throws {
    if batch {
      guard mode == nil else { throw ValidationError("--batch takes no mode") }
      return
    }
    guard let mode else {
      throw ValidationError("give a mode (stream-time, position, running-time, clip) or --batch")
    }
    switch mode {
    case .streamTime, .runningTime:
      guard position != nil else { throw ValidationError("\(mode.rawValue) needs --position") }
    case .position:
      guard (streamTime == nil) != (runningTime == nil) else {
        throw ValidationError("position needs exactly one of --stream-time and --running-time")
      }
    case .clip:
      guard position != nil || end != nil else {
        throw ValidationError("clip needs --position and/or --end")
      }
    }
  }

  func run() throws {
    try reportingErrors {
      if batch {
        let input = try Output.readStandardInput()
        print(Self.runBatch(String(decoding: input, as: UTF8.self)), terminator: "")
        return
      }
      let result = try evaluate()
      Output.line(output.json ? try Output.json(result) : result.text)
    }
  }

  /// The segment the options describe.
  var segment: Segment {
    Segment(
      rate: rate, appliedRate: appliedRate, base: base.raw, offset: offset.raw, start: start.raw,
      stop: stop.optional, time: time.optional, position: 0, duration: duration.optional)
  }

  /// The single-mode computation (no I/O).
  func evaluate() throws(DiscKitError) -> SegmentResult {
    let segment = self.segment
    guard segment.rate != 0, segment.rate.isFinite, segment.appliedRate.isFinite,
      segment.appliedRate != 0
    else {
      throw DiscKitError(
        .invalidArgument, "segment", at: nil, "rate and applied rate must be finite and non-zero")
    }
    var result = SegmentResult(mode: mode?.rawValue ?? "", segment: segment)
    switch mode {
    case .streamTime, .none:
      result.input = position?.optional
      result.result = segment.toStreamTime(result.input)
      result.full = segment.toStreamTimeFull(result.input)
    case .runningTime:
      result.input = position?.optional
      result.result = segment.toRunningTime(result.input)
      result.full = segment.toRunningTimeFull(result.input)
    case .position:
      if let streamTime {
        result.input = streamTime.optional
        result.result = segment.positionFromStreamTime(result.input)
        result.full = segment.positionFromStreamTimeFull(result.input)
      } else {
        result.input = runningTime?.optional
        result.result = segment.positionFromRunningTime(result.input)
        result.full = segment.positionFromRunningTimeFull(result.input)
      }
    case .clip:
      result.input = position?.optional
      result.end = end?.optional
      let clipped = segment.clip(start: result.input, stop: result.end)
      result.inside = clipped != nil
      result.clipped = clipped
    }
    return result
  }

  /// Answers every JSON-line request in `input` with one JSON line (the `--batch` protocol).
  static func runBatch(_ input: String) -> String {
    let decoder = JSONDecoder()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var out = ""
    for line in input.split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
      var response: SegmentResponse
      do {
        response = try decoder.decode(SegmentRequest.self, from: Data(line.utf8)).evaluate()
      } catch {
        response = SegmentResponse()
        response.error = "cannot read request: \(error)"
      }
      let encoded =
        (try? encoder.encode(response)) ?? Data(#"{"error":"cannot encode response"}"#.utf8)
      out += String(decoding: encoded, as: UTF8.self) + "\n"
    }
    return out
  }
}

/// A nanosecond value on the command line: a number or `none`.
enum Nanoseconds: ExpressibleByArgument, Equatable {
  case value(UInt64)
  case none

  init?(argument: String) {
    if argument.lowercased() == "none" {
      self = .none
    } else if let value = UInt64(argument), value != ClockTime.none {
      self = .value(value)
    } else {
      return nil
    }
  }

  var optional: UInt64? {
    if case .value(let value) = self { return value }
    return nil
  }

  var raw: UInt64 { ClockTime.raw(optional) }

  var defaultValueDescription: String { optional.map(String.init) ?? "none" }
}

/// The result of a single `disckit segment` computation (`--json` schema).
struct SegmentResult: Encodable, Equatable {
  var mode: String
  var segment: Segment
  /// The converted value (or clip start); null = none.
  var input: UInt64?
  /// The clip end.
  var end: UInt64?
  /// The plain result; null = none (outside the segment or negative).
  var result: UInt64?
  /// The extrapolated signed result (`sign`, `magnitude`); null = cannot be computed.
  var full: SignedClockTime?
  /// clip: whether the range is inside.
  var inside: Bool?
  /// clip: the clipped range.
  var clipped: ClippedRange?

  init(mode: String, segment: Segment) {
    self.mode = mode
    self.segment = segment
  }

  enum CodingKeys: String, CodingKey {
    case mode, segment, input, end, result, full, inside, clipped
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(mode, forKey: .mode)
    try container.encode(segment, forKey: .segment)
    try container.encode(input, forKey: .input)
    if mode == "clip" {
      try container.encode(end, forKey: .end)
      try container.encode(inside, forKey: .inside)
      try container.encode(clipped, forKey: .clipped)
    } else {
      try container.encode(result, forKey: .result)
      try container.encode(full, forKey: .full)
    }
  }

  /// Human-readable text.
  var text: String {
    func show(_ value: UInt64?) -> String {
      guard let value else { return "none" }
      return "\(value) ns (\(seconds(value)) s)"
    }
    if mode == "clip" {
      guard let clipped else { return "outside the segment" }
      return "inside: clipped to [\(show(clipped.start)), \(show(clipped.stop))]"
    }
    var lines = ["result: \(show(result))"]
    if let full {
      lines.append("extrapolated: \(full.sign == .negative ? "-" : "")\(show(full.magnitude))")
    } else {
      lines.append("extrapolated: cannot be computed")
    }
    return lines.joined(separator: "\n")
  }

  private func seconds(_ value: UInt64) -> String {
    let fraction = String(value % ClockTime.second)
    return "\(value / ClockTime.second)." + String(repeating: "0", count: 9 - fraction.count)
      + fraction
  }
}
