import DiscKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One rendition's reading of a segment's PES packets (``PESStream``), run twice over the same
/// bytes: to plan (``emitting`` false: the samples' table, nothing kept of the payload) and to
/// write the `mdat`'s payload into a ``PayloadOutput``.
protocol SegmentPass: Sendable {
  mutating func handle(
    _ event: PESStream.Event, _ bytes: UnsafeRawBufferPointer, _ out: inout PayloadOutput
  ) throws(DiscKitError)
  mutating func finish(_ out: inout PayloadOutput) throws(DiscKitError)
}

/// How a rendition's decode times are counted: on the title's continuous timeline from its
/// origin (the DTS media time 0 stands for), or as the clips' own timestamps are
/// (``DiscKit/TitleTimeline/original``: `tfdt` is the original 33-bit DTS, nothing is before it).
struct MediaClock: Sendable, Hashable {
  var origin: UInt64
  var original = false

  /// Media time of a 90 kHz timestamp `t` (negative: before the origin).
  func time(_ t: UInt64) -> Int64 {
    original ? Int64(t & FMP4Samples.mask) : FMP4Samples.delta(t, origin)
  }
}

/// A segment's planned samples.
struct SegmentPlan: Sendable {
  var firstDecodeTime: UInt64?
  var samples: [FMP4Writer.Sample] = []
  /// Video: for each access unit, the number of its NAL units kept ...
  var unitCounts: [UInt32] = []
  /// ... and for each kept NAL unit, the bytes of the access unit skipped before it and its
  /// length (start codes, trailing zeros, access unit delimiters and filler data left out).
  var units: [UInt32] = []
  /// Video: each access unit's PTS (planning) ...
  var presentationTimes: [UInt64] = []
  /// ... and a NAL unit written after it (length-prefixed; empty for none): the Dolby Vision
  /// rendition's RPUs.
  var appended: [[UInt8]] = []

  var payloadSize: Int64 { samples.reduce(Int64(0)) { $0 + Int64($1.size) } }
}

extension SegmentPass {
  /// Runs the pass over `stream` without writing (the plan).
  mutating func run(_ stream: inout PESStream) throws(DiscKitError) {
    var none = PayloadOutput()
    while let event = try stream.next() {
      let outcome = stream.buffer.withUnsafeBytes { raw in
        Result { () throws(DiscKitError) -> Void in try handle(event, raw, &none) }
      }
      try outcome.get()
    }
    try finish(&none)
  }
}

/// The payload of a planned segment: a pass in writing mode over a fresh ``PESStream``.
struct PassReader<Pass: SegmentPass>: FMP4PayloadReader {
  var stream: PESStream
  var pass: Pass
  var out = PayloadOutput()
  var ended = false

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError) -> Int {
    out.begin(buffer)
    while !out.full, !ended {
      guard let event = try stream.next() else {
        ended = true
        try pass.finish(&out)
        break
      }
      let outcome = stream.buffer.withUnsafeBytes { raw in
        Result { () throws(DiscKitError) -> Void in try pass.handle(event, raw, &out) }
      }
      try outcome.get()
    }
    return out.written
  }
}

// MARK: Video

/// Video access units (a PES with a PTS starts one; one without continues it), their NAL units
/// found by start codes (Annex B), written with 4-byte length prefixes. Planning scans every
/// byte for start codes and keeps, per access unit, where each kept unit starts and how long it
/// is (trailing zeros left out); writing copies those ranges without looking at the bytes.
struct VideoPass: SegmentPass {
  let hevc: Bool
  let clock: MediaClock
  /// The only PES used: an I-frame segment's first picture.
  let firstPictureOnly: Bool
  /// Planning: nil. Writing: the plan.
  let written: SegmentPlan?
  var plan = SegmentPlan()
  /// The DTS (or PTS) of the next segment's first access unit.
  var nextDecodeTime: UInt64?
  /// The title's last segment: the first access unit after it is not the title's (the last
  /// sample lasts as long as the one before).
  var last = false

