import CFFmpeg
@_spi(Formats) import DiscKit
import DiscKitOutput

/// One write of a ``MatroskaTitle``: the first piece's demuxer (opened and probed before the
/// output exists, so codec problems surface first), the resolved tracks, and the mux loop.
final class MatroskaSession {
  struct ResolvedTrack {
    var track: MatroskaTrack
    var inputIndex: Int
    var inputCodec: AVCodecID
    var converter: PCMConverter?
    /// An HEVC track's colour description (VUI, HDR10 SEI messages), for the `Colour` element.
    var colour: HEVCColourMetadata?
    /// A DTS track's source resolution (the core header's `PCMR`), its Matroska BitDepth.
    var bitDepth: Int?
    var packets = 0
  }

  let title: MatroskaTitle
  let progress: ((Int64, Int64) -> Void)?
  private var first: PieceDemuxer?
  private var tracks: [ResolvedTrack] = []
  private var missing: [MatroskaTrack] = []
  private var bytesRead: Int64 = 0
  /// Title bytes of the pieces already muxed, and the furthest position read in the current one.
  private var finishedBytes: Int64 = 0
  private var furthest: Int64 = 0
  private let totalBytes: Int64
  private var dropped = 0
  /// Each track's last written decode time in title time (90 kHz).
  private var lastDTS90k: [Int64] = []
  /// Each audio track's end of the audio written so far, in title time (90 kHz): an audio frame
  /// that starts before its piece's in-time belongs to the title when it plays past this (the
  /// title's start, or the previous piece's last frame: at a join the next clip's bytes often
  /// carry the audio of the last milliseconds before its in-time).
  private var audioCovered90k: [Int64] = []
  /// How far every timestamp (and chapter but one at the start) moves so that an audio frame
  /// starting before the title's first picture keeps its place: the file's time 0 is the start
  /// of the earliest frame the title holds (90 kHz; 0 when the title's start is the earliest).
  private(set) var lead90k: Int64 = 0
  /// The demuxers of the title's sub-path streams (``MatroskaTitle/subPathStreams``), with their
  /// output track, and the packet each has read ahead (with its title DTS).
  private struct SubPathInput {
    let demuxer: PieceDemuxer
    let piece: MatroskaPiece
    let track: Int
    var pending: UnsafeMutablePointer<AVPacket>?
    var pendingDTS: Int64 = 0
    var finished = false
  }
  private var subPaths: [SubPathInput] = []
  /// Per text track: the next cue to write.
  private var textNext: [Int] = []

  /// How far past a chapter range's end (90 kHz, decode time) a piece is read.
  static let windowReadPast90k: Int64 = 3 * 90000

  static func canCarry(_ codec: AVCodecID) -> Bool {
    if PCMConverter.converts(codec) { return true }
    guard codec != AV_CODEC_ID_NONE, let matroska = av_guess_format("matroska", nil, nil) else {
      return false
    }
    // VC-1 has no native Matroska codec ID: it goes in VfW form (`V_MS/VFW/FOURCC`, `WVC1`), as
    // mkvmerge and ffmpeg store it.
    return codec == AV_CODEC_ID_VC1
      || avformat_query_codec(matroska, codec, FF_COMPLIANCE_NORMAL) == 1
  }

