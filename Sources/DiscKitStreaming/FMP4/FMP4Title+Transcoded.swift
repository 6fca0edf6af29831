import DiscKit
import Synchronization

/// The renditions an ``AudioTranscoder`` makes: a stereo AAC rendition of every decodable audio
/// stream (`aac-PID`) and a lossless FLAC rendition of every TrueHD and DTS stream (`flac-PID`).
///
/// Segment k of such a rendition holds the audio of the PES packets that start in the video
/// segment's byte range, as the copied renditions do; the transcoder also gets the packets
/// before them (decoder pre-roll: a TrueHD decoder needs a major sync, an AC-3 or DTS decoder
/// one frame of overlap; and the AAC encoder's three frames of pre-roll) and after them (the AAC
/// encoder's look-ahead), so every segment is made alone.
///
/// - AAC: frames of 1024 samples at 48 kHz on one grid from media time 0 (frame n at n × 1920
///   ticks); segment k holds the frames from ⌈t_k / 1920⌉ (0 for the first segment) to
///   ⌈t_(k+1) / 1920⌉, t_k being its first PES's time, so consecutive segments share the grid
///   and `tfdt` chains exactly. The
///   encoder's own delay (1024 samples of priming) is taken off by numbering: the decoded
///   samples are placed by their PTS, and the packet the encoder stamps n × 1024 becomes frame n,
///   so frame n decodes (after frame n − 1) to the disc's samples from n × 1024: no edit list.
///   Each segment's first frame overlaps the previous segment's last as an independent encode
///   of the same samples would: no gap and no click where a player joins segments; only the
///   title's first frame (21 ms) decodes without a predecessor.
/// - FLAC: the decoded samples of the segment's own packets exactly (FLAC frames have no overlap),
///   numbered by their first sample on the media timeline, so the segments decode to the samples
///   of one continuous decode.
extension FMP4Title {
  /// A rendition made by the transcoder.
  package struct Transcoded: Sendable {
    package var pid: UInt16
    package var source: AudioTranscodeSource
    package var target: AudioTranscodeTarget
    package var track: FMP4Track
    /// The disc's codec name (`"TrueHD"`) and the decoded channels.
    package var codecName: String
    package var sourceChannels: Int
    /// The decoded samples' format (a FLAC rendition's sample entry).
    package var format: AudioTranscodeFormat
    package var language: String?
    /// The file-name stem (`aac-4352`).
    package var stem: String { "\(target.rawValue)-\(pid)" }
  }

  /// The transcoder's source coding for a disc stream, nil when it has none.
  static func transcodeSource(_ coding: StreamCodec) -> AudioTranscodeSource? {
    switch coding {
    case .ac3: .ac3
    case .eac3: .eac3
    case .truehd: .truehd
    case .dts, .dtsHDHighResolution, .dtsHDMasterAudio: .dts
    case .lpcm: .lpcm
    default: nil
    }
  }

  /// The packets a decoder of `source` takes (a TrueHD PID's AC-3 core packets left out).
  static func decodable(_ packets: [PESCollector.Packet], _ source: AudioTranscodeSource)
    -> [PESCollector.Packet]
  {
    guard source == .truehd else { return packets }
    return packets.filter {
      if let ext = $0.streamIDExtension { return ext == 0x72 }
      return !($0.payload.count >= 2 && $0.payload[0] == 0x0B && $0.payload[1] == 0x77)
    }
  }