  // The access unit being read.
  var inUnit = false
  var pesInUnit = false
  var pictures = 0
  var times: [(pts: UInt64, dts: UInt64)] = []
  /// Per access unit: its size, whether it is an IDR / IRAP, its first slice's NAL unit type
  /// and (H.264) whether that slice is an I slice.
  var sizes: [(size: Int, sync: Bool, vcl: UInt8?, intra: Bool)] = []
  var position = 0
  // Planning: the start code search.
  var zeroRun = 0
  var nalStart = -1
  var nonZeroEnd = 0
  var typePending = false
  var typeByte: UInt8 = 0
  /// H.264: the byte after the NAL unit header (a slice's first_mb_in_slice and slice_type).
  var secondPending = false
  var secondByte: UInt8 = 0
  var vcl: UInt8?
  var intra = false
  var cursor = 0
  var unitsInAU: UInt32 = 0
  var size = 0
  var sync = false
  // Writing: the plan's ranges.
  var nextRange = 0
  var rangeEnd = 0
  var skipLeft = 0
  var copyLeft = 0
  var prefix: UInt32?

  init(hevc: Bool, clock: MediaClock, firstPictureOnly: Bool, written: SegmentPlan? = nil) {
    self.hevc = hevc
    self.clock = clock
    self.firstPictureOnly = firstPictureOnly
    self.written = written
  }

  mutating func handle(
    _ event: PESStream.Event, _ bytes: UnsafeRawBufferPointer, _ out: inout PayloadOutput
  ) throws(DiscKitError) {
    switch event {
    case .start(let header, let body):
      if firstPictureOnly, pictures > 0 {
        pesInUnit = false
        return
      }
      if let pts = header.pts {
        try endUnit(&out)
        startUnit(pts: pts, dts: header.dts ?? pts)
        pesInUnit = true
      } else {
        pesInUnit = inUnit && !firstPictureOnly
      }
      if pesInUnit { try feed(UnsafeRawBufferPointer(rebasing: bytes[body]), &out) }
    case .more(let range):
      if pesInUnit { try feed(UnsafeRawBufferPointer(rebasing: bytes[range]), &out) }
    case .next(let header):
      pesInUnit = false
      nextDecodeTime = header.dts ?? header.pts
    }
  }

  mutating func finish(_ out: inout PayloadOutput) throws(DiscKitError) {
    try endUnit(&out)
    guard written == nil, let first = times.first else { return }
    plan.presentationTimes = times.map(\.pts)
    plan.firstDecodeTime = UInt64(max(0, clock.time(first.dts)))
    // The segment's first picture is where the disc's EP map says decoding may start: an IDR,
    // an HEVC CRA / BLA, or (H.264) an I picture of an open GOP (a recovery point); it is a sync
    // sample. The pictures after a CRA / BLA or an H.264 open-GOP I picture in decode order but
    // before it in presentation order are its leading pictures: an HEVC RASL picture (and any
    // H.264 one) needs pictures of the previous segment (is_leading 1: a player starting here
    // drops it, as H.265 8.1.3 has decoders do), a RADL picture does not (3).
    var leading = [UInt8](repeating: 0, count: times.count)
    if let head = sizes.first, !firstPictureOnly {
      let idr = hevc ? head.vcl.map { (19...20).contains($0) } ?? false : head.vcl == 5
      let open = !idr && (head.sync || head.intra)
      for k in sizes.indices.dropFirst() {
        if hevc, let type = sizes[k].vcl, (6...9).contains(type) {
          leading[k] = type >= 8 ? 1 : 3
        } else if open, !hevc, FMP4Samples.delta(times[k].pts, first.pts) < 0,
          leading[k - 1] != 0 || k == 1
        {
          leading[k] = 1
        }
      }
    }
    for k in times.indices {
      let unit = times[k]
      let nextDTS = k + 1 < times.count ? times[k + 1].dts : last ? nil : nextDecodeTime
      var duration: Int64
      if let nextDTS, case let d = FMP4Samples.delta(nextDTS, unit.dts), d > 0, d < 90_000 {
        duration = d
      } else if k > 0 {
        duration = max(1, FMP4Samples.delta(unit.dts, times[k - 1].dts))
      } else {
        duration = 3754
      }
      plan.samples.append(
        FMP4Writer.Sample(
          size: UInt32(sizes[k].size), duration: UInt32(clamping: duration),
          compositionOffset: Int32(clamping: FMP4Samples.delta(unit.pts, unit.dts)),
          isSync: sizes[k].sync || (k == 0 && sizes[k].intra), leading: leading[k]))
    }
  }