  init(title: MatroskaTitle, progress: ((Int64, Int64) -> Void)?) throws(DiscKitError) {
    self.title = title
    self.progress = progress
    totalBytes = title.pieces.reduce(0) { $0 + max(0, $1.byteEnd - $1.byteStart) }
    guard let piece = title.pieces.first else {
      throw DiscKitError(.unsupported, title.name, at: nil, "the title has no bytes to demux")
    }
    guard !title.tracks.isEmpty else {
      throw DiscKitError(.unsupported, title.name, at: nil, "the title lists no streams")
    }
    let demuxer = try PieceDemuxer(
      title: title, piece: piece, findStreamInfo: true, structure: Self.structure(title, 0),
      onRead: { [unowned self] in self.advance($0) })
    first = demuxer
    for track in title.tracks {
      let label = Self.label(track, title)
      guard let index = demuxer.streamIndex(id: track.streamID, substream: track.substream),
        let stream = demuxer.stream(at: index), let parameters = stream.pointee.codecpar
      else {
        missing.append(track)
        continue
      }
      // libavformat adds an AC-3 core stream to every TrueHD PID; a clip without a core (no
      // AC-3 frame found while probing) has no such track.
      if track.substream == .ac3Core && parameters.pointee.sample_rate <= 0 { continue }
      let codec = parameters.pointee.codec_id
      guard Self.canCarry(codec) else {
        let name = String(cString: avcodec_get_name(codec))
        throw DiscKitError(
          .unsupported, label, at: nil,
          "its codec (\(name == "none" ? "not recognised by libavformat" : name)) cannot be stored in Matroska; nothing was written"
        )
      }
      var resolved = ResolvedTrack(track: track, inputIndex: index, inputCodec: codec)
      if PCMConverter.converts(codec) {
        resolved.converter = try PCMConverter(parameters: parameters, name: label)
      }
      if codec == AV_CODEC_ID_HEVC {
        resolved.colour = VideoColour.hevc(
          source: title.source, container: title.container,
          range: piece.byteStart..<piece.byteEnd, streamID: track.streamID)
      }
      if codec == AV_CODEC_ID_DTS {
        resolved.bitDepth = PieceDemuxer.dtsSourceBitDepth(
          source: title.source, container: title.container,
          range: piece.byteStart..<piece.byteEnd, streamID: track.streamID)
      }
      tracks.append(resolved)
    }
    guard !tracks.isEmpty else {
      throw DiscKitError(
        .unsupported, title.name, at: nil,
        "none of the title's \(title.tracks.count) streams is in its first clip")
    }
    for stream in title.subPathStreams {
      let sub = try PieceDemuxer(
        source: stream.source, container: .transportStream,
        range: stream.piece.byteStart..<stream.piece.byteEnd, findStreamInfo: true,
        structure:
          "\(title.name) sub-path clip of PID 0x\(String(stream.track.streamID, radix: 16))",
        onRead: { _ in })
      guard let index = sub.streamIndex(id: stream.track.streamID, substream: nil),
        let parameters = sub.stream(at: index)?.pointee.codecpar,
        Self.canCarry(parameters.pointee.codec_id),
        !PCMConverter.converts(parameters.pointee.codec_id)
      else {
        missing.append(stream.track)
        continue
      }
      tracks.append(
        ResolvedTrack(
          track: stream.track, inputIndex: index, inputCodec: parameters.pointee.codec_id))
      subPaths.append(SubPathInput(demuxer: sub, piece: stream.piece, track: tracks.count - 1))
    }
    lead90k = try leadingAudio(in: piece)
  }

  /// The title time from which audio is written: the title's start, or the start of the chapter
  /// range (``MatroskaTitle/window90k``).
  private var origin90k: Int64 { Int64(clamping: title.window90k?.lowerBound ?? 0) }

  /// How long before ``origin90k`` the first audio frame the title holds starts (0 when none
  /// does): the first frame of each audio track in `piece` (the first piece) that still plays at
  /// the origin. Reads the piece from its start until every track is 2 s past the origin.
  private func leadingAudio(in piece: MatroskaPiece) throws(DiscKitError) -> Int64 {
    let audio = Set(tracks.filter { $0.track.kind == .audio }.map(\.track.streamID))
    guard !audio.isEmpty else { return 0 }
    let demuxer = try PieceDemuxer(
      title: title, piece: piece, findStreamInfo: false,
      structure: Self.structure(title, 0) + " (audio before the first picture)", onRead: { _ in })
    guard let format = demuxer.format, let packet = av_packet_alloc() else { return 0 }
    var pointer: UnsafeMutablePointer<AVPacket>? = packet
    defer { av_packet_free(&pointer) }
    let nopts = disckit_av_nopts_value()
    let ticks = AVRational(num: 1, den: 90000)
    let origin = origin90k
    var earliest = origin
    var seen = Set<Int>()
    while av_read_frame(format, packet) >= 0 {
      defer { av_packet_unref(packet) }
      guard let stream = demuxer.stream(at: Int(packet.pointee.stream_index)) else { continue }
      let base = stream.pointee.time_base
      let stamp = packet.pointee.dts != nopts ? packet.pointee.dts : packet.pointee.pts
      if stamp != nopts, piece.titleTime(ofPTS: av_rescale_q(stamp, base, ticks)) > origin + 180_000
      {
        break
      }
      let index = Int(packet.pointee.stream_index)
      guard stream.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_AUDIO,
        audio.contains(Int(stream.pointee.id)), !seen.contains(index),
        packet.pointee.pts != nopts, packet.pointee.duration > 0
      else { continue }
      let start = piece.titleTime(ofPTS: av_rescale_q(packet.pointee.pts, base, ticks))
      let end = start + av_rescale_q(packet.pointee.duration, base, ticks)
      guard end > origin else { continue }
      seen.insert(index)
      earliest = min(earliest, start)
    }
    // Whole milliseconds (Matroska's ticks), so that pictures and chapters move by the same
    // tick count; never more than a second (audio starting that early is not a lead-in).
    let lead = min(origin - earliest, 90_000)
    return (lead + 89) / 90 * 90
  }

  deinit {
    for i in subPaths.indices { av_packet_free(&subPaths[i].pending) }
  }