  /// The transcoded renditions of `streams` (main-path audio), from the packets of the first
  /// segment (`packets` by PID): AAC for each stream the transcoder decodes, FLAC for TrueHD and
  /// DTS. Their format is read from the stream's headers (``AudioStreamHeader``: what the
  /// decoder gives, without loading the codec library); only a stream those do not describe
  /// (DTS-HD High Resolution, a DTS core's own extensions, E-AC-3 with dependent substreams) is
  /// probed by the transcoder, decoding its first packets. A stream whose first packets neither
  /// describe nor decode gets none.
  static func transcodedRenditions(
    _ streams: [DiscTitle.Stream], packets: [UInt16: [PESCollector.Packet]], origin: UInt64,
    transcoder: any AudioTranscoder
  ) -> [Transcoded] {
    var made: [Transcoded] = []
    for stream in streams where stream.kind == .audio && stream.subPath == nil {
      guard let source = transcodeSource(stream.coding) else { continue }
      let pid = UInt16(truncatingIfNeeded: stream.id)
      let jobPackets = decodable(packets[pid] ?? [], source).compactMap {
        packet -> AudioTranscodeJob.Packet? in
        packet.pts.map {
          AudioTranscodeJob.Packet(
            time: FMP4Samples.delta($0, origin), payload: packet.payload, kept: true)
        }
      }
      let header = AudioStreamHeader.parse(source, payloads: jobPackets.map { $0.payload[...] })
      guard
        let format = header?.format ?? (try? transcoder.format(of: source, packets: jobPackets))
      else { continue }
      made.append(
        Transcoded(
          pid: pid, source: source, target: .aac,
          track: FMP4Track.aacStereo(language: stream.language),
          codecName: stream.codec, sourceChannels: format.channels, format: format,
          language: stream.language))
      if source == .truehd || source == .dts, [16, 24].contains(format.bitsPerSample) {
        let track = FLACFromLPCM.track(
          FLACFromLPCM.Format(
            channels: format.channels, sampleRate: format.sampleRate,
            bitsPerSample: format.bitsPerSample),
          language: stream.language)
        made.append(
          Transcoded(
            pid: pid, source: source, target: .flac, track: track, codecName: stream.codec,
            sourceChannels: format.channels, format: format, language: stream.language))
      }
    }
    return made
  }

  /// Bytes read before (and, for the look-ahead, after) a segment's range for its neighbouring
  /// audio packets: a quarter of a second of the title's average bit rate, at least 128 KiB.
  var transcodeRollBytes: Int64 {
    let bytes = max(Int64(128 << 10), Int64(averageBandwidth / 8 / 4))
    return (bytes + 191) / 192 * 192
  }

  /// Whether the PES is one a decoder of `source` takes (not a TrueHD PID's AC-3 core frame).
  static func decodable(
    _ header: PESCollector.Packet, _ payload: [UInt8], _ source: AudioTranscodeSource
  )
    -> Bool
  {
    guard source == .truehd else { return true }
    if let ext = header.streamIDExtension { return ext == 0x72 }
    return !(payload.count >= 2 && payload[0] == 0x0B && payload[1] == 0x77)
  }

  /// Where a transcoded rendition's segments start, from the disc's packets alone: each
  /// segment's first decodable PES time (continuous media time), so that the segments and the
  /// playlist agree without encoding anything.
  package struct TranscodedTiming: Sendable {
    /// Each segment's first packet time; a segment without a packet of its own starts where
    /// the next one with packets does.
    var starts: [Int64]
    /// The segments without a packet of their own before the last one with packets: they last
    /// 0 s (the segment before lasts to the next packet) and are left out of the playlist.
    var empty: Set<Int> = []
    /// The last segment with packets of the stream: it ends where its decoded samples do.
    var lastAudio: Int
    /// That segment's duration (ticks) in the rendition, once it was made.
    var lastDuration: Int64?
  }

  /// The transcoded renditions' timings by PID, found when a rendition is first asked for.
  final class TranscodedTimings: Sendable {
    private let table = Mutex<[UInt16: TranscodedTiming]>([:])
    private let lasts = Mutex<[String: Int64]>([:])

    func timing(_ pid: UInt16, make: () throws(StreamingError) -> TranscodedTiming)
      throws(StreamingError) -> TranscodedTiming
    {
      if let known = table.withLock({ $0[pid] }) { return known }
      let made = try make()
      table.withLock { $0[pid] = made }
      return made
    }

    func lastDuration(_ stem: String) -> Int64? { lasts.withLock { $0[stem] } }
    func setLastDuration(_ stem: String, _ ticks: Int64) { lasts.withLock { $0[stem] = ticks } }
  }