  private mutating func startUnit(pts: UInt64, dts: UInt64) {
    inUnit = true
    pictures += 1
    position = 0
    if let written {
      let k = pictures - 1
      rangeEnd = nextRange + (k < written.unitCounts.count ? Int(written.unitCounts[k]) : 0)
      skipLeft = 0
      copyLeft = 0
      prefix = nil
    } else {
      times.append((pts, dts))
      zeroRun = 0
      nalStart = -1
      nonZeroEnd = 0
      typePending = false
      cursor = 0
      unitsInAU = 0
      size = 0
      sync = false
      secondPending = false
      vcl = nil
      intra = false
    }
  }

  private mutating func endUnit(_ out: inout PayloadOutput) throws(DiscKitError) {
    guard inUnit else { return }
    inUnit = false
    if let written {
      guard nextRange == rangeEnd, copyLeft == 0, prefix == nil else {
        throw DiscKitError(
          .malformed, "fMP4 video segment", at: nil,
          "access unit \(pictures) differs from its plan (the disc's bytes changed?)")
      }
      if written.appended.indices.contains(pictures - 1), !written.appended[pictures - 1].isEmpty {
        let nal = written.appended[pictures - 1]
        out.u32(UInt32(nal.count))
        out.write(nal)
      }
      return
    }
    endNAL()
    plan.unitCounts.append(unitsInAU)
    sizes.append((size, sync, vcl, intra))
  }

  private mutating func endNAL() {
    guard nalStart >= 0 else { return }
    let length = nonZeroEnd - nalStart
    nalStart = -1
    guard length > 0 else { return }
    let type = hevc ? (typeByte >> 1) & 0x3F : typeByte & 0x1F
    // Access unit delimiters and filler data carry nothing a sample needs.
    if hevc ? (type == 35 || type == 38) : (type == 9 || type == 12) { return }
    if hevc ? (16...21).contains(type) : type == 5 { sync = true }
    if vcl == nil, hevc ? type < 32 : (1...5).contains(type) {
      vcl = type
      intra = !hevc && Self.isFirstISlice(secondByte)
    }
    plan.units.append(UInt32(nonZeroEnd - length - cursor))
    plan.units.append(UInt32(length))
    cursor = nonZeroEnd
    unitsInAU += 1
    size += 4 + length
  }

  private mutating func feed(_ raw: UnsafeRawBufferPointer, _ out: inout PayloadOutput)
    throws(DiscKitError)
  {
    if let written {
      copy(raw, written, &out)
    } else {
      scan(raw)
    }
    position += raw.count
  }

