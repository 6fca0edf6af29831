import DiscKit

/// A Blu-ray title as HLS with fragmented MP4 (CMAF) segments, planned on the disc's EP map: each
/// segment is the title's bytes between two random access points about 6 s apart (the same cut
/// as ``HLSPlaylist``), so it starts with the key frame the EP map points at, and any segment is
/// produced alone, in any order, from the disc's bytes: the PES packets that start in its range
/// (the video's access units with their DTS/PTS, Annex B turned into length-prefixed NAL units;
/// each audio stream's syncframes), one `moof` + `mdat` per rendition.
///
/// Times: every track's timescale is 90 kHz and `tfdt` is the decode time on the title's
/// continuous timeline (``DiscKit/TitleTimeline/continuous``: the clips' PTS epochs joined into
/// one) minus ``origin``, the DTS of the title's first access unit; so `tfdt` of segment n + 1
/// is `tfdt` of segment n plus its samples' durations, and a title time `t` is presented at
/// media time `t + ` ``presentationDelay``. On the original timeline (``timeline``) `tfdt` is
/// the clips' own DTS instead, and the playlists mark the joins where it jumps with
/// `EXT-X-DISCONTINUITY`.
///
/// Renditions: the video (H.264 `avc1`, HEVC `hvc1`; a Dolby Vision enhancement layer is left
/// out, so its base layer plays as HDR10; for a profile 7 title also the base layer with the
/// enhancement layer's RPUs as profile 8.1, ``dolbyVision``), and one audio rendition per AC-3
/// or E-AC-3 stream (copied) and per TrueHD stream with an AC-3 core (the core copied, as AC-3).
package struct FMP4Title: Sendable {
  /// One segment: a range of the title's bytes (``DiscKit/DiscTitle/byteSource(timeline:)``).
  package struct Segment: Sendable, Hashable {
    package var range: Range<Int64>
    /// The key frame's title time and the time to the next segment's key frame.
    package var time: MediaTime
    package var duration: MediaTime
  }

  /// An audio rendition.
  package struct Audio: Sendable {
    package var pid: UInt16
    package var track: FMP4Track
    /// The TrueHD stream's AC-3 core (the PID also carries TrueHD).
    package var core: Bool
    /// LPCM rewritten as FLAC.
    package var lpcm = false
    /// The disc's codec name (`"AC-3"`, `"TrueHD"`).
    package var codecName: String
    package var language: String?
    /// Each segment's duration in this rendition (its frames', which start and end a little
    /// apart from the video's).
    package var durations: [MediaTime] = []
    /// Its segments' bit rate (`moof` + `mdat`), measured on the last segment with audio over
    /// its frames' own durations (AC-3 and E-AC-3 have a constant one).
    package var bitRate = 0
    /// Its average over the title: `bitRate` where it has audio, the planned segments' bytes,
    /// an empty fragment's where it has none.
    package var averageBitRate = 0
    /// Each segment's first frame (media time on the continuous timeline), nil for a segment
    /// without audio (an empty fragment).
    var starts: [Int64?] = []
    /// Where each segment's audio ends (the next one's `tfdt`).
    var ends: [AudioSegmentEnd] = []
    /// A silent frame of the stream's own header (``SilentDolbyFrame``: AC-3, a TrueHD
    /// stream's AC-3 core, E-AC-3 of one independent substream), the fill where the disc's
    /// stream has no frame, and its duration in ticks. With it, every segment is listed and the
    /// samples run without a gap (a time of at least two frames between frames filled, a
    /// segment without frames all fill); without it (E-AC-3 with dependent substreams, FLAC
    /// from LPCM), the frame before a gap lasts through it and a segment without frames is left
    /// out of the playlist.
    package var silence: [UInt8]?
    var fillDuration: Int64 = 0
  }

  package let key: String
  package let angle: Int
  /// The timestamps the segments carry (`tfdt`): the title's continuous timeline (default) or
  /// the clips' original ones.
  package let timeline: TitleTimeline
  let clock: MediaClock
  /// The segments that start where the timestamps jump (the original timeline's clip joins):
  /// `EXT-X-DISCONTINUITY` before them.
  package let discontinuities: Set<Int>
  package let segments: [Segment]
  package let videoPID: UInt16
  package let video: FMP4Track
  /// The Dolby Vision profile 8.1 rendition of a profile 7 title (FMP4Title+DolbyVision.swift).
  package let dolbyVision: DolbyVisionVideo?
  package let audio: [Audio]
  /// The DTS (90 kHz, continuous timeline) media time 0 stands for.
  package let origin: UInt64
  /// Media time of title time 0 (the first picture's composition offset).
  package let presentationDelay: MediaTime
  /// Each video segment's start on the media timeline (presentation, continuous), and the
  /// title's end: where audio without frames there starts and ends (empty fragments).
  let presentationStarts: [Int64]
  /// Frames per second, from the stream number table.
  package let frameRate: Double?
  /// Peak and average bit rate of the title's transport stream bytes (all streams, bits per
  /// second): an upper bound of the fMP4 renditions' (``bitRates``).
  package let bandwidth: Int
  package let averageBandwidth: Int
  /// The fMP4 renditions' bit rates, for `BANDWIDTH` and `AVERAGE-BANDWIDTH`.
  package let bitRates: FMP4BitRates
  /// The disc's streams left out (`0x1101 DTS-HD MA`, …).
  package let leftOut: [String]
  let source: any ByteSource
  /// The title's bytes on the continuous timeline (the transcoder's input).
  let continuousSource: any ByteSource
  /// The segments planned lately (a plan is its `moof` and, for video, where its NAL units are:
  /// kilobytes), so that clients asking for the same segment read its bytes once, not twice;
  /// clients asking at once for a segment not yet planned share one planning.
  package let plans = SingleFlightCache<FMP4SegmentKey, FMP4Segment>(capacity: 64)
  /// The AAC and FLAC renditions a transcoder makes (FMP4Title+Transcoded.swift).
  package let transcoded: [Transcoded]
  let transcoder: (any AudioTranscoder)?
  /// Where the transcoded renditions' segments start (found when first asked for).
  let transcodedTimings = TranscodedTimings()

  /// Plans `title` (a Blu-ray title; reads its first segment for the parameter sets and the
  /// audio's first frames); with a `transcoder`, the AAC and FLAC renditions too.
  ///
  /// - Throws: ``StreamingError/needsTransportStream(title:)`` for a DVD title,
  ///   ``StreamingError/badRequest(_:)`` when the title's video is not H.264 or HEVC,
  ///   ``StreamingError/disc(_:)`` when its bytes cannot be read.
  package init(
    title: DiscTitle, timeline: TitleTimeline = .continuous,
    transcoder: (any AudioTranscoder)? = nil
  ) throws(StreamingError) {
    let playlist = try HLSPlaylist(title: title)
    key = title.key
    angle = title.angle
    var peak = 0.0
    var bits = 0.0
    var seconds = 0.0
    var segments: [Segment] = []
    var planned: Int64 = 0
    for segment in playlist.segments {
      let start = segment.offset / 188 * 192
      let end = (segment.offset + segment.length) / 188 * 192
      segments.append(
        Segment(range: start..<end, time: MediaTime(ticks: planned), duration: segment.duration))
      planned += segment.duration.ticks
      if segment.duration.seconds > 0 {
        peak = max(peak, Double(segment.length) * 8 / segment.duration.seconds)
        bits += Double(segment.length) * 8
        seconds += segment.duration.seconds
      }
    }
    bandwidth = Int(peak.rounded(.up))
    averageBandwidth = seconds > 0 ? Int((bits / seconds).rounded(.up)) : 0
    let streams = title.streams
    guard
      let videoStream = streams.first(where: {
        $0.kind == .video && $0.enhancementLayer != true && $0.subPath == nil
      }), videoStream.coding == .h264 || videoStream.coding == .hevc
    else {
      throw .badRequest(
        "title \(title.key): fMP4 HLS carries H.264 and HEVC video; this title's is \(streams.first { $0.kind == .video }?.codec ?? "missing") (use stream or index.m3u8)"
      )
    }
    let hevc = videoStream.coding == .hevc
    videoPID = UInt16(truncatingIfNeeded: videoStream.id)
    self.timeline = timeline
    // Planned on the continuous timeline (durations, origin); served on the one asked for (the
    // same bytes, other timestamps).
    let continuous: any ByteSource
    do {
      continuous = try title.byteSource(timeline: .continuous)
      source = timeline == .original ? try title.byteSource(timeline: .original) : continuous
      continuousSource = continuous
      frameRate = try title.videoParameters(of: videoStream)?.frameRate
    } catch {
      throw .disc(error)
    }
    var candidates: [(DiscTitle.Stream, Bool)] = []
    var lpcmStreams: [DiscTitle.Stream] = []
    var leftOut: [String] = []
    for stream in streams where stream.kind == .audio {
      switch stream.coding {
      case .ac3 where stream.subPath == nil, .eac3 where stream.subPath == nil:
        candidates.append((stream, false))
      case .truehd where stream.subPath == nil:
        candidates.append((stream, true))
      case .lpcm where stream.subPath == nil:
        lpcmStreams.append(stream)
      default:
        leftOut.append("0x" + String(stream.id, radix: 16, uppercase: true) + " " + stream.codec)
      }
    }
    guard let first = segments.first else {
      throw .disc(DiscKitError(.malformed, "title \(title.key)", at: nil, "no segment"))
    }
    var pids: Set<UInt16> = [videoPID]
    for (stream, _) in candidates { pids.insert(UInt16(truncatingIfNeeded: stream.id)) }
    for stream in lpcmStreams { pids.insert(UInt16(truncatingIfNeeded: stream.id)) }
    if transcoder != nil {
      for stream in streams where stream.kind == .audio && stream.subPath == nil {
        if Self.transcodeSource(stream.coding) != nil {
          pids.insert(UInt16(truncatingIfNeeded: stream.id))
        }
      }
    }
    let collected: PESCollector
    do {
      // The first access unit (parameter sets) and the audio's first frames (origin, sample
      // entries, a decoder's format): not the whole segment (a UHD one is 30 MB).
      var limits: [UInt16: Int] = [:]
      for pid in pids { limits[pid] = pid == videoPID ? 1 : 256 }
      collected = try PESCollector(
        source: continuous, range: first.range, pids: pids, limits: limits)
    } catch {
      throw .disc(error)
    }
    let videoPackets = collected.packets[videoPID] ?? []
    guard let firstUnit = videoPackets.first(where: { $0.pts != nil }), let pts = firstUnit.pts
    else {
      throw .disc(
        DiscKitError(.malformed, "title \(title.key)", at: first.range.lowerBound, "no video PES"))
    }
    // Media time 0: the earliest of the first video DTS and the first audio PTS (within a
    // second of it), so that no stream's first frame falls before it.
    var origin = firstUnit.dts ?? pts
    for (stream, core) in candidates + lpcmStreams.map({ ($0, false) }) {
      let packets = (collected.packets[UInt16(truncatingIfNeeded: stream.id)] ?? []).filter {
        !core || $0.streamIDExtension == 0x76
          || ($0.streamIDExtension == nil && $0.payload.starts(with: [0x0B, 0x77]))
      }
      if let audioPTS = packets.first(where: { $0.pts != nil })?.pts,
        case let d = FMP4Samples.delta(audioPTS, origin), d < 0, d > -90_000
      {
        origin = audioPTS
      }
    }
    self.origin = origin
    clock = MediaClock(origin: origin, original: timeline == .original)
    presentationDelay = MediaTime(ticks: max(0, FMP4Samples.delta(pts, origin)))
    // The real durations: each segment's first DTS (one small read at its start), the last
    // segment's samples.
    var decodeTimes: [Int64] = []
    for segment in segments {
      let dts: UInt64?
      do {
        dts = try Self.firstDecodeTime(continuous, range: segment.range, pid: videoPID)
      } catch {
        throw .disc(error)
      }
      decodeTimes.append(dts.map { FMP4Samples.delta($0, origin) } ?? -1)
    }
    let run = FMP4Samples.video(
      videoPackets, hevc: hevc, origin: origin, nextDecodeTime: nil, keepNALs: true)
    guard let track = FMP4Track.video(coding: hevc ? .hevc : .avc, nals: run.firstNALs) else {
      throw .disc(
        DiscKitError(
          .malformed, "title \(title.key) video", at: first.range.lowerBound,
          "the first access unit has no readable parameter sets"))
    }
    video = track
    // A failure here leaves the title without the Dolby Vision rendition, never without video.
    dolbyVision =
      (try? Self.dolbyVisionVideo(
        streams: streams, source: continuous, first: first.range, video: track)) ?? nil
    // The last segment's duration: its samples'. Its plan (and the first segment's) measure
    // what of the title's bytes the video's fMP4 samples are (FMP4BitRates).
    var lastDuration: Int64 = 0
    var calibration: [FMP4BitRates.Calibration] = []
    for k in Set([segments.count - 1, 0]).sorted() where k >= 0 {
      do {
        var input = PESStream(source: continuous, range: segments[k].range, pid: videoPID)
        var pass = VideoPass(
          hevc: hevc, clock: MediaClock(origin: origin), firstPictureOnly: false)
        pass.last = k == segments.count - 1
        try pass.run(&input)
        let duration = pass.plan.samples.reduce(0) { $0 + Int64($1.duration) }
        if k == segments.count - 1 { lastDuration = duration }
        calibration.append(
          FMP4BitRates.Calibration(
            index: k, packets: input.packetsInRange,
            bytes: FMP4Segment.size(of: pass.plan.samples)))
      } catch {
        throw .disc(error)
      }
    }
    var time: Int64 = 0
    for k in segments.indices {
      let start = decodeTimes[k]
      let next = k + 1 < segments.count ? decodeTimes[k + 1] : start + lastDuration
      if start >= 0, next > start {
        segments[k].duration = MediaTime(ticks: next - start)
      }
      segments[k].time = MediaTime(ticks: time)
      time += segments[k].duration.ticks
    }
    self.segments = segments
    let videoRates = FMP4BitRates.video(
      segments: segments, calibration: calibration, frameRate: frameRate)
    // The I-frame playlist's segments (each segment's first picture) of every segment of a
    // short title, of 16 spread over a long one: a picture each.
    var iFrameSizes: [Int: Int64] = [:]
    let picks =
      segments.count <= 16
      ? Array(segments.indices) : (0..<16).map { $0 * (segments.count - 1) / 15 }
    for k in Set(picks) {
      do {
        var input = PESStream(
          source: continuous, range: segments[k].range, pid: videoPID, firstOnly: true)
        var pass = VideoPass(hevc: hevc, clock: MediaClock(origin: origin), firstPictureOnly: true)
        try pass.run(&input)
        if !pass.plan.samples.isEmpty { iFrameSizes[k] = FMP4Segment.size(of: pass.plan.samples) }
      } catch {
        throw .disc(error)
      }
    }
    let iFrameRate = FMP4BitRates.iFrames(
      segments: segments, measured: iFrameSizes,
      videoSizes: FMP4BitRates.videoSizes(
        segments: segments, calibration: calibration, frameRate: frameRate))
    // The original timeline: the clips' own timestamps, which jump where a clip starts on
    // another epoch (EXT-X-DISCONTINUITY there).
    var discontinuities: Set<Int> = []
    if timeline == .original {
      var previous: UInt64?
      for k in segments.indices {
        let dts: UInt64?
        do {
          dts = try Self.firstDecodeTime(source, range: segments[k].range, pid: videoPID)
        } catch {
          throw .disc(error)
        }
        if k > 0, let dts, let previous, decodeTimes[k] >= 0, decodeTimes[k - 1] >= 0,
          (dts &- previous) & FMP4Samples.mask
            != UInt64(bitPattern: decodeTimes[k] - decodeTimes[k - 1]) & FMP4Samples.mask
        {
          discontinuities.insert(k)
        }
        previous = dts
      }
    }
    self.discontinuities = discontinuities
    var audio: [Audio] = []
    for (stream, core) in candidates {
      let pid = UInt16(truncatingIfNeeded: stream.id)
      let frames = FMP4Samples.dolby(
        collected.packets[pid] ?? [], coreOnly: core, origin: origin, nextPTS: nil
      ).firstFrames
      guard let track = FMP4Track.dolby(frames, language: stream.language) else {
        leftOut.append("0x" + String(stream.id, radix: 16, uppercase: true) + " " + stream.codec)
        continue
      }
      var entry = Audio(
        pid: pid, track: track, core: core, codecName: stream.codec, language: stream.language)
      // The fill: a silent frame made from the stream's first AC-3 frame.
      for packet in collected.packets[pid] ?? [] where packet.pts != nil {
        if core,
          packet.streamIDExtension.map({ $0 != 0x76 }) ?? !packet.payload.starts(with: [0x0B, 0x77])
        {
          continue
        }
        let frames = DolbyAudioFrame.split(packet.payload[...])
        guard let (frame, range) = frames.first else { continue }
        // (E-AC-3 with dependent substreams, 7.1: no fill.)
        entry.silence =
          SilentDolbyFrame.ac3(from: packet.payload[range])
          ?? (frames.contains { $0.frame.streamType == 1 }
            ? nil : SilentDolbyFrame.eac3(from: packet.payload[range]))
        entry.fillDuration = Int64(frame.samples * 90_000 / frame.sampleRate)
        break
      }
      audio.append(entry)
    }
    for stream in lpcmStreams {
      let pid = UInt16(truncatingIfNeeded: stream.id)
      guard
        let format = FMP4Samples.flac(collected.packets[pid] ?? [], origin: origin, nextPTS: nil)
          .format
      else {
        leftOut.append("0x" + String(stream.id, radix: 16, uppercase: true) + " " + stream.codec)
        continue
      }
      var entry = Audio(
        pid: pid, track: FLACFromLPCM.track(format, language: stream.language), core: false,
        codecName: stream.codec, language: stream.language)
      entry.lpcm = true
      audio.append(entry)
    }
    // Each audio rendition's segments: from its first frame in a segment to the next frame
    // after it, in the next segment with audio (its segments hold the frames whose PES start in
    // the range, not the video's times), the last one with audio to at least the title's end;
    // a segment without audio is left out of its playlist (ffmpeg's HLS demuxer, reading several
    // renditions at once, gives an empty fragment's predecessor's last packet again).
    let base = max(0, decodeTimes.first ?? 0) + presentationDelay.ticks
    let videoStarts = segments.map { base + $0.time.ticks } + [base + time]
    presentationStarts = videoStarts
    for k in audio.indices {
      var starts: [Int64?] = []
      for segment in segments {
        do {
          starts.append(
            try Self.firstAudioTime(
              continuous, range: segment.range, audio: audio[k], origin: origin))
        } catch {
          throw .disc(error)
        }
      }
      if audio[k].silence != nil {
        do {
          try Self.planFill(
            &audio[k], starts: starts, segments: segments, videoStarts: videoStarts,
            source: continuous, origin: origin)
        } catch {
          throw .disc(error)
        }
        continue
      }
      var ends: [AudioSegmentEnd] = []
      var durations: [MediaTime] = []
      var plannedBytes: [Int: Int64] = [:]
      var previous: Int64 = 0
      for n in segments.indices {
        let following = n + 1 < segments.count ? starts[n + 1] : nil
        let nextAudio = starts[(n + 1)...].first { $0 != nil } ?? nil
        var end = AudioSegmentEnd(
          time: nextAudio ?? videoStarts[segments.count], exact: nextAudio != nil)
        if let start = starts[n] {
          if following == nil {
            // Its frames' end (and, the latest such segment, the rendition's bit rate).
            var input = PESStream(source: continuous, range: segments[n].range, pid: audio[k].pid)
            let clock = MediaClock(origin: origin)
            var total: Int64 = 0
            var nominal: Int64 = 0
            var bytes: Int64 = 0
            do {
              if audio[k].lpcm {
                var pass = FLACPass(clock: clock, writing: false)
                pass.segmentEnd = end
                try pass.run(&input)
                total = pass.plan.samples.reduce(0) { $0 + Int64($1.duration) }
                nominal = pass.nominalDuration
                bytes = FMP4Segment.size(of: pass.plan.samples)
              } else {
                var pass = DolbyPass(coreOnly: audio[k].core, clock: clock, writing: false)
                pass.segmentEnd = end
                try pass.run(&input)
                total = pass.plan.samples.reduce(0) { $0 + Int64($1.duration) }
                nominal = pass.kept.reduce(0) { $0 + $1.nominal }
                bytes = FMP4Segment.size(of: pass.plan.samples)
              }
            } catch {
              throw .disc(error)
            }
            if nominal > 0 {
              audio[k].bitRate = Int((Double(bytes) * 8 * 90_000 / Double(nominal)).rounded(.up))
            }
            plannedBytes[n] = bytes
            end.time = start + total
          }
          durations.append(MediaTime(ticks: max(0, end.time - start)))
        } else {
          end.time = previous
          durations.append(.zero)
        }
        ends.append(end)
        previous = end.time
      }
      audio[k].starts = starts
      audio[k].ends = ends
      audio[k].durations = durations
      // The average: the planned segments' bytes, the others' at `bitRate` (empty: 80 bytes).
      var bits = 0.0
      var seconds = 0.0
      for n in segments.indices {
        let duration = durations[n].seconds
        seconds += duration
        if let bytes = plannedBytes[n] {
          bits += Double(bytes) * 8
        } else {
          bits += starts[n] == nil ? 640 : Double(audio[k].bitRate) * duration
        }
      }
      audio[k].averageBitRate =
        seconds > 0 ? Int((bits / seconds).rounded(.up)) : audio[k].bitRate
    }
    self.audio = audio
    self.transcoder = transcoder
    let transcoded =
      transcoder.map {
        Self.transcodedRenditions(
          streams, packets: collected.packets, origin: origin, transcoder: $0)
      } ?? []
    self.transcoded = transcoded
    var audioRates: [String: Int] = [:]
    var audioAverages: [String: Int] = [:]
    for a in audio {
      audioRates["audio-\(a.pid)"] = a.bitRate
      audioAverages["audio-\(a.pid)"] = a.averageBitRate
    }
    for t in transcoded { audioRates[t.stem] = FMP4BitRates.transcoded(t) }
    bitRates = FMP4BitRates(
      videoPeak: videoRates.peak, videoAverage: videoRates.average, audio: audioRates,
      audioAverage: audioAverages, iFrames: iFrameRate)
    self.leftOut = leftOut.filter { entry in
      !transcoded.contains {
        entry.hasPrefix("0x" + String($0.pid, radix: 16, uppercase: true) + " ")
      }
    }
  }

  /// The segments of a copied rendition with a fill (`audio.silence`): segment n runs from its
  /// first frame (a segment without frames: from the video segment's start, or where the frames
  /// before it end when that is later) to where segment n + 1 starts, the last one to the
  /// title's end or its last frame's; the frames inside keep their times and the fill takes up
  /// what is between them (DolbyPass), so `tfdt` chains by `EXTINF` and no segment is left out.
  static func planFill(
    _ audio: inout Audio, starts: [Int64?], segments: [Segment], videoStarts: [Int64],
    source: any ByteSource, origin: UInt64
  ) throws(DiscKitError) {
    var ends: [AudioSegmentEnd] = []
    var durations: [MediaTime] = []
    var spanStart = starts.first.flatMap { $0 } ?? videoStarts[0]
    for n in segments.indices {
      let last = n + 1 == segments.count
      // Where this segment's own content ends: its last frame's end (read when the segment
      // after has no frame of its own), or one fill frame on.
      var natural = spanStart + audio.fillDuration
      if starts[n] != nil, last || starts[n + 1] == nil {
        var input = PESStream(source: source, range: segments[n].range, pid: audio.pid)
        let clock = MediaClock(origin: origin)
        var pass = DolbyPass(coreOnly: audio.core, clock: clock, writing: false)
        try pass.run(&input)
        if let final = pass.kept.last {
          natural = clock.time(final.pts) + final.nominal
          let nominal = pass.kept.reduce(0) { $0 + $1.nominal }
          if nominal > 0 {
            audio.bitRate = Int(
              (Double(FMP4Segment.size(of: pass.plan.samples)) * 8 * 90_000 / Double(nominal))
                .rounded(.up))
          }
        }
      }
      // The next segment's start: its first frame; after a segment of fill only, its video's
      // start when its first frame is later (fill before that frame, so that no segment runs
      // far past its video's).
      var next = max(videoStarts[last ? segments.count : n + 1], natural)
      if !last, let first = starts[n + 1] {
        next = starts[n] == nil ? min(first, next) : first
      }
      ends.append(AudioSegmentEnd(time: next, exact: true))
      durations.append(MediaTime(ticks: max(0, next - spanStart)))
      spanStart = max(spanStart, next)
    }
    audio.starts = starts
    audio.ends = ends
    audio.durations = durations
    // Every segment is frames of one size at the stream's rate.
    audio.averageBitRate = audio.bitRate
  }

  /// The time of the first audio frame of `audio` in `range` (its first PES there with a PTS at
  /// or after `origin`; for a TrueHD stream's AC-3 core, its first core PES).
  static func firstAudioTime(
    _ source: any ByteSource, range: Range<Int64>, audio: Audio, origin: UInt64
  ) throws(DiscKitError) -> Int64? {
    var stream = PESStream(source: source, range: range, pid: audio.pid, chunk: 192 * 64)
    while let event = try stream.next() {
      guard case .start(let header, let body) = event, let pts = header.pts else { continue }
      if audio.core {
        if let ext = header.streamIDExtension {
          guard ext == 0x76 else { continue }
        } else if body.count < 2 || stream.buffer[body.lowerBound] != 0x0B
          || stream.buffer[body.lowerBound + 1] != 0x77
        {
          continue
        }
      }
      let time = FMP4Samples.delta(pts, origin)
      if time >= 0 { return time }
    }
    return nil
  }

  /// The DTS (or PTS) of the first PES of `pid` that starts in `range`, read in small steps.
  static func firstDecodeTime(_ source: any ByteSource, range: Range<Int64>, pid: UInt16)
    throws(DiscKitError) -> UInt64?
  {
    var offset = range.lowerBound
    var step = 64 * 192
    var buffer = [UInt8](repeating: 0, count: step)
    while offset < range.upperBound {
      if buffer.count < step { buffer = [UInt8](repeating: 0, count: step) }
      let count = Int(min(Int64(step), range.upperBound - offset)) / 192 * 192
      guard count > 0 else { break }
      let outcome = buffer.withUnsafeMutableBytes { raw in
        Result { () throws(DiscKitError) -> Int in
          try source.readFully(
            at: offset, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]))
        }
      }
      let got = try outcome.get()
      var i = 0
      while i + 192 <= got {
        let p = i + 4
        i += 192
        guard buffer[p] == 0x47, buffer[p + 1] & 0x40 != 0,
          UInt16(buffer[p + 1] & 0x1F) << 8 | UInt16(buffer[p + 2]) == pid,
          buffer[p + 3] & 0x10 != 0
        else { continue }
        var start = p + 4
        if buffer[p + 3] & 0x20 != 0 { start += 1 + Int(buffer[p + 4]) }
        guard start < p + 188 else { continue }
        let header = PESCollector.header(buffer[start..<(p + 188)], offset: 0)
        if let time = header.dts ?? header.pts { return time }
      }
      guard got == count else { break }
      offset += Int64(got)
      step = min(step * 4, 4 << 20)
    }
    return nil
  }

  // MARK: Segments

  /// What a rendition file is.
  package enum Rendition: Sendable, Hashable {
    case video
    /// The video with the enhancement layer's RPUs as Dolby Vision profile 8.1.
    case dolbyVision
    case audio(pid: UInt16)
    /// An AAC or FLAC rendition the transcoder makes of the stream on `pid`.
    case transcoded(pid: UInt16, target: AudioTranscodeTarget)
  }

  /// The initialization segment of `rendition`.
  package func initSegment(_ rendition: Rendition) throws(StreamingError) -> [UInt8] {
    FMP4Writer.initSegment(try track(rendition))
  }

  func track(_ rendition: Rendition) throws(StreamingError) -> FMP4Track {
    switch rendition {
    case .video: return video
    case .dolbyVision:
      guard let dolbyVision else {
        throw .disc(
          DiscKitError(.notFound, "Dolby Vision rendition", at: nil, "not a profile 7 title"))
      }
      return dolbyVision.track
    case .audio(let pid):
      guard let audio = audio.first(where: { $0.pid == pid }) else {
        throw .disc(DiscKitError(.notFound, "audio rendition \(pid)", at: nil, "no such rendition"))
      }
      return audio.track
    case .transcoded(let pid, let target):
      return try transcodedRendition(pid, target).track
    }
  }

  /// Media segment `index` of `rendition`, planned (its `moof`) and ready to write its `mdat`'s
  /// payload a buffer at a time (``FMP4Segment``); with `keyFrameOnly`, the video segment's
  /// first sample alone (the I-frame playlist's), lasting the whole segment.
  ///
  /// Planning reads the segment's bytes once, keeping only the samples' table (and, for video,
  /// where each NAL unit is); writing reads them again.
  package func segment(_ rendition: Rendition, index: Int, keyFrameOnly: Bool = false)
    throws(StreamingError) -> FMP4Segment
  {
    guard segments.indices.contains(index) else {
      throw .disc(
        DiscKitError(
          .notFound, "segment \(index)", at: nil, "the title has \(segments.count) segments"))
    }
    let key = FMP4SegmentKey(rendition: rendition, index: index, keyFrameOnly: keyFrameOnly)
    return try plans.value(key) { () throws(StreamingError) -> FMP4Segment in
      if case .transcoded(let pid, let target) = rendition {
        // Planned by a first pass of the transcoder (AAC keeps its bytes, FLAC encodes again).
        return try transcodedSegment(try transcodedRendition(pid, target), index: index)
      }
      return try plan(rendition, index: index, keyFrameOnly: keyFrameOnly)
    }
  }

  private func plan(_ rendition: Rendition, index: Int, keyFrameOnly: Bool)
    throws(StreamingError) -> FMP4Segment
  {
    let segment = segments[index]
    let source = source
    let clock = clock
    let sequence = UInt32(index + 1)
    do throws(DiscKitError) {
      switch rendition {
      case .transcoded(let pid, let target):
        throw DiscKitError(
          .notFound, "\(target.rawValue) rendition \(pid)", at: nil, "made by the transcoder")
      case .video, .dolbyVision:
        let pid = videoPID
        let hevc = video.coding == .hevc
        let last = index + 1 == segments.count
        @Sendable func stream() -> PESStream {
          PESStream(source: source, range: segment.range, pid: pid, firstOnly: keyFrameOnly)
        }
        var planning = VideoPass(hevc: hevc, clock: clock, firstPictureOnly: keyFrameOnly)
        planning.last = last
        var input = stream()
        try planning.run(&input)
        var plan = planning.plan
        if keyFrameOnly, !plan.samples.isEmpty {
          plan.samples[0].duration = UInt32(clamping: segment.duration.ticks)
        }
        if rendition == .dolbyVision {
          guard let dolbyVision else {
            throw DiscKitError(
              .notFound, "Dolby Vision rendition", at: nil, "not a profile 7 title")
          }
          let found = try dolbyVisionRPUs(
            dolbyVision, range: segment.range, times: plan.presentationTimes)
          for k in plan.samples.indices where k < found.rpus.count && !found.rpus[k].isEmpty {
            plan.samples[k].size += UInt32(4 + found.rpus[k].count)
          }
          plan.appended = found.rpus
          dolbyVision.fallbacks.add(found.missing, found.failure)
        }
        plan.presentationTimes = []
        let done = plan
        return FMP4Segment(
          sequence: sequence, decodeTime: plan.firstDecodeTime ?? 0, samples: plan.samples
        ) {
          PassReader(
            stream: stream(),
            pass: VideoPass(
              hevc: hevc, clock: clock, firstPictureOnly: keyFrameOnly, written: done))
        }
      case .audio(let pid):
        guard let audio = audio.first(where: { $0.pid == pid }) else {
          throw DiscKitError(.notFound, "audio rendition \(pid)", at: nil, "no such rendition")
        }
        @Sendable func stream() -> PESStream {
          PESStream(source: source, range: segment.range, pid: pid)
        }
        // Media time on the continuous timeline as this timeline's.
        let offset = try originalOffset(index, throwing: DiscKitError.self)
        func onTimeline(_ t: Int64) -> Int64 {
          timeline == .original
            ? Int64(
              bitPattern: UInt64(bitPattern: Int64(bitPattern: origin) &+ t &+ offset)
                & FMP4Samples.mask) : t
        }
        var end: AudioSegmentEnd?
        if audio.ends.indices.contains(index) {
          end = audio.ends[index]
          end?.time = onTimeline(audio.ends[index].time)
          if audio.starts[index] == nil, let silence = audio.silence, audio.fillDuration > 0,
            case let from = index > 0 ? audio.ends[index - 1].time : presentationStarts[0],
            audio.ends[index].time > from
          {
            // No frame of the stream in the segment: fill only.
            let duration = audio.ends[index].time - from
            let count = Int(max(1, duration / audio.fillDuration))
            return FMP4Segment(
              sequence: sequence, decodeTime: UInt64(max(0, onTimeline(from))),
              samples: FMP4Writer.Sample.fill(
                frame: silence, count: count, duration: duration, each: audio.fillDuration)
            ) { RepeatedFrames(frame: silence, count: count) }
          }
          if audio.starts[index] == nil {
            // No audio in the segment (left out of the playlist): an empty fragment where the
            // one before ends.
            let from = index > 0 ? audio.ends[index - 1].time : 0
            return FMP4Segment.empty(
              sequence: sequence, decodeTime: UInt64(max(0, onTimeline(from))), duration: 0)
          }
        }
        var input = stream()
        if audio.lpcm {
          var planning = FLACPass(clock: clock, writing: false)
          planning.segmentEnd = end
          try planning.run(&input)
          return FMP4Segment(
            sequence: sequence, decodeTime: planning.plan.firstDecodeTime ?? 0,
            samples: planning.plan.samples
          ) { PassReader(stream: stream(), pass: FLACPass(clock: clock, writing: true)) }
        }
        let core = audio.core
        var planning = DolbyPass(coreOnly: core, clock: clock, writing: false)
        planning.segmentEnd = end
        planning.silence = audio.silence
        planning.fillDuration = audio.fillDuration
        if index > 0, audio.ends.indices.contains(index - 1) {
          planning.segmentStart = onTimeline(audio.ends[index - 1].time)
        }
        try planning.run(&input)
        var writing = DolbyPass(coreOnly: core, clock: clock, writing: true)
        writing.silence = audio.silence
        writing.fillBefore = planning.fillBefore
        writing.fillAfter = planning.fillAfter
        let pass = writing
        return FMP4Segment(
          sequence: sequence, decodeTime: planning.plan.firstDecodeTime ?? 0,
          samples: planning.plan.samples
        ) { PassReader(stream: stream(), pass: pass) }
      }
    } catch {
      throw .disc(error)
    }
  }

  /// Media segment `index` of `rendition` (`moof` + `mdat`), all of its bytes (``segment(_:index:keyFrameOnly:)``
  /// streams them).
  package func mediaSegment(_ rendition: Rendition, index: Int, keyFrameOnly: Bool = false)
    throws(StreamingError) -> [UInt8]
  {
    let made = try segment(rendition, index: index, keyFrameOnly: keyFrameOnly)
    do {
      return try made.bytes()
    } catch {
      throw .disc(error)
    }
  }

  // MARK: Playlists

  /// One `EXT-X-MEDIA` audio rendition.
  struct AudioMember {
    var stem: String
    var name: String
    var language: String?
    var channels: String
    var codecs: String
  }

  /// The audio groups, so that a client never gets a rendition it cannot decode: the renditions
  /// browsers decode (AAC, FLAC) in one group, the Dolby ones (AC-3, E-AC-3) in another; each
  /// variant's `CODECS` names its group's codecs.
  var audioGroups: [(id: String, codecs: [String], members: [AudioMember])] {
    var browser: [AudioMember] = []
    var dolby: [AudioMember] = []
    var names: Set<String> = []
    func unique(_ name: String, _ pid: UInt16) -> String {
      var name = name
      if names.contains(name) { name += " (0x" + String(pid, radix: 16, uppercase: true) + ")" }
      names.insert(name)
      return name
    }
    for target in [AudioTranscodeTarget.aac, .flac] {
      for t in transcoded where t.target == target {
        browser.append(
          AudioMember(
            stem: t.stem, name: unique(Self.name(t), t.pid), language: t.language,
            channels: "\(t.track.channels)", codecs: t.track.codecs))
      }
    }
    for a in audio {
      let member = AudioMember(
        stem: "audio-\(a.pid)", name: unique(Self.name(a), a.pid), language: a.language,
        channels: a.track.channelsText, codecs: a.track.codecs)
      if a.lpcm { browser.append(member) } else { dolby.append(member) }
    }
    var groups: [(id: String, codecs: [String], members: [AudioMember])] = []
    for members in [browser, dolby] where !members.isEmpty {
      var codecs: [String] = []
      for m in members where !codecs.contains(m.codecs) { codecs.append(m.codecs) }
      let id = codecs.map {
        ["ec-3": "eac3", "fLaC": "flac", "mp4a.40.2": "aac", "ac-3": "ac3"][$0] ?? $0
      }
      .joined(separator: "-")
      groups.append((id, codecs, members))
    }
    return groups
  }

  /// `FRAME-RATE`.
  var frameRateText: String? { frameRate.map { $0.fixed(3) } }

  /// The multivariant playlist: one variant per audio group (video + that group's codecs), then
  /// a video-only variant (for clients that decode none of the audio codings), the I-frame
  /// playlist. The media playlists are in `fmp4/` beside it; `query` (`""` or `?…`) is appended
  /// to every URI. `subtitles` are the `EXT-X-MEDIA TYPE=SUBTITLES` lines (``HLSSubtitles``),
  /// which every variant names.
  package func multivariantPlaylist(query: String, subtitles: [String] = []) -> String {
    var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]
    if !leftOut.isEmpty {
      lines.append(
        "## not in fMP4 HLS (not decodable by HLS clients): " + leftOut.joined(separator: ", "))
    }
    // The variant's bit rates: the video's and its group's largest rendition's.
    func rates(_ members: [AudioMember], extra: Int = 0) -> [String] {
      let audio = members.map { bitRates.audio[$0.stem] ?? 0 }.max() ?? 0
      let average =
        members.map { bitRates.audioAverage[$0.stem] ?? bitRates.audio[$0.stem] ?? 0 }.max() ?? 0
      return [
        "BANDWIDTH=\(max(bitRates.videoPeak + audio + extra, 1))",
        "AVERAGE-BANDWIDTH=\(max(bitRates.videoAverage + average + extra, 1))",
      ]
    }
    let resolution = "RESOLUTION=\(video.width)x\(video.height)"
    var tail = [resolution]
    if let frameRateText { tail.append("FRAME-RATE=\(frameRateText)") }
    tail.append("VIDEO-RANGE=\(video.videoRange)")
    for group in audioGroups {
      for (k, member) in group.members.enumerated() {
        var attributes = [
          "TYPE=AUDIO", "GROUP-ID=\"\(group.id)\"", "NAME=\"\(member.name)\"",
        ]
        if let language = member.language, !language.isEmpty {
          attributes.append("LANGUAGE=\"\(language)\"")
        }
        attributes += [
          "DEFAULT=\(k == 0 ? "YES" : "NO")", "AUTOSELECT=YES",
          "CHANNELS=\"\(member.channels)\"",
          "URI=\"fmp4/\(member.stem).m3u8\(query)\"",
        ]
        lines.append("#EXT-X-MEDIA:" + attributes.joined(separator: ","))
      }
    }
    lines += subtitles
    if subtitles.contains(where: { $0.hasPrefix("#EXT-X-MEDIA:") }) {
      tail.append("SUBTITLES=\"\(HLSSubtitles.groupID)\"")
    }
    // A profile 7 title's Dolby Vision 8.1 variants first (the base layer's CODECS, so that a
    // client without Dolby Vision plays them as HDR10), then the HDR10 ones.
    var variants: [(uri: String, supplemental: [String], extra: Int)] = []
    if let dolbyVision {
      let rate = Int(((frameRate ?? 24) * Double(dolbyVision.bytesPerFrame * 8)).rounded(.up))
      variants.append(
        ("fmp4/dv.m3u8", ["SUPPLEMENTAL-CODECS=\"\(dolbyVision.supplementalCodecs)\""], rate))
    }
    variants.append(("fmp4/video.m3u8", [], 0))
    for variant in variants {
      for group in audioGroups {
        lines.append(
          "#EXT-X-STREAM-INF:"
            + (rates(group.members, extra: variant.extra)
            + ["CODECS=\"\(([video.codecs] + group.codecs).joined(separator: ","))\""]
            + variant.supplemental + tail
            + ["AUDIO=\"\(group.id)\""]).joined(separator: ","))
        lines.append(variant.uri + query)
      }
      lines.append(
        "#EXT-X-STREAM-INF:"
          + (rates([], extra: variant.extra) + ["CODECS=\"\(video.codecs)\""]
          + variant.supplemental + tail).joined(separator: ","))
      lines.append(variant.uri + query)
    }
    let common = [
      "BANDWIDTH=\(max(bitRates.iFrames, 1))", "CODECS=\"\(video.codecs)\"", resolution,
    ]
    lines.append(
      "#EXT-X-I-FRAME-STREAM-INF:"
        + (common + ["VIDEO-RANGE=\(video.videoRange)", "URI=\"fmp4/iframes.m3u8\(query)\""])
        .joined(
          separator: ","))
    return lines.joined(separator: "\n") + "\n"
  }

  static func name(_ audio: Audio) -> String {
    var parts: [String] = []
    if let language = audio.language, !language.isEmpty { parts.append(language) }
    let layout =
      audio.track.channels >= 3 ? "\(audio.track.channels - 1).1" : "\(audio.track.channels).0"
    let codec =
      audio.core
      ? "AC-3 core of \(audio.codecName)"
      : audio.lpcm
        ? "FLAC (LPCM)"
        : audio.track.coding == .eac3
          ? (audio.track.jocComplexity != nil ? "E-AC-3 Atmos" : "E-AC-3") : "AC-3"
    parts.append(codec + " " + layout)
    return parts.joined(separator: " ")
  }

  /// The media playlist of `rendition` (or, with `iFrames`, the video's I-frame playlist).
  package func mediaPlaylist(_ rendition: Rendition, iFrames: Bool = false, query: String)
    throws(StreamingError) -> String
  {
    if rendition == .dolbyVision, dolbyVision == nil {
      throw .disc(
        DiscKitError(.notFound, "Dolby Vision rendition", at: nil, "not a profile 7 title"))
    }
    let prefix: String
    switch rendition {
    case .video: prefix = iFrames ? "iframe" : "video"
    case .dolbyVision: prefix = "dv"
    case .audio(let pid): prefix = "audio-\(pid)"
    case .transcoded(let pid, let target): prefix = "\(target.rawValue)-\(pid)"
    }
    var durations = segments.map(\.duration)
    if case .audio(let pid) = rendition, let audio = audio.first(where: { $0.pid == pid }),
      audio.durations.count == segments.count
    {
      durations = audio.durations
    }
    if case .transcoded(let pid, let target) = rendition {
      durations = try transcodedDurations(try transcodedRendition(pid, target))
    }
    let longest = durations.map(\.seconds).max() ?? 0
    var lines = [
      "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(max(1, Int(longest.rounded())))",
      "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS",
    ]
    if iFrames { lines.append("#EXT-X-I-FRAMES-ONLY") }
    lines.append(
      "#EXT-X-MAP:URI=\"\(rendition == .video ? "video" : prefix)-init.mp4\(query)\"")
    var discontinuity = false
    for (k, duration) in durations.enumerated() {
      discontinuity = discontinuity || discontinuities.contains(k)
      // An audio segment without audio (the stream paused or ended: the one before lasts
      // through it) is left out.
      if rendition != .video, rendition != .dolbyVision, duration.ticks == 0 { continue }
      if discontinuity { lines.append("#EXT-X-DISCONTINUITY") }
      discontinuity = false
      lines.append("#EXTINF:\(duration.seconds.fixed(5)),")
      lines.append("\(prefix)-\(k).m4s\(query)")
    }
    lines.append("#EXT-X-ENDLIST")
    return lines.joined(separator: "\n") + "\n"
  }
}