  /// The time of the first PES of `pid` that a decoder of `coding` takes and that starts in
  /// `range` (read in small steps from its start).
  static func firstTranscodeTime(
    _ source: any ByteSource, range: Range<Int64>, pid: UInt16, coding: AudioTranscodeSource,
    origin: UInt64
  ) throws(DiscKitError) -> Int64? {
    var stream = PESStream(source: source, range: range, pid: pid, chunk: 192 * 64)
    while let event = try stream.next() {
      guard case .start(let header, let body) = event, let pts = header.pts else { continue }
      if coding == .truehd {
        if let ext = header.streamIDExtension {
          guard ext == 0x72 else { continue }
        } else if body.count >= 2, stream.buffer[body.lowerBound] == 0x0B,
          stream.buffer[body.lowerBound + 1] == 0x77
        {
          continue
        }
      }
      return FMP4Samples.delta(pts, origin)
    }
    return nil
  }

  /// The timing of the transcoded renditions of `pid`.
  func transcodedTiming(_ rendition: Transcoded) throws(StreamingError) -> TranscodedTiming {
    try transcodedTimings.timing(rendition.pid) { () throws(StreamingError) -> TranscodedTiming in
      var found: [Int64?] = []
      for segment in segments {
        do throws(DiscKitError) {
          found.append(
            try Self.firstTranscodeTime(
              continuousSource, range: segment.range, pid: rendition.pid,
              coding: rendition.source, origin: origin))
        } catch {
          throw .disc(error)
        }
      }
      let lastAudio = found.lastIndex { $0 != nil } ?? 0
      var starts = [Int64](repeating: 0, count: found.count)
      var following: Int64 = found[lastAudio] ?? 0
      for k in found.indices.reversed() {
        if let t = found[k], k <= lastAudio { following = t }
        starts[k] = following
      }
      let empty = Set(found.indices.filter { $0 < lastAudio && found[$0] == nil })
      return TranscodedTiming(starts: starts, empty: empty, lastAudio: lastAudio)
    }
  }

  /// The AAC frame that holds media time `t` at its first sample or after it (frame n starts at
  /// n × 1920 ticks).
  static func aacFrame(_ t: Int64) -> Int64 { t <= 0 ? 0 : (t + 1919) / 1920 }

  /// Segment `index`'s AAC frames: from the frame at its first packet (0 for the title's first
  /// segment) to the next segment's first (the last segment with packets: to the end of its
  /// decoded samples, `Int64.max`).
  func aacFrames(_ timing: TranscodedTiming, _ index: Int) -> Range<Int64> {
    func first(_ k: Int) -> Int64 { k == 0 ? 0 : Self.aacFrame(timing.starts[k]) }
    let start = first(index)
    if index == timing.lastAudio { return start..<Int64.max }
    if index > timing.lastAudio { return start..<start }
    return start..<max(start, first(index + 1))
  }

  /// Each segment's duration in the transcoded rendition (its `EXTINF`): the AAC frames'
  /// (1920 ticks each), FLAC's from its first packet to the next segment's; the last segment
  /// with packets its samples' (made once to know them), the ones after it none.
  func transcodedDurations(_ rendition: Transcoded) throws(StreamingError) -> [MediaTime] {
    let timing = try transcodedTiming(rendition)
    if transcodedTimings.lastDuration(rendition.stem) == nil {
      // Planning the segment notes its duration.
      _ = try segment(
        .transcoded(pid: rendition.pid, target: rendition.target), index: timing.lastAudio)
    }
    let last = transcodedTimings.lastDuration(rendition.stem)
    var durations = segments.indices.prefix(timing.lastAudio + 1).map { k in
      if k == timing.lastAudio { return MediaTime(ticks: last ?? 0) }
      switch rendition.target {
      case .aac: return MediaTime(ticks: Int64(aacFrames(timing, k).count) * 1920)
      case .flac: return MediaTime(ticks: max(0, timing.starts[k + 1] - timing.starts[k]))
      }
    }
    // After the last segment with packets: none (left out of the playlist; that segment lasts
    // to the title's end).
    durations += repeatElement(MediaTime.zero, count: segments.count - durations.count)
    return durations
  }