  /// Planning: the start codes of `raw` (the access unit's bytes at ``position``).
  private mutating func scan(_ raw: UnsafeRawBufferPointer) {
    guard let base = raw.baseAddress else { return }
    let n = raw.count
    var i = 0
    while i < n {
      if zeroRun == 0, !typePending, !secondPending {
        // Non-zero bytes move only the end of the unit's last non-zero byte.
        if let z = memchr(base + i, 0, n - i) {
          let j = base.distance(to: UnsafeRawPointer(z))
          if j > i { nonZeroEnd = position + j }
          i = j
        } else {
          nonZeroEnd = position + n
          return
        }
      }
      let b = raw[i]
      if b == 0 {
        if typePending {
          typeByte = 0
          typePending = false
        } else if secondPending {
          secondByte = 0
          secondPending = false
        }
        zeroRun += 1
      } else if b == 1, zeroRun >= 2 {
        endNAL()
        nalStart = position + i + 1
        nonZeroEnd = nalStart
        typePending = true
        secondPending = false
        secondByte = 0
        zeroRun = 0
      } else {
        if typePending {
          typeByte = b
          typePending = false
          secondPending = !hevc
        } else if secondPending {
          secondByte = b
          secondPending = false
        }
        nonZeroEnd = position + i + 1
        zeroRun = 0
      }
      i += 1
    }
  }

  /// Whether `byte`, the first after an H.264 slice's NAL unit header, starts the header of a
  /// picture's first slice (`first_mb_in_slice` 0) of type I (`slice_type` 2 or 7, ue(v)).
  static func isFirstISlice(_ byte: UInt8) -> Bool {
    guard byte & 0x80 != 0 else { return false }
    var zeros = 0
    var bit = 6
    while bit >= 0, byte >> bit & 1 == 0 {
      zeros += 1
      bit -= 1
    }
    guard bit - zeros >= 0 else { return false }
    let suffix = Int(byte >> (bit - zeros)) & ((1 << zeros) - 1)
    let value = (1 << zeros) - 1 + suffix
    return value == 2 || value == 7
  }

  /// Writing: the plan's ranges of `raw`, each after its length.
  private mutating func copy(
    _ raw: UnsafeRawBufferPointer, _ plan: SegmentPlan, _ out: inout PayloadOutput
  ) {
    var i = 0
    let n = raw.count
    while i < n {
      if skipLeft > 0 {
        let step = min(skipLeft, n - i)
        skipLeft -= step
        i += step
      } else if let length = prefix {
        out.u32(length)
        copyLeft = Int(length)
        prefix = nil
      } else if copyLeft > 0 {
        let step = min(copyLeft, n - i)
        out.write(UnsafeRawBufferPointer(rebasing: raw[i..<(i + step)]))
        copyLeft -= step
        i += step
      } else if nextRange < rangeEnd, 2 * nextRange + 1 < plan.units.count {
        skipLeft = Int(plan.units[2 * nextRange])
        prefix = plan.units[2 * nextRange + 1]
        nextRange += 1
      } else {
        return
      }
    }
  }
}

// MARK: Audio

/// Audio: each PES of the rendition's PID whole (a few kilobytes), its frames as samples.
protocol AudioPESPass: SegmentPass {
  /// A complete PES.
  mutating func pes(_ header: PESCollector.Packet, _ payload: [UInt8], _ out: inout PayloadOutput)
    throws(DiscKitError)
  mutating func end()
  /// The first PES header after the segment's range.
  mutating func nextHeader(_ header: PESCollector.Packet)
  var current: (header: PESCollector.Packet, payload: [UInt8])? { get set }
  var nextPTS: UInt64? { get set }
}

extension AudioPESPass {
  mutating func handle(
    _ event: PESStream.Event, _ bytes: UnsafeRawBufferPointer, _ out: inout PayloadOutput
  ) throws(DiscKitError) {
    switch event {
    case .start(let header, let body):
      try flush(&out)
      current = (header, Array(UnsafeRawBufferPointer(rebasing: bytes[body])))
    case .more(let range):
      current?.payload.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
    case .next(let header):
      try flush(&out)
      nextHeader(header)
    }
  }

  mutating func finish(_ out: inout PayloadOutput) throws(DiscKitError) {
    try flush(&out)
    end()
  }

  mutating func flush(_ out: inout PayloadOutput) throws(DiscKitError) {
    guard let done = current else { return }
    current = nil
    try pes(done.header, done.payload, &out)
  }

