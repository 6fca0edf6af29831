import DiscKit

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
  /// DTS. A stream whose first packets do not decode gets none.
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
      guard let format = try? transcoder.format(of: source, packets: jobPackets) else { continue }
      made.append(
        Transcoded(
          pid: pid, source: source, target: .aac,
          track: FMP4Track.aacStereo(language: stream.language),
          codecName: stream.codec, sourceChannels: format.channels, language: stream.language))
      if source == .truehd || source == .dts, [16, 24].contains(format.bitsPerSample) {
        let track = FLACFromLPCM.track(
          FLACFromLPCM.Format(
            channels: format.channels, sampleRate: format.sampleRate,
            bitsPerSample: format.bitsPerSample),
          language: stream.language)
        made.append(
          Transcoded(
            pid: pid, source: source, target: .flac, track: track, codecName: stream.codec,
            sourceChannels: format.channels, language: stream.language))
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

  /// Media segment `index` of the transcoded rendition `rendition`.
  func transcodedSegment(_ rendition: Transcoded, index: Int) throws(StreamingError)
    -> FMP4Segment
  {
    guard let transcoder else {
      throw .disc(DiscKitError(.notFound, "rendition \(rendition.stem)", at: nil, "no transcoder"))
    }
    let segment = segments[index]
    let last = index + 1 == segments.count
    var lookBack = transcodeRollBytes
    let ahead = transcodeRollBytes
    let pid = rendition.pid
    while true {
      let lower = max(0, segment.range.lowerBound - lookBack)
      let upper = min(source.size, segment.range.upperBound + ahead)
      let collected: PESCollector
      do {
        collected = try PESCollector(source: source, range: lower..<upper, pids: [pid])
      } catch {
        throw .disc(error)
      }
      var packets: [AudioTranscodeJob.Packet] = []
      var ownFirst: Int64?
      var next: Int64?
      for packet in Self.decodable(collected.packets[pid] ?? [], rendition.source) {
        guard let pts = packet.pts else { continue }
        let time = FMP4Samples.delta(pts, origin)
        let own = segment.range.contains(packet.offset)
        if own, ownFirst == nil { ownFirst = time }
        if packet.offset >= segment.range.upperBound, next == nil { next = time }
        packets.append(AudioTranscodeJob.Packet(time: time, payload: packet.payload, kept: own))
      }
      if last { next = nil }
      var frames: Range<Int64> = 0..<0
      if rendition.target == .aac {
        func frame(_ t: Int64) -> Int64 { t <= 0 ? 0 : (t + 1919) / 1920 }
        // The title's first segment starts at frame 0 (the frame holding its first sample).
        let first = index == 0 ? 0 : ownFirst.map(frame) ?? next.map(frame) ?? 0
        let end = next.map(frame) ?? (last ? Int64.max : first)
        frames = first..<max(first, end)
      }
      let output = try transcoder.transcode(
        AudioTranscodeJob(
          source: rendition.source, target: rendition.target, packets: packets, frames: frames))
      if output.needsEarlierPackets, lower > 0, lookBack < 64 << 20 {
        lookBack *= 4
        continue
      }
      var samples: [FMP4Writer.Sample] = []
      var payload: [UInt8] = []
      let decodeTime: Int64
      if rendition.target == .aac {
        decodeTime = output.firstSample / 1024 * 1920
        for bytes in output.frames {
          payload += bytes
          samples.append(
            FMP4Writer.Sample(
              size: UInt32(bytes.count), duration: 1920, compositionOffset: 0, isSync: true))
        }
      } else {
        decodeTime = ownFirst ?? next ?? segment.time.ticks
        let rate = Int64(max(1, output.format.sampleRate))
        var count: Int64 = 0
        var ticks: Int64 = 0
        for (bytes, n) in zip(output.frames, output.frameSamples) {
          count += Int64(n)
          let end = (count * 90_000 + rate / 2) / rate
          payload += bytes
          samples.append(
            FMP4Writer.Sample(
              size: UInt32(bytes.count), duration: UInt32(clamping: end - ticks),
              compositionOffset: 0, isSync: true))
          ticks = end
        }
        // The last frame lasts to the next segment's first packet (a clip join's gap or
        // overlap is taken up there, as the copied renditions do).
        if let next, let lastSample = samples.last {
          let d = next - decodeTime - (ticks - Int64(lastSample.duration))
          if d > 0, abs(d - Int64(lastSample.duration)) <= 3000 {
            samples[samples.count - 1].duration = UInt32(d)
          }
        }
      }
      let bytes = payload
      return FMP4Segment(
        sequence: UInt32(index + 1), decodeTime: UInt64(max(0, decodeTime)), samples: samples
      ) { MemoryPayload(bytes: bytes) }
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