  /// The difference between the clips' own timestamps and the continuous timeline's at
  /// segment `index` (its first video DTS on each), 0 on the continuous timeline.
  func originalOffset(_ index: Int) throws(StreamingError) -> Int64 {
    do {
      return try originalOffset(index, throwing: DiscKitError.self)
    } catch {
      throw .disc(error)
    }
  }

  func originalOffset(_ index: Int, throwing: DiscKitError.Type) throws(DiscKitError) -> Int64 {
    guard timeline == .original else { return 0 }
    let range = segments[index].range
    guard let original = try Self.firstDecodeTime(source, range: range, pid: videoPID),
      let continuous = try Self.firstDecodeTime(continuousSource, range: range, pid: videoPID)
    else { return 0 }
    return FMP4Samples.delta(original, continuous)
  }

  /// Media segment `index` of the transcoded rendition `rendition`: planned by a first pass of
  /// the transcoder over its packets (the frames' sizes; AAC's bytes, at most 24 KiB a second,
  /// are kept), then, for FLAC (a few MB a segment), encoded again as it is sent, so that memory
  /// stays at the codecs' state and a frame or two per request.
  package func transcodedSegment(_ rendition: Transcoded, index: Int) throws(StreamingError)
    -> FMP4Segment
  {
    guard let transcoder else {
      throw .disc(DiscKitError(.notFound, "rendition \(rendition.stem)", at: nil, "no transcoder"))
    }
    let timing = try transcodedTiming(rendition)
    let segment = segments[index]
    let aac = rendition.target == .aac
    let frames = aac ? aacFrames(timing, index) : 0..<0
    let job = AudioTranscodeJob(
      source: rendition.source, target: rendition.target, frames: frames,
      format: aac ? nil : rendition.format)
    // Continuous media time of the first sample, then its `tfdt` on the title's timeline.
    let start = aac ? frames.lowerBound * 1920 : timing.starts[index]
    let offset = try originalOffset(index)
    let decodeTime =
      timeline == .original
      ? UInt64(bitPattern: Int64(bitPattern: origin) &+ start &+ offset) & FMP4Samples.mask
      : UInt64(max(0, start))
    let sequence = UInt32(index + 1)
    // Past the stream's last packet: an empty fragment where the last one ends.
    if index > timing.lastAudio {
      let last = try transcodedDurations(rendition)
      let end = (timing.starts.indices.prefix(timing.lastAudio + 1)).reduce(Int64(0)) {
        $0 + last[$1].ticks
      }
      let at = (aac ? 0 : timing.starts[0]) + end
      let time =
        timeline == .original
        ? UInt64(bitPattern: Int64(bitPattern: origin) &+ at &+ offset) & FMP4Samples.mask
        : UInt64(max(0, at))
      return FMP4Segment.empty(sequence: sequence, decodeTime: time, duration: 0)
    }
    if timing.empty.contains(index) {
      // No packet of the stream here, some after (left out of the playlist).
      return FMP4Segment.empty(sequence: sequence, decodeTime: decodeTime, duration: 0)
    }
    let source = continuousSource
    let origin = origin
    let pid = rendition.pid
    let ahead = aac ? transcodeRollBytes : 0
    var lookBack = transcodeRollBytes
    while true {
      let lower = max(0, segment.range.lowerBound - lookBack)
      let upper = min(source.size, segment.range.upperBound + ahead)
      let retry = lower > 0 && lookBack < 64 << 20
      var pass = TranscodePass(
        transcoder: transcoder, job: job, keep: segment.range, origin: origin, canRetry: retry,
        keepBytes: aac, expected: nil)
      var input = PESStream(source: source, range: lower..<upper, pid: pid)
      do {
        try pass.run(&input)
      } catch {
        throw .disc(error)
      }
      if pass.abandoned {
        lookBack *= 4
        continue
      }
      // The samples' durations: AAC 1920 ticks each; FLAC its samples' at the source rate, the
      // last one lasting to the next segment's first packet (a clip join's gap or overlap
      // taken up there), so that tfdt chains and EXTINF is exact.
      var samples: [FMP4Writer.Sample] = []
      // FLAC's silent frames and where they go in the encoder's bytes.
      var fills: [(at: Int64, bytes: [UInt8])] = []
      if aac {
        samples = pass.frames.map {
          FMP4Writer.Sample(
            size: UInt32($0.size), duration: 1920, compositionOffset: 0, isSync: true)
        }
      } else {
        // Each frame from its first sample (its header's number: the encoder starts a frame
        // at a clip join's packet, numbered by its time) to the next frame's, so the samples
        // after a join are where the title's timeline has them (a gap or overlap taken up by
        // the frame before the join); a frame without a number follows the one before.
        let rate = Int64(max(1, rendition.format.sampleRate))
        func tick(_ sample: Int64) -> Int64 { (sample * 90_000 + rate / 2) / rate }
        var firsts: [Int64] = []
        for frame in pass.frames {
          let previous = firsts.last.map { $0 + Int64(pass.frames[firsts.count - 1].samples) }
          firsts.append(frame.first ?? previous ?? 0)
        }
        // Silence where the stream has none (FLACFromLPCM.silentFrames): between frames and
        // after the last one to the next segment's first packet (not after the stream's last
        // packet: its last frame lasts to the title's end), so the samples run without a gap.
        let end: Int64? = index < timing.lastAudio ? timing.starts[index + 1] : nil
        var entries: [(size: Int, first: Int64, samples: Int64)] = []
        var offset: Int64 = 0
        for (k, frame) in pass.frames.enumerated() {
          entries.append((frame.size, firsts[k], Int64(frame.samples)))
          offset += Int64(frame.size)
          let from = firsts[k] + Int64(frame.samples)
          let next = k + 1 < firsts.count ? firsts[k + 1] : end.map { $0 * rate / 90_000 } ?? from
          guard next - from >= 16 else { continue }
          let silence = FLACFromLPCM.silentFrames(
            channels: rendition.format.channels, bits: rendition.format.bitsPerSample,
            sampleRate: rendition.format.sampleRate, from: UInt64(max(0, from)),
            to: UInt64(max(0, next)))
          for fill in silence {
            fills.append((at: offset, bytes: fill.bytes))
            entries.append((fill.bytes.count, Int64(fill.first), Int64(fill.samples)))
          }
        }
        var ticks: Int64 = 0
        for (k, entry) in entries.enumerated() {
          let end =
            k + 1 < entries.count ? tick(entries[k + 1].first) : tick(entry.first + entry.samples)
          let duration = max(1, end - tick(entry.first))
          samples.append(
            FMP4Writer.Sample(
              size: UInt32(entry.size), duration: UInt32(clamping: duration),
              compositionOffset: 0, isSync: true))
          ticks += duration
        }
        if index < timing.lastAudio, let lastSample = samples.last {
          let d =
            timing.starts[index + 1] - timing.starts[index] - (ticks - Int64(lastSample.duration))
          if d > 0 { samples[samples.count - 1].duration = UInt32(clamping: d) }
        }
      }
      if index == timing.lastAudio, let last = samples.indices.last {
        // The stream's last segment lasts at least to the title's end (its last sample).
        let total = samples.reduce(Int64(0)) { $0 + Int64($1.duration) }
        let short = presentationStarts[segments.count] - (start + total)
        if short > 0 {
          samples[last].duration = UInt32(clamping: Int64(samples[last].duration) + short)
        }
        transcodedTimings.setLastDuration(
          rendition.stem, samples.reduce(Int64(0)) { $0 + Int64($1.duration) })
      }
      if aac {
        let bytes = pass.bytes
        return FMP4Segment(sequence: sequence, decodeTime: decodeTime, samples: samples) {
          MemoryPayload(bytes: bytes)
        }
      }
      let sizes = pass.frames.map(\.size)
      let range = lower..<upper
      let inserts = fills
      return FMP4Segment(sequence: sequence, decodeTime: decodeTime, samples: samples) {
        InsertingReader(
          base: PassReader(
            stream: PESStream(source: source, range: range, pid: pid),
            pass: TranscodePass(
              transcoder: transcoder, job: job, keep: segment.range, origin: origin,
              canRetry: false, keepBytes: false, expected: sizes)), inserts: inserts)
      }
    }
  }