  mutating func nextHeader(_ header: PESCollector.Packet) { nextPTS = header.pts }
}

/// AC-3 or E-AC-3 syncframes (an independent frame and the dependent ones after it make one
/// sample); for a TrueHD PID only its AC-3 core's PES packets.
struct DolbyPass: AudioPESPass {
  let coreOnly: Bool
  let clock: MediaClock
  let writing: Bool
  var current: (header: PESCollector.Packet, payload: [UInt8])?
  var nextPTS: UInt64?
  var plan = SegmentPlan()
  /// Whether an independent frame was seen, and whether its sample is kept.
  var started = false
  var keep = false
  var kept: [(pts: UInt64, nominal: Int64, size: Int)] = []
  /// Where the segment's audio ends (media time on `clock`): the last sample lasts to it.
  var segmentEnd: AudioSegmentEnd?
  /// The rendition's silent frame (``SilentDolbyFrame``) and its duration in ticks: with it, a
  /// time of at least two frames from a sample to the next one (or to `segmentEnd`) is filled
  /// with silent frames one duration apart (the last taking up the rest), so the rendition's
  /// samples run without a gap; without it, the sample before lasts through the gap.
  var silence: [UInt8]?
  var fillDuration: Int64 = 0
  /// Where the segment starts when that is before its first frame (media time on `clock`):
  /// silent frames before it (planned: `fillBefore`).
  var segmentStart: Int64?
  /// The silent frames before the first kept sample and after each one (planned; read again
  /// when writing).
  var fillBefore = 0
  var fillAfter: [Int] = []
  /// Kept samples written so far (writing).
  var written = 0

  init(coreOnly: Bool, clock: MediaClock, writing: Bool) {
    self.coreOnly = coreOnly
    self.clock = clock
    self.writing = writing
  }

  /// The silent frames after kept sample `k` (writing).
  mutating func writeFill(after k: Int, _ out: inout PayloadOutput) {
    guard let silence, fillAfter.indices.contains(k) else { return }
    for _ in 0..<fillAfter[k] { out.write(silence) }
  }

  mutating func finish(_ out: inout PayloadOutput) throws(DiscKitError) {
    try flush(&out)
    if writing, written > 0 { writeFill(after: written - 1, &out) }
    end()
  }

  mutating func nextHeader(_ header: PESCollector.Packet) {
    // The next AC-3 core frame's time (a TrueHD access unit's is not).
    nextPTS = coreOnly && header.streamIDExtension != 0x76 ? nil : header.pts
  }

  mutating func pes(
    _ header: PESCollector.Packet, _ payload: [UInt8], _ out: inout PayloadOutput
  ) throws(DiscKitError) {
    if coreOnly {
      if let ext = header.streamIDExtension {
        guard ext == 0x76 else { return }
      } else if payload.count < 2 || payload[0] != 0x0B || payload[1] != 0x77 {
        return
      }
    }
    // A PES without PTS continues the previous one's frames (none on a Blu-ray).
    guard var t = header.pts else { return }
    for (frame, range) in DolbyAudioFrame.split(payload[...]) {
      if frame.streamType != 1 {
        started = true
        keep = clock.time(t) >= 0
        if keep, !writing {
          kept.append((t, Int64(frame.samples * 90_000 / frame.sampleRate), 0))
        }
        if keep, writing {
          // The fill before this sample, then it.
          if written > 0 {
            writeFill(after: written - 1, &out)
          } else if let silence {
            for _ in 0..<fillBefore { out.write(silence) }
          }
          written += 1
        }
      }
      if started, keep {
        if writing {
          payload.withUnsafeBytes { out.write(UnsafeRawBufferPointer(rebasing: $0[range])) }
        } else {
          kept[kept.count - 1].size += range.count
        }
      }
      // Dependent substreams share their independent frame's time.
      if frame.streamType != 1 {
        t = (t + UInt64(frame.samples * 90_000 / frame.sampleRate)) & FMP4Samples.mask
      }
    }
  }