  /// Writes the sub-path streams' packets whose title decode time is at most `limit` (nil:
  /// all of them), keeping the first later one read ahead: the sub-path clips are read beside
  /// the title's pieces, in time order.
  private func drainSubPaths(
    upTo limit: Int64?, muxer: UnsafeMutablePointer<AVFormatContext>, output: MatroskaOutput,
    converted: UnsafeMutablePointer<AVPacket>, lastDTS: inout [Int64]
  ) throws(DiscKitError) {
    let nopts = disckit_av_nopts_value()
    let ticks = AVRational(num: 1, den: 90000)
    for i in subPaths.indices {
      while !subPaths[i].finished {
        let sub = subPaths[i]
        if let pending = sub.pending {
          if let limit, sub.pendingDTS > limit { break }
          let titlePTS =
            pending.pointee.pts == nopts ? nopts : sub.piece.titleTime(ofPTS: pending.pointee.pts)
          try emit(
            pending, track: sub.track, titlePTS: titlePTS, titleDTS: sub.pendingDTS,
            piece: sub.piece, demuxer: sub.demuxer, muxer: muxer, output: output,
            converted: converted, lastDTS: &lastDTS)
          av_packet_free(&subPaths[i].pending)
          continue
        }
        guard let format = sub.demuxer.format, let packet = av_packet_alloc() else {
          subPaths[i].finished = true
          break
        }
        var read: Int32 = 0
        repeat {
          av_packet_unref(packet)
          read = av_read_frame(format, packet)
        } while read >= 0 && Int(packet.pointee.stream_index) != tracks[sub.track].inputIndex
        guard read >= 0, let input = sub.demuxer.stream(at: Int(packet.pointee.stream_index))
        else {
          var p: UnsafeMutablePointer<AVPacket>? = packet
          av_packet_free(&p)
          subPaths[i].finished = true
          break
        }
        // Timestamps to 90 kHz, then title time.
        let inBase = input.pointee.time_base
        if packet.pointee.pts != nopts {
          packet.pointee.pts = av_rescale_q(packet.pointee.pts, inBase, ticks)
        }
        if packet.pointee.dts != nopts {
          packet.pointee.dts = av_rescale_q(packet.pointee.dts, inBase, ticks)
        }
        packet.pointee.duration =
          packet.pointee.duration > 0 ? av_rescale_q(packet.pointee.duration, inBase, ticks) : 0
        let decode = packet.pointee.dts != nopts ? packet.pointee.dts : packet.pointee.pts
        subPaths[i].pending = packet
        subPaths[i].pendingDTS = decode == nopts ? nopts : sub.piece.titleTime(ofPTS: decode)
      }
    }
  }

  static func structure(_ title: MatroskaTitle, _ piece: Int) -> String {
    title.container == .transportStream
      ? "\(title.name) play item \(piece)" : "\(title.name) piece \(piece + 1)"
  }

  static func label(_ track: MatroskaTrack, _ title: MatroskaTitle) -> String {
    let id =
      title.container == .transportStream
      ? "PID 0x" + String(track.streamID, radix: 16)
      : "stream 0x" + String(track.streamID, radix: 16)
    return
      "\(title.name) \(track.kind.rawValue) track \(id) (\(track.declaredCodec), \(track.language))"
  }

  /// Progress: the furthest byte read (demuxers probe and seek back, so reads may repeat).
  private func advance(_ position: Int64) {
    guard position > furthest else { return }
    furthest = position
    bytesRead = finishedBytes + furthest
    progress?(bytesRead, totalBytes)
  }

  func emptyReport() -> MatroskaWriter.Report {
    report()
  }

  private func report() -> MatroskaWriter.Report {
    MatroskaWriter.Report(
      tracks: tracks.map {
        MatroskaWriter.Report.Track(
          track: $0.track, inputCodec: String(cString: avcodec_get_name($0.inputCodec)),
          outputCodec: String(
            cString: avcodec_get_name($0.converter?.outputCodec ?? $0.inputCodec)),
          packets: $0.packets)
      }, missingTracks: missing, droppedPackets: dropped, bytesRead: bytesRead)
  }

  // MARK: Muxing