  /// The rendition named by a file-name stem's kind (`audio`, `aac`, `flac`) and PID.
  package func rendition(kind: String, pid text: String) -> Rendition? {
    guard let pid = UInt16(text), String(pid) == text else { return nil }
    switch kind {
    case "audio":
      return audio.contains { $0.pid == pid } ? .audio(pid: pid) : nil
    default:
      guard let target = AudioTranscodeTarget(rawValue: kind),
        transcoded.contains(where: { $0.pid == pid && $0.target == target })
      else { return nil }
      return .transcoded(pid: pid, target: target)
    }
  }

  /// The transcoded rendition `pid`/`target`.
  func transcodedRendition(_ pid: UInt16, _ target: AudioTranscodeTarget) throws(StreamingError)
    -> Transcoded
  {
    guard let found = transcoded.first(where: { $0.pid == pid && $0.target == target }) else {
      throw .disc(
        DiscKitError(.notFound, "\(target.rawValue) rendition \(pid)", at: nil, "no such rendition")
      )
    }
    return found
  }

  /// A transcoded rendition's name in the multivariant playlist (`eng AAC 2.0 (TrueHD 5.1)`).
  static func name(_ t: Transcoded) -> String {
    var parts: [String] = []
    if let language = t.language, !language.isEmpty { parts.append(language) }
    let layout = t.sourceChannels >= 3 ? "\(t.sourceChannels - 1).1" : "\(t.sourceChannels).0"
    switch t.target {
    case .aac: parts.append("AAC 2.0 (\(t.codecName) \(layout))")
    case .flac: parts.append("FLAC \(layout) (\(t.codecName))")
    }
    return parts.joined(separator: " ")
  }
}