  mutating func end() {
    guard !writing, let first = kept.first else { return }
    var start = clock.time(first.pts)
    if let silence, fillDuration > 0, let segmentStart, start > segmentStart {
      let lead = start - segmentStart
      fillBefore = Int(max(1, lead / fillDuration))
      plan.samples += FMP4Writer.Sample.fill(
        frame: silence, count: fillBefore, duration: lead, each: fillDuration)
      start = segmentStart
    }
    plan.firstDecodeTime = UInt64(max(0, start))
    for (k, sample) in kept.enumerated() {
      let duration = AudioSegmentEnd.duration(
        of: sample.pts, nominal: sample.nominal, next: k + 1 < kept.count ? kept[k + 1].pts : nil,
        end: segmentEnd, nextPTS: nextPTS, clock: clock)
      var fills = 0
      if let silence, fillDuration > 0, duration >= 2 * fillDuration {
        fills = Int(duration / fillDuration) - 1
        plan.samples.append(
          FMP4Writer.Sample(
            size: UInt32(sample.size), duration: UInt32(fillDuration), compositionOffset: 0,
            isSync: true))
        plan.samples += FMP4Writer.Sample.fill(
          frame: silence, count: fills, duration: duration - fillDuration, each: fillDuration)
      } else {
        plan.samples.append(
          FMP4Writer.Sample(
            size: UInt32(sample.size), duration: UInt32(clamping: duration), compositionOffset: 0,
            isSync: true))
      }
      fillAfter.append(fills)
    }
  }
}

extension FMP4Writer.Sample {
  /// `count` silent frames (`frame`) lasting `duration` ticks together: `each` apart, the last
  /// taking up the rest.
  static func fill(frame: [UInt8], count: Int, duration: Int64, each: Int64) -> [Self] {
    guard count > 0 else { return [] }
    return (0..<count).map { k in
      FMP4Writer.Sample(
        size: UInt32(frame.count),
        duration: UInt32(clamping: k + 1 < count ? each : duration - each * Int64(count - 1)),
        compositionOffset: 0, isSync: true)
    }
  }
}

/// `count` copies of `frame` (a segment of fill only).
struct RepeatedFrames: FMP4PayloadReader {
  let frame: [UInt8]
  let count: Int
  var position = 0

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError) -> Int {
    var written = 0
    let total = frame.count * count
    while written < buffer.count, position < total {
      let offset = position % frame.count
      let n = min(buffer.count - written, frame.count - offset)
      frame.withUnsafeBytes { raw in
        UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + n)]).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + n)]))
      }
      written += n
      position += n
    }
    return written
  }
}

/// LPCM as FLAC: one frame per PES, numbered from its PTS.
struct FLACPass: AudioPESPass {
  let clock: MediaClock
  let writing: Bool
  var current: (header: PESCollector.Packet, payload: [UInt8])?
  var nextPTS: UInt64?
  var plan = SegmentPlan()
  var format: FLACFromLPCM.Format?
  var frames: [(pts: UInt64, size: Int, samples: Int)] = []
  /// Where the segment's audio ends (media time on `clock`): the last sample lasts to it.
  var segmentEnd: AudioSegmentEnd?

  /// The frames' own durations (ticks).
  var nominalDuration: Int64 {
    guard let format else { return 0 }
    return frames.reduce(0) { $0 + Int64($1.samples * 90_000 / format.sampleRate) }
  }

  init(clock: MediaClock, writing: Bool) {
    self.clock = clock
    self.writing = writing
  }

  mutating func pes(
    _ header: PESCollector.Packet, _ payload: [UInt8], _ out: inout PayloadOutput
  ) throws(DiscKitError) {
    guard let pts = header.pts, clock.time(pts) >= 0,
      let f = FLACFromLPCM.Format(header: payload[...])
    else { return }
    format = format ?? f
    let first = UInt64(clock.time(pts)) * UInt64(f.sampleRate) / 90_000
    guard let frame = FLACFromLPCM.frame(payload.dropFirst(4), format: f, firstSample: first)
    else { return }
    if writing {
      out.write(frame.bytes)
    } else {
      frames.append((pts, frame.bytes.count, frame.samples))
    }
  }

