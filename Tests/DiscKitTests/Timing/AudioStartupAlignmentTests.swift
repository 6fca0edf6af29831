import DiscKit
import DiscKitTestSupport
import Testing

/// The startup audio alignment, with every segment computation it depends on evaluated by
/// GStreamer (python3-gst) and the strategy rules applied to GStreamer's numbers here.
@Suite(
  "Audio startup alignment", .enabled(if: GstSegmentOracle.available, GstSegmentOracle.missing), .toolThreads)
struct AudioStartupAlignmentTests {
  struct Scenario {
    var name: String
    var video: Segment
    var firstVideoPTS: UInt64?
    var audio: Segment
    var observedAudio: UInt64?
    var requestedStart: UInt64?
    var samples: [(pts: UInt64?, duration: UInt64?)]
    /// The strategy the scenario is built to exercise (`nil` for random scenarios).
    var intended: AudioAlignmentStrategy?
  }

  static let ms: UInt64 = 1_000_000
  static let s: UInt64 = 1_000_000_000

  /// Hand-built scenarios: a Blu-ray seek to title time 600 s with video and audio in different
  /// PTS epochs (video segment start 10 s, audio segment start 11.2 s).
  static func handBuilt() -> [Scenario] {
    let video = Segment(start: 10 * s, stop: nil, time: 600 * s)
    let audio = Segment(start: 11 * s + 200 * ms, stop: nil, time: 600 * s)
    let idr = 10 * s + 480 * ms  // first IDR 480 ms after the seek point
    let audioFrames: [(pts: UInt64?, duration: UInt64?)] =
      stride(from: 0, to: 40, by: 1).map {
        (pts: audio.start + UInt64($0) * 32 * ms, duration: 32 * ms)
      } + [(pts: nil, duration: 32 * ms), (pts: audio.start, duration: nil)]
    var scenarios: [Scenario] = []
    // 1: first audio 10 ms after the origin → observed origin + 480 ms.
    scenarios.append(
      Scenario(
        name: "observed origin", video: video, firstVideoPTS: idr, audio: audio,
        observedAudio: audio.start + 10 * ms, requestedStart: nil, samples: audioFrames,
        intended: .observedAudioOrigin))
    // Exactly at the tolerance still counts; 1 ns more does not.
    scenarios.append(
      Scenario(
        name: "observed origin at 250 ms", video: video, firstVideoPTS: idr, audio: audio,
        observedAudio: audio.start + 250 * ms, requestedStart: nil, samples: audioFrames,
        intended: .observedAudioOrigin))
    // 2: audio first seen 1.2 s late (PES dropped before the PAT) → absolute anchor.
    scenarios.append(
      Scenario(
        name: "late audio", video: video, firstVideoPTS: idr, audio: audio,
        observedAudio: audio.start + 250 * ms + 1, requestedStart: 11 * s, samples: audioFrames,
        intended: .absoluteVideoAnchor))
    // 2 with trick-mode applied rates and a reverse audio segment.
    var reverse = audio
    reverse.appliedRate = -2
    reverse.stop = audio.start + 20 * s
    scenarios.append(
      Scenario(
        name: "reverse applied rate", video: video, firstVideoPTS: idr, audio: reverse,
        observedAudio: nil,
        requestedStart: nil, samples: audioFrames, intended: .absoluteVideoAnchor))
    // 3: audio segment has no time → requested start + video offset.
    var noTime = audio
    noTime.time = nil
    scenarios.append(
      Scenario(
        name: "requested start", video: video, firstVideoPTS: idr, audio: noTime,
        observedAudio: audio.start, requestedStart: 11 * s, samples: audioFrames,
        intended: .requestedStartOffset))
    // 4: no video timestamp.
    scenarios.append(
      Scenario(
        name: "unavailable", video: video, firstVideoPTS: nil, audio: audio,
        observedAudio: audio.start,
        requestedStart: 11 * s, samples: audioFrames, intended: .unavailable))
    // Video before its segment start (negative video offset).
    scenarios.append(
      Scenario(
        name: "negative video offset", video: video, firstVideoPTS: 9 * s + 900 * ms, audio: audio,
        observedAudio: audio.start, requestedStart: nil, samples: audioFrames,
        intended: .observedAudioOrigin))
    return scenarios
  }