/// An encoded segment's payload, from memory.
struct MemoryPayload: FMP4PayloadReader {
  let bytes: [UInt8]
  var position = 0

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError) -> Int {
    let n = min(buffer.count, bytes.count - position)
    guard n > 0 else { return 0 }
    bytes.withUnsafeBytes { raw in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[position..<(position + n)]))
    }
    position += n
    return n
  }
}

extension FMP4Track {
  /// The stereo AAC-LC track (`mp4a` + `esds`, 48 kHz, 2 channels) of the transcoder's AAC
  /// renditions: its AudioSpecificConfig is fixed by that (ISO/IEC 14496-3 1.6.2.1: object
  /// type 2, sampling frequency index 3, channel configuration 2).
  package static func aacStereo(language: String?) -> FMP4Track {
    var esds = MP4BoxWriter()
    esds.fullBox("esds") { w in
      // ES_Descriptor (ISO/IEC 14496-1 7.2.6.5) with a DecoderConfigDescriptor, its
      // DecoderSpecificInfo and an SLConfigDescriptor; one-byte sizes.
      w.u8(0x03)
      w.u8(25)
      w.u16(0)  // ES_ID
      w.u8(0)
      w.u8(0x04)
      w.u8(17)
      w.u8(0x40)  // Audio ISO/IEC 14496-3
      w.u8(0x15)  // streamType 5 (audio) << 2 | reserved 1
      w.u24(0)  // bufferSizeDB
      w.u32(0)  // maxBitrate
      w.u32(0)  // avgBitrate
      w.u8(0x05)
      w.u8(2)
      w.u8(0x11)  // 00010 0011 0010 000: AAC LC, 48 kHz, 2 channels
      w.u8(0x90)
      w.u8(0x06)
      w.u8(1)
      w.u8(0x02)
    }
    var entry = MP4BoxWriter()
    entry.box("mp4a") { w in
      w.zeros(6)
      w.u16(1)
      w.zeros(8)
      w.u16(2)
      w.u16(16)
      w.u32(0)
      w.u32(48_000 << 16)
      w.append(esds.bytes)
    }
    var track = FMP4Track(coding: .aac, sampleEntry: entry.bytes, codecs: "mp4a.40.2")
    track.channels = 2
    track.sampleRate = 48_000
    if let language, language.count == 3, language.allSatisfy({ $0 >= "a" && $0 <= "z" }) {
      track.language = language
    }
    return track
  }
}