  mutating func end() {
    guard !writing, let first = frames.first, let format else { return }
    plan.firstDecodeTime = UInt64(max(0, clock.time(first.pts)))
    for (k, frame) in frames.enumerated() {
      let nominal = Int64(frame.samples * 90_000 / format.sampleRate)
      let duration = AudioSegmentEnd.duration(
        of: frame.pts, nominal: nominal, next: k + 1 < frames.count ? frames[k + 1].pts : nil,
        end: segmentEnd, nextPTS: nextPTS, clock: clock)
      plan.samples.append(
        FMP4Writer.Sample(
          size: UInt32(frame.size), duration: UInt32(duration), compositionOffset: 0,
          isSync: true))
    }
  }
}

/// Where a copied audio rendition's segment ends on its timeline, so that the next segment's
/// `tfdt` is this one's plus its samples' durations: at the next frame after the segment
/// (`exact`: the last sample lasts to it, a gap taken up, an overlap cut short; the segments
/// without audio between are left out of the playlist), or, when the stream has no frame after
/// it, at least at the title's end (the last sample lasts at least to it).
struct AudioSegmentEnd: Sendable, Hashable {
  var time: Int64
  var exact: Bool

  /// A sample's duration: inside the segment the disc's timestamps (to the next frame: a gap
  /// taken up by the frame before it, an overlap cut short), its own length when they go back
  /// or jump by more than 20 s;
  /// the segment's last sample to `end` (or, without one, to the next PES after the segment when
  /// that is within two of its lengths).
  static func duration(
    of pts: UInt64, nominal: Int64, next: UInt64?, end: AudioSegmentEnd?, nextPTS: UInt64?,
    clock: MediaClock
  ) -> Int64 {
    if let next {
      // (A jump of more than a segment's length is a clip join on the original timeline.)
      let d = FMP4Samples.delta(next, pts)
      return d > 0 && d < 20 * 90_000 ? d : nominal
    }
    if let end {
      let d = end.time - clock.time(pts)
      return end.exact ? (d > 0 ? d : nominal) : max(nominal, d)
    }
    if let nextPTS, case let d = FMP4Samples.delta(nextPTS, pts), d > 0, d <= 2 * nominal {
      return d
    }
    return nominal
  }
}

/// A payload with bytes inserted into another's: `inserts` (in order) go where `base` has
/// written `at` bytes (a transcoded FLAC segment's silent frames between the encoder's).
struct InsertingReader<Base: FMP4PayloadReader>: FMP4PayloadReader {
  var base: Base
  let inserts: [(at: Int64, bytes: [UInt8])]
  var next = 0
  var inside = 0
  var position: Int64 = 0

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError) -> Int {
    var written = 0
    while written < buffer.count {
      if next < inserts.count, inserts[next].at <= position {
        let bytes = inserts[next].bytes
        let n = min(buffer.count - written, bytes.count - inside)
        bytes.withUnsafeBytes { raw in
          UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + n)]).copyMemory(
            from: UnsafeRawBufferPointer(rebasing: raw[inside..<(inside + n)]))
        }
        written += n
        inside += n
        if inside == bytes.count {
          next += 1
          inside = 0
        }
        continue
      }
      var limit = buffer.count - written
      if next < inserts.count { limit = Int(min(Int64(limit), inserts[next].at - position)) }
      let got = try base.read(
        into: UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + limit)]))
      written += got
      position += Int64(got)
      if got < limit {
        // The base ended: what is left to insert follows it.
        if next < inserts.count { position = max(position, inserts[next].at) } else { break }
      }
    }
    return written
  }
}