  func run(writer: AtomicFileWriter) throws(DiscKitError) -> MatroskaWriter.Report {
    guard let first else { return report() }
    let output = try MatroskaOutput(writer: writer)
    var muxer: UnsafeMutablePointer<AVFormatContext>?
    guard avformat_alloc_output_context2(&muxer, nil, "matroska", nil) >= 0, let muxer else {
      throw DiscKitError(.io, writer.destination, at: nil, "cannot allocate the Matroska muxer")
    }
    defer { avformat_free_context(muxer) }
    muxer.pointee.pb = output.context
    try addStreams(to: muxer, from: first)
    try addTextStreams(to: muxer)
    av_dict_set(&muxer.pointee.metadata, "title", title.segmentTitle, 0)
    for (i, chapter) in title.chapters.enumerated() {
      // Chapters stay on their pictures: they move with the lead, but for one that starts the
      // title, which holds the lead-in audio from the file's start.
      let start = chapter.start.ticks > 0 ? chapter.start.ticks + lead90k : 0
      guard
        disckit_add_chapter(
          muxer, Int64(i + 1), start, chapter.end.ticks + lead90k, chapter.title) >= 0
      else {
        throw DiscKitError(.io, writer.destination, at: nil, "cannot allocate a chapter")
      }
    }
    var options: OpaquePointer?
    av_dict_set(&options, "default_mode", "passthrough", 0)
    // No CRC-32 elements in every cluster (mkvmerge writes none either); they cost a CRC pass
    // over the whole file.
    av_dict_set(&options, "write_crc32", "0", 0)
    let header = avformat_write_header(muxer, &options)
    av_dict_free(&options)
    guard header >= 0 else {
      throw output.error
        ?? DiscKitError(.io, writer.destination, at: nil, "Matroska header: \(averror(header))")
    }
    guard let packet = av_packet_alloc(), let converted = av_packet_alloc() else {
      throw DiscKitError(.io, writer.destination, at: nil, "cannot allocate a packet")
    }
    var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
    var convertedPointer: UnsafeMutablePointer<AVPacket>? = converted
    defer {
      av_packet_free(&packetPointer)
      av_packet_free(&convertedPointer)
    }
    var lastDTS = [Int64](repeating: Int64.min, count: tracks.count)
    lastDTS90k = [Int64](repeating: Int64.min, count: tracks.count)
    audioCovered90k = [Int64](repeating: origin90k, count: tracks.count)
    for (p, piece) in title.pieces.enumerated() {
      let demuxer: PieceDemuxer
      if p == 0 {
        demuxer = first
      } else {
        demuxer = try PieceDemuxer(
          title: title, piece: piece, findStreamInfo: false,
          structure: Self.structure(title, p), onRead: { [unowned self] in self.advance($0) })
      }
      if p == 0 { self.first = nil }
      try mux(
        piece, from: demuxer, into: muxer, output: output, packet: packet, converted: converted,
        lastDTS: &lastDTS)
      finishedBytes += piece.byteEnd - piece.byteStart
      furthest = 0
      bytesRead = finishedBytes
      progress?(bytesRead, totalBytes)
    }
    try drainSubPaths(
      upTo: nil, muxer: muxer, output: output, converted: converted, lastDTS: &lastDTS)
    try writeText(upTo: Int64.max, muxer: muxer, output: output)
    let trailer = av_write_trailer(muxer)
    guard trailer >= 0, output.error == nil else {
      throw output.error
        ?? DiscKitError(.io, writer.destination, at: nil, "Matroska trailer: \(averror(trailer))")
    }
    return report()
  }