extension FLACFromLPCM.Format {
  /// A decoded stream's format (no padding channel).
  package init(channels: Int, sampleRate: Int, bitsPerSample: Int) {
    self.channels = channels
    codedChannels = channels
    self.sampleRate = sampleRate
    self.bitsPerSample = bitsPerSample
  }
}

/// One pass of the transcoder over a segment's PES packets: planning (``frames``, with AAC's
/// bytes) or writing the `mdat`'s payload (each frame checked against the plan's size).
struct TranscodePass: AudioPESPass {
  let transcoder: any AudioTranscoder
  let job: AudioTranscodeJob
  /// The segment's bytes: the packets that start there are kept, the others pre-roll or
  /// look-ahead.
  let keep: Range<Int64>
  let origin: UInt64
  /// Planning: stop once the session asks for earlier packets (the caller starts again).
  let canRetry: Bool
  let keepBytes: Bool
  /// Writing: the planned frame sizes.
  let expected: [Int]?
  var current: (header: PESCollector.Packet, payload: [UInt8])?
  var nextPTS: UInt64?
  var session: (any AudioTranscodeSession)?
  var abandoned = false
  /// Each frame's size, samples and (FLAC) first sample on the media timeline, from its header.
  var frames: [(size: Int, samples: Int, first: Int64?)] = []
  var bytes: [UInt8] = []
  var written = 0
  var differs = false

  mutating func pes(
    _ header: PESCollector.Packet, _ payload: [UInt8], _ out: inout PayloadOutput
  ) throws(DiscKitError) {
    guard !abandoned, let pts = header.pts,
      FMP4Title.decodable(header, payload, job.source)
    else { return }
    let session = try openSession()
    guard !session.satisfied else { return }
    let packet = AudioTranscodeJob.Packet(
      time: FMP4Samples.delta(pts, origin), payload: payload, kept: keep.contains(header.offset))
    do {
      try session.feed(packet) { take($0, $1, &out) }
    } catch {
      throw Self.discError(error)
    }
    if canRetry, session.needsEarlierPackets { abandoned = true }
  }

  mutating func openSession() throws(DiscKitError) -> any AudioTranscodeSession {
    if let session { return session }
    do {
      let made = try transcoder.session(job)
      session = made
      return made
    } catch {
      throw Self.discError(error)
    }
  }

  mutating func take(_ frame: [UInt8], _ samples: Int, _ out: inout PayloadOutput) {
    if let expected {
      if written >= expected.count || expected[written] != frame.count { differs = true }
      written += 1
      out.write(frame)
    } else {
      let first =
        job.target == .flac ? FLACFromLPCM.frameNumber(frame).map { Int64(bitPattern: $0) } : nil
      frames.append((frame.count, samples, first))
      if keepBytes { bytes += frame }
    }
  }

  mutating func end() {}

  mutating func finish(_ out: inout PayloadOutput) throws(DiscKitError) {
    try flush(&out)
    if !abandoned, let session {
      do {
        try session.finish { take($0, $1, &out) }
      } catch {
        throw Self.discError(error)
      }
    }
    if let expected, differs || written != expected.count {
      throw DiscKitError(
        .malformed, "transcoded segment", at: keep.lowerBound,
        "the encoder's second pass gave other frames than its first")
    }
  }

  static func discError(_ error: StreamingError) -> DiscKitError {
    if case .disc(let inner) = error { return inner }
    return DiscKitError(.unsupported, "audio transcoding", at: nil, error.description)
  }
}