  /// Seeded random scenarios.
  static func random(count: Int) -> [Scenario] {
    var generator = SegmentCaseGenerator(seed: 0xA11_6E)
    var rng = SegmentTestRNG(seed: 77)
    return (0..<count).map { _ in
      var video = generator.segment()
      var audio = generator.segment()
      if generator.chance(60) {
        // Realistic: shared title time, different epochs.
        let title = UInt64.random(in: 0...(7200 * s), using: &rng)
        video = Segment(
          start: UInt64.random(in: 0...(1 << 36), using: &rng), stop: nil, time: title)
        audio = Segment(
          start: UInt64.random(in: 0...(1 << 36), using: &rng), stop: nil, time: title)
        if generator.chance(20) { audio.appliedRate = generator.pick([2.0, 0.5, -1, -2]) }
        if audio.appliedRate < 0 {
          audio.stop = audio.start + UInt64.random(in: 0...(1 << 36), using: &rng)
        }
        if generator.chance(10) { audio.time = nil }
      }
      let firstVideoPTS = generator.chance(5) ? nil : generator.near(video.start)
      let observed =
        generator.chance(20) ? nil : audio.start &+ UInt64.random(in: 0...(600 * ms), using: &rng)
      let requested = generator.chance(30) ? nil : generator.near(audio.start)
      let samples: [(pts: UInt64?, duration: UInt64?)] = (0..<6).map { _ in
        (
          pts: generator.near(audio.start),
          duration: generator.chance(10) ? nil : UInt64.random(in: 0...(64 * ms), using: &rng)
        )
      }
      return Scenario(
        name: "random", video: video, firstVideoPTS: firstVideoPTS, audio: audio,
        observedAudio: observed,
        requestedStart: requested, samples: samples, intended: nil)
    }
  }

  static func signed(_ response: SegmentResponse) -> Int128? {
    guard let sign = response.sign, sign != 0, let value = response.value else { return nil }
    return sign < 0 ? -Int128(value) : Int128(value)
  }

