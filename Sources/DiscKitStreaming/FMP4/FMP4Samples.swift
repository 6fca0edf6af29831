import DiscKit

/// Turns collected PES packets into fMP4 samples: video access units (one per PES with a PTS,
/// Annex B converted to 4-byte length prefixes; access unit delimiters and filler data left
/// out) and audio syncframes (AC-3, or E-AC-3 with its dependent substreams as one sample).
package enum FMP4Samples {
  /// Samples and the bytes of their `mdat`, ready for ``FMP4Writer``.
  package struct Run: Sendable {
    /// The first sample's decode time (90 kHz, on the title's continuous timeline, unwrapped).
    package var firstDecodeTime: UInt64?
    package var samples: [FMP4Writer.Sample] = []
    package var payload: [UInt8] = []
    /// Each sample's NAL units (video), for the init segment's parameter sets.
    package var firstNALs: [ArraySlice<UInt8>] = []
    /// The audio frames of the first sample (for the sample entry).
    package var firstFrames: [DolbyAudioFrame] = []
  }

  static let mask: UInt64 = (1 << 33) - 1

  /// The signed difference `a - b` of two 33-bit timestamps.
  static func delta(_ a: UInt64, _ b: UInt64) -> Int64 {
    var d = Int64(bitPattern: (a &- b) & mask)
    if d >= 1 << 32 { d -= 1 << 33 }
    return d
  }

  /// The video samples of `packets` (decode order), times relative to `origin` (90 kHz).
  ///
  /// - Parameters:
  ///   - nextDecodeTime: the DTS of the access unit after the last one (the next segment's first),
  ///     for the last sample's duration; without it the previous sample's duration is used.
  package static func video(
    _ packets: [PESCollector.Packet], hevc: Bool, origin: UInt64, nextDecodeTime: UInt64?,
    keepNALs: Bool = false
  ) -> Run {
    // Access units: a PES with a PTS starts one.
    var units: [(pts: UInt64, dts: UInt64, bytes: [UInt8])] = []
    for packet in packets {
      if let pts = packet.pts {
        units.append((pts, packet.dts ?? pts, packet.payload))
      } else if !units.isEmpty {
        units[units.count - 1].bytes.append(contentsOf: packet.payload)
      }
    }
    var run = Run()
    guard let first = units.first else { return run }
    run.firstDecodeTime = UInt64(max(0, delta(first.dts, origin)))
    var ranges: [[Range<Int>]] = []
    var total = 0
    for unit in units {
      let all = HEVCSampleEntryFacts.nalUnits(unit.bytes[...])
      var kept: [Range<Int>] = []
      for range in all {
        let header = unit.bytes[range.lowerBound]
        let type = hevc ? (header >> 1) & 0x3F : header & 0x1F
        // Access unit delimiters and filler data carry nothing a sample needs.
        if hevc ? (type == 35 || type == 38) : (type == 9 || type == 12) { continue }
        kept.append(range)
        total += 4 + range.count
      }
      ranges.append(kept)
    }
    run.payload.reserveCapacity(total)
    for (k, unit) in units.enumerated() {
      var size = 0
      var sync = false
      for range in ranges[k] {
        let header = unit.bytes[range.lowerBound]
        let type = hevc ? (header >> 1) & 0x3F : header & 0x1F
        if hevc ? (16...21).contains(type) : type == 5 { sync = true }
        let n = UInt32(range.count)
        run.payload.append(UInt8(n >> 24))
        run.payload.append(UInt8(truncatingIfNeeded: n >> 16))
        run.payload.append(UInt8(truncatingIfNeeded: n >> 8))
        run.payload.append(UInt8(truncatingIfNeeded: n))
        run.payload.append(contentsOf: unit.bytes[range])
        size += 4 + range.count
      }
      if k == 0, keepNALs { run.firstNALs = ranges[0].map { units[0].bytes[$0] } }
      let nextDTS = k + 1 < units.count ? units[k + 1].dts : nextDecodeTime
      var duration: Int64
      if let nextDTS, case let d = delta(nextDTS, unit.dts), d > 0, d < 90_000 {
        duration = d
      } else if k > 0 {
        duration = max(1, delta(unit.dts, units[k - 1].dts))
      } else {
        duration = 3754
      }
      run.samples.append(
        FMP4Writer.Sample(
          size: UInt32(size), duration: UInt32(clamping: duration),
          compositionOffset: Int32(clamping: delta(unit.pts, unit.dts)), isSync: sync))
    }
    return run
  }

  /// The FLAC samples of LPCM `packets` (one frame per PES, numbered from its PTS), times
  /// relative to `origin`; frames presented before `origin` are left out.
  package static func flac(
    _ packets: [PESCollector.Packet], origin: UInt64, nextPTS: UInt64?
  ) -> (run: Run, format: FLACFromLPCM.Format?) {
    var run = Run()
    var format: FLACFromLPCM.Format?
    var frames: [(pts: UInt64, bytes: [UInt8], samples: Int)] = []
    for packet in packets {
      guard let pts = packet.pts, delta(pts, origin) >= 0,
        let f = FLACFromLPCM.Format(header: packet.payload[...])
      else { continue }
      format = format ?? f
      let first = UInt64(delta(pts, origin)) * UInt64(f.sampleRate) / 90_000
      guard
        let frame = FLACFromLPCM.frame(packet.payload.dropFirst(4), format: f, firstSample: first)
      else { continue }
      frames.append((pts, frame.bytes, frame.samples))
    }
    guard let first = frames.first, let format else { return (run, nil) }
    run.firstDecodeTime = UInt64(delta(first.pts, origin))
    for (k, frame) in frames.enumerated() {
      let nominal = Int64(frame.samples * 90_000 / format.sampleRate)
      let next = k + 1 < frames.count ? frames[k + 1].pts : nextPTS
      var duration = nominal
      if let next, case let d = delta(next, frame.pts), d > 0, d <= 2 * nominal { duration = d }
      run.payload.append(contentsOf: frame.bytes)
      run.samples.append(
        FMP4Writer.Sample(
          size: UInt32(frame.bytes.count), duration: UInt32(duration), compositionOffset: 0,
          isSync: true))
    }
    return (run, format)
  }

  /// The audio samples of `packets` (AC-3 or E-AC-3 syncframes; for a TrueHD PID only the PES
  /// packets of its AC-3 core, `stream_id_extension` 0x76 or an AC-3 syncword), times relative
  /// to `origin`; frames presented before `origin` are left out.
  package static func dolby(
    _ packets: [PESCollector.Packet], coreOnly: Bool, origin: UInt64, nextPTS: UInt64?
  ) -> Run {
    var frames: [(pts: UInt64, frame: DolbyAudioFrame, bytes: ArraySlice<UInt8>)] = []
    for packet in packets {
      if coreOnly {
        if let ext = packet.streamIDExtension {
          guard ext == 0x76 else { continue }
        } else if packet.payload.count < 2 || packet.payload[0] != 0x0B || packet.payload[1] != 0x77
        {
          continue
        }
      }
      guard let pts = packet.pts else {
        // A PES without PTS continues the previous one's frames (none on a Blu-ray).
        continue
      }
      var t = pts
      for (frame, range) in DolbyAudioFrame.split(packet.payload[...]) {
        frames.append((t, frame, packet.payload[range]))
        // Dependent substreams share their independent frame's time.
        if frame.streamType != 1 {
          t = (t + UInt64(frame.samples * 90_000 / frame.sampleRate)) & mask
        }
      }
    }
    // Samples: an independent frame (AC-3, or E-AC-3 type 0/2) with the dependent ones after it.
    var samples: [(pts: UInt64, frames: [DolbyAudioFrame], bytes: [ArraySlice<UInt8>])] = []
    for entry in frames {
      if entry.frame.streamType == 1, !samples.isEmpty {
        samples[samples.count - 1].frames.append(entry.frame)
        samples[samples.count - 1].bytes.append(entry.bytes)
      } else if entry.frame.streamType != 1 {
        samples.append((entry.pts, [entry.frame], [entry.bytes]))
      }
    }
    samples.removeAll { delta($0.pts, origin) < 0 }
    var run = Run()
    guard let first = samples.first else { return run }
    run.firstDecodeTime = UInt64(delta(first.pts, origin))
    run.firstFrames = first.frames
    for (k, sample) in samples.enumerated() {
      let nominal = Int64(sample.frames[0].samples * 90_000 / sample.frames[0].sampleRate)
      let next = k + 1 < samples.count ? samples[k + 1].pts : nextPTS
      var duration = nominal
      if let next, case let d = delta(next, sample.pts), d > 0, d <= 2 * nominal { duration = d }
      var size = 0
      for bytes in sample.bytes {
        run.payload.append(contentsOf: bytes)
        size += bytes.count
      }
      run.samples.append(
        FMP4Writer.Sample(
          size: UInt32(size), duration: UInt32(duration), compositionOffset: 0, isSync: true))
    }
    return run
  }
}