  private func addStreams(
    to muxer: UnsafeMutablePointer<AVFormatContext>, from demuxer: PieceDemuxer
  ) throws(DiscKitError) {
    for (t, resolved) in tracks.enumerated() {
      let from = subPaths.first { $0.track == t }?.demuxer ?? demuxer
      guard let input = from.stream(at: resolved.inputIndex),
        let parameters = input.pointee.codecpar,
        let stream = avformat_new_stream(muxer, nil), let target = stream.pointee.codecpar
      else {
        throw DiscKitError(.io, title.name, at: nil, "cannot allocate a Matroska track")
      }
      let copied =
        resolved.converter.map { $0.fill(target, from: parameters) }
        ?? avcodec_parameters_copy(target, parameters)
      guard copied >= 0 else {
        throw DiscKitError(
          .io, Self.label(resolved.track, title), at: nil,
          "cannot copy codec parameters: \(averror(copied))")
      }
      target.pointee.codec_tag = 0
      if let extra = resolved.track.codecPrivate, !extra.isEmpty {
        av_freep(&target.pointee.extradata)
        let padded = extra.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let buffer = av_mallocz(padded)?.assumingMemoryBound(to: UInt8.self) else {
          throw DiscKitError(.io, title.name, at: nil, "cannot allocate \(padded) bytes")
        }
        extra.withUnsafeBufferPointer { b in
          if let base = b.baseAddress { buffer.update(from: base, count: b.count) }
        }
        target.pointee.extradata = buffer
        target.pointee.extradata_size = Int32(extra.count)
      }
      if resolved.converter == nil && target.pointee.codec_type == AVMEDIA_TYPE_AUDIO {
        // The decoder's sample depth of a compressed format is no property of the stream
        // (mkvmerge writes no bit depth for AC-3, E-AC-3, TrueHD; for DTS see below).
        target.pointee.bits_per_raw_sample = 0
        target.pointee.bits_per_coded_sample = 0
        target.pointee.format = -1
        // DTS: the core header's source resolution, as mkvmerge writes it.
        if let depth = resolved.bitDepth { target.pointee.bits_per_raw_sample = Int32(depth) }
      }
      if let colour = resolved.colour {
        let r = VideoColour.apply(colour, to: stream)
        guard r >= 0 else {
          throw DiscKitError(
            .io, Self.label(resolved.track, title), at: nil,
            "cannot attach the HDR metadata: \(averror(r))")
        }
      }
      if target.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
        let r = disckit_copy_dovi_configuration(input, stream)
        guard r >= 0 else {
          throw DiscKitError(
            .io, Self.label(resolved.track, title), at: nil,
            "cannot attach the Dolby Vision configuration: \(averror(r))")
        }
      }
      stream.pointee.time_base = AVRational(num: 1, den: 1000)
      stream.pointee.avg_frame_rate = input.pointee.avg_frame_rate
      stream.pointee.r_frame_rate = input.pointee.r_frame_rate
      stream.pointee.sample_aspect_ratio = input.pointee.sample_aspect_ratio
      stream.pointee.disposition = resolved.track.isDefault ? AV_DISPOSITION_DEFAULT : 0
      av_dict_set(&stream.pointee.metadata, "language", resolved.track.language, 0)
      if resolved.track.substream == .ac3Core {
        // The track's Matroska Name says what it is (mkvmerge leaves it unnamed).
        av_dict_set(&stream.pointee.metadata, "title", "AC-3 core", 0)
      }
    }
  }

  /// The text tracks' streams, after the title's own tracks (SubRip text, `S_TEXT/UTF8`).
  private func addTextStreams(to muxer: UnsafeMutablePointer<AVFormatContext>)
    throws(DiscKitError)
  {
    textNext = Array(repeating: 0, count: title.textTracks.count)
    for track in title.textTracks {
      guard let stream = avformat_new_stream(muxer, nil), let target = stream.pointee.codecpar
      else {
        throw DiscKitError(.io, title.name, at: nil, "cannot allocate a Matroska text track")
      }
      target.pointee.codec_type = AVMEDIA_TYPE_SUBTITLE
      target.pointee.codec_id = AV_CODEC_ID_SUBRIP
      stream.pointee.time_base = AVRational(num: 1, den: 1000)
      stream.pointee.disposition = track.forced ? AV_DISPOSITION_FORCED : 0
      av_dict_set(&stream.pointee.metadata, "language", track.language, 0)
      av_dict_set(&stream.pointee.metadata, "title", track.name, 0)
    }
  }

  /// Writes the text cues that start at or before `limit90k` (output time: title time, less
  /// the window's start, plus the lead), so that they interleave with the title's packets.
  private func writeText(
    upTo limit90k: Int64, muxer: UnsafeMutablePointer<AVFormatContext>, output: MatroskaOutput
  ) throws(DiscKitError) {
    let first = tracks.count
    let window = title.window90k.map {
      Int64(clamping: $0.lowerBound)..<Int64(clamping: $0.upperBound)
    }
    let ticks = AVRational(num: 1, den: 90000)
    for (k, track) in title.textTracks.enumerated() where k < textNext.count {
      guard let stream = muxer.pointee.streams?[first + k] else { continue }
      while textNext[k] < track.cues.count {
        let cue = track.cues[textNext[k]]
        var start = cue.start90k
        var end = cue.end90k
        if let window {
          start = max(start, window.lowerBound) - window.lowerBound
          end = min(end, window.upperBound) - window.lowerBound
        }
        // With the title's other tracks, by the lead.
        start += lead90k
        end += lead90k
        guard start <= limit90k else { break }
        textNext[k] += 1
        guard end > start,
          window.map({ cue.end90k > $0.lowerBound && cue.start90k < $0.upperBound }) ?? true
        else { continue }
        let bytes = Array(cue.text.utf8)
        guard let packet = av_packet_alloc() else {
          throw DiscKitError(.io, title.name, at: nil, "cannot allocate a packet")
        }
        var pointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&pointer) }
        guard av_new_packet(packet, Int32(bytes.count)) >= 0, let data = packet.pointee.data else {
          throw DiscKitError(.io, title.name, at: nil, "cannot allocate a text packet")
        }
        bytes.withUnsafeBufferPointer { b in
          if let base = b.baseAddress { data.update(from: base, count: b.count) }
        }
        let base = stream.pointee.time_base
        packet.pointee.pts = av_rescale_q(start, ticks, base)
        packet.pointee.dts = packet.pointee.pts
        packet.pointee.duration = av_rescale_q(end, ticks, base) - packet.pointee.pts
        packet.pointee.flags = AV_PKT_FLAG_KEY
        packet.pointee.stream_index = Int32(first + k)
        let w = av_interleaved_write_frame(muxer, packet)
        guard w >= 0 else {
          throw output.error
            ?? DiscKitError(
              .io, title.name, at: nil,
              "Matroska muxer refused a text cue of \(track.name): \(averror(w))")
        }
      }
    }
  }

  /// Maps one piece's streams to output tracks by multiplex id (lazily: transport stream
  /// demuxers add streams as they meet PMTs).
  private func trackIndex(
    forStream index: Int, in demuxer: PieceDemuxer, cache: inout [Int?], filled: inout [Bool]
  ) -> Int? {
    guard index >= 0 else { return nil }
    if index >= cache.count {
      cache += [Int?](repeating: nil, count: index + 1 - cache.count)
      filled += [Bool](repeating: false, count: index + 1 - filled.count)
    }
    if !filled[index] {
      filled[index] = true
      if let stream = demuxer.stream(at: index) {
        let id = Int(stream.pointee.id)
        let sub = demuxer.isSubstream(index)
        // (The sub-path streams' tracks come from their own clips.)
        cache[index] = tracks.indices.first { t in
          tracks[t].track.streamID == id && (tracks[t].track.substream == .ac3Core) == sub
            && !subPaths.contains { $0.track == t }
        }
      }
    }
    return cache[index]
  }

  /// Packets of one track held back until their presentation time is known: an MPEG-1/2 I or
  /// P picture without a PTS is presented when the next I or P picture is decoded (its PTS is
  /// that picture's DTS), and the pictures decoded in between wait behind it to keep decode
  /// order.
  private struct HeldPackets {
    var packets: [UnsafeMutablePointer<AVPacket>] = []
    /// The index in `packets` of the reference picture waiting for its PTS.
    var waiting: Int?
  }

  /// The MPEG-1/2 `picture_coding_type` (1 I, 2 P, 3 B) of the first picture in `packet`.
  static func mpegPictureType(_ packet: UnsafePointer<AVPacket>) -> Int? {
    guard let data = packet.pointee.data else { return nil }
    let size = Int(packet.pointee.size)
    var i = 0
    while i + 5 < size {
      if data[i] == 0, data[i + 1] == 0, data[i + 2] == 1, data[i + 3] == 0 {
        return Int((data[i + 5] >> 3) & 7)
      }
      i += 1
    }
    return nil
  }

  private func mux(
    _ piece: MatroskaPiece, from demuxer: PieceDemuxer,
    into muxer: UnsafeMutablePointer<AVFormatContext>, output: MatroskaOutput,
    packet: UnsafeMutablePointer<AVPacket>, converted: UnsafeMutablePointer<AVPacket>,
    lastDTS: inout [Int64]
  ) throws(DiscKitError) {
    guard let format = demuxer.format else { return }
    let nopts = disckit_av_nopts_value()
    let ticks = AVRational(num: 1, den: 90000)
    var cache: [Int?] = []
    var filled: [Bool] = []
    var held = [HeldPackets](repeating: HeldPackets(), count: tracks.count)
    var frameTicks = [Int64](repeating: 0, count: tracks.count)
    var displaySets = [PGSDisplaySet](repeating: PGSDisplaySet(), count: tracks.count)
    var assembled: UnsafeMutablePointer<AVPacket>?
    defer {
      av_packet_free(&assembled)
      for h in held {
        for p in h.packets {
          var p: UnsafeMutablePointer<AVPacket>? = p
          av_packet_free(&p)
        }
      }
    }
    func release(_ t: Int, upTo end: Int) throws(DiscKitError) {
      for i in 0..<end {
        let p = held[t].packets[i]
        defer {
          var p: UnsafeMutablePointer<AVPacket>? = p
          av_packet_free(&p)
        }
        try emit(
          p, track: t, titlePTS: p.pointee.pts, titleDTS: p.pointee.dts, piece: piece,
          demuxer: demuxer, muxer: muxer, output: output, converted: converted, lastDTS: &lastDTS)
      }
      held[t].packets.removeFirst(end)
      held[t].waiting = held[t].waiting.map { $0 - end }
    }
    // A PGS display set gathered from its segments goes out as one block at its first time.
    func emitDisplaySet(_ t: Int) throws(DiscKitError) {
      if assembled == nil { assembled = av_packet_alloc() }
      guard let out = assembled else {
        throw DiscKitError(.io, demuxer.structure, at: nil, "cannot allocate a packet")
      }
      let pts = displaySets[t].pts
      let dts = displaySets[t].dts
      guard displaySets[t].take(into: out) else {
        throw DiscKitError(.io, demuxer.structure, at: nil, "cannot allocate a packet")
      }
      defer { av_packet_unref(out) }
      try emit(
        out, track: t, titlePTS: pts, titleDTS: dts, piece: piece, demuxer: demuxer,
        muxer: muxer, output: output, converted: converted, lastDTS: &lastDTS)
    }
    while true {
      let r = av_read_frame(format, packet)
      if r == disckit_av_error_eof() { break }
      guard r >= 0 else {
        throw demuxer.input.error
          ?? DiscKitError(
            .malformed, demuxer.structure, at: piece.byteStart + demuxer.input.position,
            "libavformat: \(averror(r))")
      }
      defer { av_packet_unref(packet) }
      guard
        let t = trackIndex(
          forStream: Int(packet.pointee.stream_index), in: demuxer, cache: &cache, filled: &filled),
        let input = demuxer.stream(at: Int(packet.pointee.stream_index))
      else { continue }
      let inBase = input.pointee.time_base
      // Title times (90 kHz) of the packet's PTS and DTS.
      let titlePTS =
        packet.pointee.pts == nopts
        ? nopts : piece.titleTime(ofPTS: av_rescale_q(packet.pointee.pts, inBase, ticks))
      let titleDTS =
        packet.pointee.dts == nopts
        ? nopts : piece.titleTime(ofPTS: av_rescale_q(packet.pointee.dts, inBase, ticks))
      if packet.pointee.duration > 0 {
        frameTicks[t] = av_rescale_q(packet.pointee.duration, inBase, ticks)
      }
      if !subPaths.isEmpty, titleDTS != nopts {
        try drainSubPaths(
          upTo: titleDTS, muxer: muxer, output: output, converted: converted, lastDTS: &lastDTS)
      }
      // A chapter range ends: once every track is past it (the multiplex keeps tracks within
      // a second or so of each other), the rest of the piece is not read.
      if let window = title.window90k, titleDTS != nopts,
        titleDTS > Int64(clamping: window.upperBound) + Self.windowReadPast90k
      {
        break
      }
      let codec = tracks[t].inputCodec
      if codec == AV_CODEC_ID_HDMV_PGS_SUBTITLE {
        if displaySets[t].append(packet, pts: titlePTS, dts: titleDTS) { try emitDisplaySet(t) }
        continue
      }
      let isMPEGVideo = codec == AV_CODEC_ID_MPEG2VIDEO || codec == AV_CODEC_ID_MPEG1VIDEO
      if isMPEGVideo && titleDTS != nopts && (titlePTS == nopts || !held[t].packets.isEmpty) {
        let type = Self.mpegPictureType(packet)
        let isReference = type == 1 || type == 2
        if isReference, let w = held[t].waiting {
          held[t].packets[w].pointee.pts = titleDTS
          held[t].waiting = nil
          try release(t, upTo: held[t].packets.count)
        }
        guard let copy = av_packet_clone(packet) else {
          throw DiscKitError(.io, demuxer.structure, at: nil, "cannot allocate a packet")
        }
        copy.pointee.dts = titleDTS
        copy.pointee.pts = titlePTS != nopts ? titlePTS : isReference ? nopts : titleDTS
        copy.pointee.duration =
          copy.pointee.duration > 0 ? av_rescale_q(copy.pointee.duration, inBase, ticks) : 0
        held[t].packets.append(copy)
        if copy.pointee.pts == nopts { held[t].waiting = held[t].packets.count - 1 }
        if held[t].waiting == nil { try release(t, upTo: held[t].packets.count) }
        continue
      }
      packet.pointee.duration =
        packet.pointee.duration > 0 ? av_rescale_q(packet.pointee.duration, inBase, ticks) : 0
      try emit(
        packet, track: t, titlePTS: titlePTS, titleDTS: titleDTS, piece: piece,
        demuxer: demuxer, muxer: muxer, output: output, converted: converted, lastDTS: &lastDTS)
    }
    // A display set the piece cut short goes out as it is.
    for t in displaySets.indices where !displaySets[t].isEmpty { try emitDisplaySet(t) }
    // The piece's last reference picture is presented after the pictures decoded behind it.
    for t in held.indices where !held[t].packets.isEmpty {
      if let w = held[t].waiting {
        let last = held[t].packets.map { $0.pointee.pts }.max() ?? nopts
        let base = max(last, held[t].packets.last?.pointee.dts ?? nopts)
        held[t].packets[w].pointee.pts = base == nopts ? nopts : base + frameTicks[t]
      }
      try release(t, upTo: held[t].packets.count)
    }
  }

  /// Writes one packet whose timestamps are title times (90 kHz; `nopts` when unknown), unless
  /// it lies outside its piece or would make its track's decode time go back.
  private func emit(
    _ packet: UnsafeMutablePointer<AVPacket>, track t: Int, titlePTS: Int64, titleDTS: Int64,
    piece: MatroskaPiece, demuxer: PieceDemuxer, muxer: UnsafeMutablePointer<AVFormatContext>,
    output: MatroskaOutput, converted: UnsafeMutablePointer<AVPacket>, lastDTS: inout [Int64]
  ) throws(DiscKitError) {
    let nopts = disckit_av_nopts_value()
    let ticks = AVRational(num: 1, den: 90000)
    guard let stream = muxer.pointee.streams?[t] else { return }
    let outBase = stream.pointee.time_base
    var pts = titlePTS != nopts ? titlePTS : titleDTS
    guard pts != nopts else {
      dropped += 1
      return
    }
    let offset = pts - Int64(clamping: piece.titleStart90k)
    // An audio frame (of known length) starting before its piece's in-time belongs to the title
    // when it plays past the audio already written (or the title's start): the last frames
    // before a clip's in-time are often in its bytes, not the previous clip's.
    let isAudio = tracks[t].track.kind == .audio && packet.pointee.duration > 0
    let end = pts + packet.pointee.duration
    if offset < 0 && !(isAudio && end > audioCovered90k[t]) {
      dropped += 1
      return
    }
    if piece.duration90k.map({ offset >= Int64(clamping: $0) }) == true {
      dropped += 1
      return
    }
    var dts90k = titleDTS != nopts ? min(titleDTS, pts) : pts
    if let window = title.window90k {
      // A chapter range: only what plays inside it (audio: what plays past its start), with
      // timestamps from its start.
      let lower = Int64(clamping: window.lowerBound)
      guard pts >= lower || (isAudio && end > audioCovered90k[t]),
        pts < Int64(clamping: window.upperBound)
      else {
        dropped += 1
        return
      }
      pts -= lower
      dts90k -= lower
    }
    pts += lead90k
    dts90k += lead90k
    guard pts >= 0 else {
      dropped += 1
      return
    }
    try writeText(upTo: pts, muxer: muxer, output: output)
    var outPTS = av_rescale_q(pts, ticks, outBase)
    var outDTS = av_rescale_q(dts90k, ticks, outBase)
    if outDTS <= lastDTS[t] {
      let subTick = packet.pointee.duration > 0 && packet.pointee.duration < 90
      if tracks[t].track.kind == .audio && subTick && dts90k > lastDTS90k[t] {
        // Audio frames shorter than a Matroska tick (1 ms; TrueHD access units are 1/1200 s)
        // share the tick, as mkvmerge writes them: moving each one tick up would push the next
        // ones ever further and lose them.
        outDTS = lastDTS[t]
      } else {
        // Two audio or subtitle packets at least a tick apart that rounding puts on the same
        // tick: the later one moves up one tick instead of being lost. So does an audio frame
        // that starts inside the previous one but plays past it (a join's overlap: it holds
        // audio no written frame does). Anything else going further back (a subtitle, a frame
        // already played) and any video packet is dropped.
        guard outDTS == lastDTS[t] || isAudio, tracks[t].track.kind != .video else {
          dropped += 1
          return
        }
        outDTS = lastDTS[t] + 1
      }
      outPTS = max(outPTS, outDTS)
    }
    lastDTS[t] = outDTS
    lastDTS90k[t] = dts90k
    if isAudio { audioCovered90k[t] = max(audioCovered90k[t], end) }
    let out: UnsafeMutablePointer<AVPacket>
    if let converter = tracks[t].converter {
      guard try converter.convert(packet, into: converted) else { return }
      let rate =
        demuxer.stream(at: tracks[t].inputIndex)?.pointee.codecpar?.pointee.sample_rate ?? 0
      converted.pointee.duration =
        rate > 0
        ? av_rescale_q(converted.pointee.duration, AVRational(num: 1, den: rate), outBase) : 0
      converted.pointee.flags = packet.pointee.flags
      out = converted
    } else {
      packet.pointee.duration =
        packet.pointee.duration > 0 ? av_rescale_q(packet.pointee.duration, ticks, outBase) : 0
      out = packet
    }
    out.pointee.pts = outPTS
    out.pointee.dts = outDTS
    out.pointee.pos = -1
    out.pointee.stream_index = Int32(t)
    let w = av_interleaved_write_frame(muxer, out)
    guard w >= 0 else {
      throw output.error
        ?? DiscKitError(
          .io, demuxer.structure, at: piece.byteStart + demuxer.input.position,
          "Matroska muxer refused a packet of \(Self.label(tracks[t].track, title)): \(averror(w))")
    }
    tracks[t].packets += 1
  }
}
