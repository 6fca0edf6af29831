import DiscKit

/// Random and edge-case segments and arguments for the GStreamer comparison.
struct SegmentCaseGenerator {
  var rng: SegmentTestRNG

  init(seed: UInt64) { rng = SegmentTestRNG(seed: seed) }

  static let edgeValues: [UInt64] = [
    0, 1, 2, 999, 1_000_000_000, 1 << 32, (1 << 62) - 1, 1 << 62, (1 << 63) - 2, (1 << 63) - 1,
    1 << 63, (1 << 63) + 1, UInt64.max - 2, UInt64.max - 1, UInt64.max,
  ]
  static let rates: [Double] = [
    1, -1, 0.5, -0.5, 2, -2, 1.5, -1.5, 4, -4, 0.25, -0.25, 3.7, -3.7, 0.001, -0.001, 1000, -1000,
    1.0000001, 0.9999999, 1e-300, 1e300,
  ]

  mutating func chance(_ percent: UInt64) -> Bool {
    UInt64.random(in: 0..<100, using: &rng) < percent
  }

  mutating func pick<T>(_ values: [T]) -> T {
    values[Int.random(in: 0..<values.count, using: &rng)]
  }

  /// A rate: mostly the listed ones (either sign), sometimes random, rarely zero.
  mutating func rate(allowZero: Bool) -> Double {
    if allowZero && chance(3) { return chance(50) ? 0 : -0.0 }
    if chance(70) { return pick(Self.rates) }
    let magnitude = Double.random(in: 0.01...20, using: &rng)
    return chance(50) ? magnitude : -magnitude
  }

  /// An anchor value in one of several magnitudes, so results are mostly meaningful but the
  /// 64-bit limits get their share.
  mutating func anchor() -> UInt64 {
    switch UInt64.random(in: 0..<10, using: &rng) {
    case 0: return pick(Self.edgeValues)
    case 1, 2: return UInt64.random(in: 0...10_000, using: &rng)
    case 3, 4, 5: return UInt64.random(in: 0...(1 << 42), using: &rng)  // ~73 minutes
    case 6: return (1 << 63) &+ UInt64.random(in: 0...(1 << 20), using: &rng) &- (1 << 19)
    case 7: return UInt64.max &- UInt64.random(in: 0...(1 << 20), using: &rng)
    case 8: return UInt64.random(in: 0...UInt64.max, using: &rng)
    default: return UInt64.random(in: 0...(1 << 55), using: &rng)
    }
  }

  /// A value near `anchor` (or an edge value, or none).
  mutating func near(_ anchor: UInt64, noneChance: UInt64 = 0) -> UInt64? {
    if chance(noneChance) { return nil }
    if chance(8) { return pick(Self.edgeValues) }
    let delta =
      chance(50)
      ? UInt64.random(in: 0...4, using: &rng) : UInt64.random(in: 0...(1 << 36), using: &rng)
    return chance(50) ? anchor &+ delta : anchor &- delta
  }

  mutating func segment() -> Segment {
    let start = anchor()
    var segment = Segment()
    segment.start = start
    segment.stop =
      chance(25)
      ? nil : (chance(80) ? start &+ UInt64.random(in: 0...(1 << 40), using: &rng) : anchor())
    segment.time = chance(10) ? nil : anchor()
    segment.base = chance(40) ? 0 : anchor()
    segment.offset =
      chance(50) ? 0 : (chance(60) ? UInt64.random(in: 0...(1 << 34), using: &rng) : anchor())
    segment.position = chance(20) ? nil : near(start)
    segment.duration = chance(50) ? nil : anchor()
    segment.rate = rate(allowZero: true)
    segment.appliedRate = chance(40) ? 1 : rate(allowZero: true)
    segment.flags =
      chance(90) ? [] : SegmentFlags(rawValue: UInt32.random(in: 0...0x3FF, using: &rng))
    return segment
  }

  /// An argument related to the segment: near its start, stop, time or base, or anywhere.
  mutating func argument(for segment: Segment) -> UInt64? {
    if chance(3) { return nil }
    switch UInt64.random(in: 0..<5, using: &rng) {
    case 0: return near(segment.start)
    case 1: return near(segment.stop ?? segment.start)
    case 2: return near(segment.time ?? 0)
    case 3: return near(segment.base &+ segment.offset)
    default: return anchor()
    }
  }

  mutating func request(_ op: SegmentOperation) -> SegmentRequest {
    let segment = self.segment()
    var request = SegmentRequest(op: op, segment: segment, value: argument(for: segment))
    switch op {
    case .clip:
      request.stop =
        chance(20)
        ? nil : (chance(50) ? near(request.value ?? segment.start) : argument(for: segment))
    case .offsetRunningTime:
      let magnitude =
        chance(10) ? pick(Self.edgeValues) : UInt64.random(in: 0...(1 << 40), using: &rng)
      let signed = Int64(bitPattern: magnitude)
      request.signedValue = chance(50) ? signed : (signed == .min ? .min : -signed)
      request.value = nil
    case .doSeek:
      request.rate = rate(allowZero: true)
      request.seekFlags =
        chance(30) ? [] : SeekFlags(rawValue: UInt32.random(in: 0...0x7FF, using: &rng))
      request.startType = pick(SeekType.allCases)
      request.stopType = pick(SeekType.allCases)
      request.stop = chance(20) ? nil : argument(for: segment)
    default:
      break
    }
    return request
  }
}