  /// Checks each scenario against expectations computed from GStreamer's answers.
  func check(_ scenarios: [Scenario]) throws {
    var requests: [SegmentRequest] = []
    for scenario in scenarios {
      var fromOrigin = scenario.video
      fromOrigin.time = 0
      requests.append(
        SegmentRequest(op: .streamTimeFull, segment: fromOrigin, value: scenario.firstVideoPTS))
      requests.append(
        SegmentRequest(op: .streamTimeFull, segment: scenario.video, value: scenario.firstVideoPTS))
      requests.append(
        SegmentRequest(op: .streamTimeFull, segment: scenario.audio, value: scenario.observedAudio))
    }
    let first = try GstSegmentOracle.run(requests)
    try #require(first.count == requests.count)

    // Expected strategy and target from GStreamer's values and the documented rules.
    var expected: [(AudioAlignmentStrategy, UInt64?)] = []
    var anchorRequests: [SegmentRequest] = []
    for (index, scenario) in scenarios.enumerated() {
      let offset = Self.signed(first[3 * index])
      let videoTime = Self.signed(first[3 * index + 1])
      let audioTime = Self.signed(first[3 * index + 2])
      let tolerance = Int128(AudioStartupAlignment.defaultOriginTolerance)
      let limit = Int128(UInt64.max)
      if let observed = scenario.observedAudio, let audioTime, let origin = scenario.video.time,
        let offset,
        abs(audioTime - Int128(origin)) <= tolerance, Int128(observed) + offset >= 0,
        Int128(observed) + offset < limit
      {
        expected.append((.observedAudioOrigin, UInt64(Int128(observed) + offset)))
        anchorRequests.append(SegmentRequest(op: .streamTime, segment: scenario.video, value: 0))  // placeholder
        continue
      }
      expected.append((.unavailable, nil))
      anchorRequests.append(
        SegmentRequest(
          op: .positionFromStreamTimeFull, segment: scenario.audio,
          value: videoTime.flatMap { $0 >= 0 && $0 < limit ? UInt64($0) : nil }))
    }
    let anchors = try GstSegmentOracle.run(anchorRequests)
    try #require(anchors.count == anchorRequests.count)
    for (index, scenario) in scenarios.enumerated() where expected[index].0 == .unavailable {
      let offset = Self.signed(first[3 * index])
      if anchorRequests[index].value != nil, let target = Self.signed(anchors[index]), target >= 0,
        target < Int128(UInt64.max)
      {
        expected[index] = (.absoluteVideoAnchor, UInt64(target))
      } else if let requested = scenario.requestedStart, let offset,
        Int128(requested) + offset >= 0,
        Int128(requested) + offset < Int128(UInt64.max)
      {
        expected[index] = (.requestedStartOffset, UInt64(Int128(requested) + offset))
      }
    }

    // The drop decisions: GStreamer's clip against a segment that starts at the target.
    var clipRequests: [SegmentRequest] = []
    for (index, scenario) in scenarios.enumerated() {
      guard let target = expected[index].1 else { continue }
      for sample in scenario.samples {
        let end = sample.pts.flatMap { pts in
          sample.duration.flatMap { pts.addingReportingOverflow($0).overflow ? nil : pts + $0 }
        }
        clipRequests.append(
          SegmentRequest(
            op: .clip, segment: Segment(start: target, stop: nil, time: 0), value: sample.pts,
            stop: end))
      }
    }
    let clips = try GstSegmentOracle.run(clipRequests)
    try #require(clips.count == clipRequests.count)

    var clipIndex = 0
    var strategiesSeen: Set<AudioAlignmentStrategy> = []
    for (index, scenario) in scenarios.enumerated() {
      let alignment = AudioStartupAlignment(
        videoSegment: scenario.video, firstVideoPTS: scenario.firstVideoPTS,
        audioSegment: scenario.audio,
        observedFirstAudioPTS: scenario.observedAudio, requestedStart: scenario.requestedStart)
      strategiesSeen.insert(alignment.strategy)
      #expect(alignment.strategy == expected[index].0, "\(scenario.name) #\(index)")
      #expect(alignment.targetPTS == expected[index].1, "\(scenario.name) #\(index)")
      if let intended = scenario.intended {
        #expect(alignment.strategy == intended, "\(scenario.name) is built for \(intended)")
      }
      for sample in scenario.samples {
        let decision = alignment.decision(pts: sample.pts, duration: sample.duration)
        if expected[index].1 == nil {
          #expect(decision == .keep)
        } else {
          let gstKeeps = clips[clipIndex].inside == true || sample.pts == nil
          #expect(
            decision == (gstKeeps ? .keep : .drop), "\(scenario.name) #\(index) sample \(sample)")
          clipIndex += 1
        }
      }
    }
    if scenarios.count > 100 {
      #expect(
        strategiesSeen == Set(AudioAlignmentStrategy.allCases),
        "random scenarios cover every strategy")
    }
  }

  @Test("hand-built Blu-ray scenarios, one per strategy")
  func handBuiltScenarios() throws {
    try check(Self.handBuilt())
  }

  @Test("the worked example of the Segments article (Sources/DiscKit/DiscKit.docc/Segments.md)")
  func workedExample() throws {
    let scenario = Self.handBuilt()[0]
    let alignment = AudioStartupAlignment(
      videoSegment: scenario.video, firstVideoPTS: scenario.firstVideoPTS,
      audioSegment: scenario.audio,
      observedFirstAudioPTS: scenario.observedAudio, requestedStart: nil)
    // The numbers quoted in the documentation (checked against GStreamer by handBuiltScenarios).
    #expect(alignment.videoOffset == .positive(480 * Self.ms))
    #expect(alignment.videoStreamTime == .positive(600 * Self.s + 480 * Self.ms))
    #expect(alignment.targetPTS == 11 * Self.s + 690 * Self.ms)
    let frames = (0..<40).map { 11 * Self.s + 200 * Self.ms + UInt64($0) * 32 * Self.ms }
    let firstKept = frames.firstIndex {
      alignment.decision(pts: $0, duration: 32 * Self.ms) == .keep
    }
    #expect(firstKept == 15)
    let late = AudioStartupAlignment(
      videoSegment: scenario.video, firstVideoPTS: scenario.firstVideoPTS,
      audioSegment: scenario.audio,
      observedFirstAudioPTS: 12 * Self.s + 400 * Self.ms, requestedStart: nil)
    #expect(late.strategy == .absoluteVideoAnchor)
    #expect(late.targetPTS == 11 * Self.s + 680 * Self.ms)
  }

  @Test("random scenarios")
  func randomScenarios() throws {
    try check(Self.random(count: 3000))
  }
}
