@_spi(Formats) import DiscKit
import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Converts one source transport stream into a Blu-ray clip stream file in a single pass while
/// analysing it: 188-byte packets get a `TP_extra_header` (copy permission 0, an arrival time
/// stamp interpolated between the PCRs), 192-byte source packets are copied as they are. The
/// pass also finds the video stream's random access points and presentation times.
enum ClipConverter {
  static let chunkSize = 4 << 20
  /// Bytes searched for the PAT and PMT before giving up.
  static let programSearchBytes: Int64 = 32 << 20

  /// The program found by the pre-pass.
  struct Program {
    var format: TransportPacketFormat
    var programNumber: UInt16
    var pmtPID: UInt16
    var pmt: ProgramMapTable
    var pmtOffset: Int64
  }

  /// Finds the first program's PMT.
  static func readProgram(_ source: FileByteSource) throws(DiscKitError) -> Program {
    var reader = TransportPacketReader()
    var psi = PSIConsumer()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    var offset: Int64 = 0
    while psi.pmt == nil, offset < min(source.size, programSearchBytes) {
      let got = try source.read(at: offset, into: buffer)
      if got == 0 { break }
      reader.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<got]), into: &psi)
      offset += Int64(got)
    }
    if psi.pmt == nil { reader.finish(into: &psi) }
    guard let format = reader.format, reader.packetCount > 0 else {
      throw DiscKitError(
        .malformed, source.path, at: 0,
        "not a transport stream: no 188- or 192-byte packets (0x47 sync bytes) in the first "
          + "\(min(source.size, programSearchBytes)) bytes")
    }
    if let error = psi.error { throw error }
    guard let pmt = psi.pmt, let program = psi.program else {
      throw DiscKitError(
        .malformed, source.path, at: psi.patOffset ?? 0,
        psi.program == nil
          ? "no program association table (PAT) in the first \(offset) bytes"
          : "no program map table (PMT) on PID \(psi.program?.pid ?? 0) in the first \(offset) bytes"
      )
    }
    return Program(
      format: format, programNumber: program.number, pmtPID: program.pid, pmt: pmt,
      pmtOffset: psi.pmtOffset)
  }

  /// A stream of the program Blu-ray can carry, with its coding type.
  typealias CarriedStream = (info: ElementaryStreamInfo, codec: StreamCodec, coding: UInt8)

  /// Converts `path` into `destination` (created, or replaced) and analyses it.
  static func convert(
    source path: String, to destination: String, language: String?, chunkSize: Int = chunkSize,
    remapPIDs: Bool = true, progress: ((Int64) -> Void)? = nil
  ) throws(DiscKitError) -> BDMVClipAnalysis {
    let source = try FileByteSource(path: path)
    let program = try readProgram(source)
    let pmt = program.pmt
    let (carried, ignored, video) = try carriedStreams(program, path: path)
    let enhancementLayer = enhancementLayerPID(carried, video: video.info.pid)

    // 188-byte input: move the streams to the Blu-ray PIDs (PMT 0x0100, PCR 0x1001, video
    // 0x1011, audio 0x1100, PG 0x1200, IG 0x1400, ...), which players and libbluray expect (its
    // seek rewinds over packets with PIDs up to 0x1001, taking them for PSI/PCR).
    let remap =
      program.format == .plain && remapPIDs
      ? PIDRemapping.plan(program: program, enhancementLayer: enhancementLayer) : nil
    var consumer = ConvertingConsumer(
      videoPID: video.info.pid, videoCodec: video.codec, pcrPID: pmt.pcrPID,
      passThrough: program.format == .bdav,
      capturePIDs: Set(carried.map(\.info.pid)), remap: remap)
    consumer.enhancementLayerPID = enhancementLayer
    consumer.pmtPID = program.pmtPID
    var reader = TransportPacketReader(format: program.format)
    let points = try copy(
      source, path: path, to: destination, through: &consumer, reader: &reader,
      chunkSize: chunkSize, progress: progress)
    let timing = try Timing(
      consumer, path: path, video: video, pcrPID: pmt.pcrPID, hasAccessPoints: !points.isEmpty)
    let mapped: (UInt16) -> UInt16 = { pid in remap?.table[Int(pid & 0x1FFF)] ?? pid }
    let streams = programInfoStreams(
      carried, consumer: consumer, mapped: mapped, fps: timing.fps, language: language,
      enhancementLayer: enhancementLayer)
    return BDMVClipAnalysis(
      source: path, inputFormat: program.format, packetCount: UInt32(consumer.packetCount),
      programNumber: program.programNumber, pmtPID: mapped(program.pmtPID),
      pcrPID: mapped(pmt.pcrPID), streams: streams, ignoredStreams: ignored.map(mapped),
      videoPID: mapped(video.info.pid), videoCodec: video.codec,
      videoColour: ElementaryStreamProbe.hevcColour(
        codec: video.codec,
        payload: consumer.captures[video.info.pid].flatMap(ElementaryStreamProbe.pesPayload)),
      enhancementLayerPID: enhancementLayer.map(mapped),
      entryPoints: points, presentationStart90k: timing.start, duration90k: timing.duration,
      frameRate: timing.fps, recordingRate: timing.recordingRate,
      skippedBytes: reader.skippedBytes, stcSequences: timing.sequences)
  }

  /// The streams Blu-ray can carry, the PIDs of the others, and the video stream for the EP map.
  static func carriedStreams(_ program: Program, path: String) throws(DiscKitError)
    -> (carried: [CarriedStream], ignored: [UInt16], video: CarriedStream)
  {
    let pmt = program.pmt
    var carried: [CarriedStream] = []
    var ignored: [UInt16] = []
    for stream in pmt.streams {
      let codec = stream.codec
      if let coding = ElementaryStreamProbe.codingType(codec) {
        carried.append((stream, codec, coding))
      } else {
        ignored.append(stream.pid)
      }
    }
    // The EP map's stream: the video (not an MVC or Dolby Vision enhancement layer), or in an
    // audio-only clip (a sub-path's, e.g. out-of-mux secondary audio) its first audio stream.
    guard
      let video = carried.first(where: {
        $0.codec.kind == .video && $0.codec != .h264MVC
          && $0.info.dolbyVision?.isEnhancementLayer != true
      })
        ?? carried.first(where: { $0.codec.kind == .audio })
    else {
      let listed = pmt.streams.map { "0x\(String($0.pid, radix: 16)) \($0.codec.rawValue)" }
      throw DiscKitError(
        .unsupported, path + " PMT", at: program.pmtOffset,
        "no video stream Blu-ray can carry (H.264, HEVC, MPEG-2, VC-1), nor audio for a "
          + "sub-path clip, in program \(program.programNumber): streams \(listed)")
    }
    return (carried, ignored, video)
  }

  /// The PID of a Dolby Vision enhancement layer: an HEVC stream whose DOVI video descriptor
  /// says it has no base layer of its own, or (a Blu-ray stream file whose PMT has no such
  /// descriptor) a second HEVC stream on PID 0x1015 beside the base layer.
  static func enhancementLayerPID(_ carried: [CarriedStream], video: UInt16) -> UInt16? {
    let hevc = carried.filter { $0.codec == .hevc && $0.info.pid != video }
    if let el = hevc.first(where: { $0.info.dolbyVision?.isEnhancementLayer == true }) {
      return el.info.pid
    }
    return hevc.first(where: { $0.info.pid == 0x1015 })?.info.pid
  }

  /// The single pass: reads `source` through `consumer` and writes the clip stream file
  /// (padded to whole aligned units); returns the video's random access points.
  static func copy(
    _ source: FileByteSource, path: String, to destination: String,
    through consumer: inout ConvertingConsumer, reader: inout TransportPacketReader,
    chunkSize: Int, progress: ((Int64) -> Void)?
  ) throws(DiscKitError) -> [BDMVClipAnalysis.EntryPoint] {
    var output = try ClipOutput(path: destination)
    defer { output.close() }
    let buffer = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(1, chunkSize), alignment: 4096)
    defer { buffer.deallocate() }
    var offset: Int64 = 0
    while offset < source.size {
      let got = try source.read(at: offset, into: buffer)
      if got == 0 {
        throw DiscKitError(
          .io, path, at: offset,
          "the file ended at byte \(offset), before its size of \(source.size) bytes (it changed while being read)"
        )
      }
      reader.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<got]), into: &consumer)
      offset += Int64(got)
      if let failure = consumer.failure { throw failure }
      if consumer.out.count - consumer.resolvedBytes > 64 << 20 { consumer.resolvePending() }
      if consumer.resolvedBytes >= 1 << 20 { try output.flush(&consumer, all: false) }
      progress?(offset)
    }
    reader.finish(into: &consumer)
    if let failure = consumer.failure { throw failure }
    let points = consumer.finishAccessPoints()
    // Blu-ray stream files hold whole aligned units of 32 source packets (6144 bytes): pad with
    // null packets, as libbluray reads in aligned units.
    consumer.appendNullPackets((32 - Int(consumer.packetCount % 32)) % 32)
    consumer.resolvePending()
    try output.flush(&consumer, all: true)
    return points
  }

  /// The clip stream file being written.
  struct ClipOutput {
    let fd: FileDescriptor
    let path: String
    var written: Int64 = 0

    /// Creates (or truncates) `path`.
    init(path: String) throws(DiscKitError) {
      self.path = path
      do {
        fd = try FileDescriptor.open(
          FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
          permissions: [.ownerReadWrite, .groupRead, .otherRead])
      } catch {
        throw DiscKitError(.cannotCreate, path, at: nil, "cannot create: \(error)")
      }
    }

    func close() { try? fd.close() }

    /// Writes the consumer's resolved bytes (`all`: every byte) and drops them from its buffer.
    mutating func flush(_ c: inout ConvertingConsumer, all: Bool) throws(DiscKitError) {
      let count = all ? c.out.count : c.resolvedBytes
      guard count > 0 else { return }
      var done = 0
      while done < count {
        let n = c.out.withUnsafeBytes { raw in
          Glibc.write(fd.rawValue, raw.baseAddress.map { $0 + done }, count - done)
        }
        guard n > 0 else {
          let e = errno
          throw DiscKitError(
            .io, path, at: written + Int64(done),
            "write failed: \(String(cString: strerror(e)))")
        }
        done += n
      }
      written += Int64(count)
      c.out.removeFirst(count)
      c.resolvedBytes -= count
    }
  }

  /// The clip's timing from the pass, validated against what clip information can hold.
  struct Timing {
    var start: UInt64
    var duration: UInt64
    /// Every STC sequence (the first gives `start` and `duration`).
    var sequences: [BDMVClipAnalysis.STCSequence]
    var fps: Double
    var recordingRate: UInt32

    init(
      _ consumer: ConvertingConsumer, path: String, video: CarriedStream, pcrPID: UInt16,
      hasAccessPoints: Bool
    ) throws(DiscKitError) {
      let packetCount = consumer.packetCount
      guard packetCount > 0, packetCount <= Int64(UInt32.max) else {
        throw DiscKitError(
          .limitExceeded, path, at: nil,
          "\(packetCount) source packets; a clip holds 1 to \(UInt32.max) (num_source_packets is 32 bits)"
        )
      }
      guard let first = consumer.videoFirstPTS, consumer.videoPESCount > 0 else {
        throw DiscKitError(
          .unsupported, path, at: nil,
          "the video stream (PID 0x\(String(video.info.pid, radix: 16))) has no PES packet with a PTS"
        )
      }
      guard hasAccessPoints else {
        throw DiscKitError(
          .unsupported, path, at: nil,
          "no random access point (IDR / I-picture) on the video PID 0x\(String(video.info.pid, radix: 16)): "
            + "the EP map would be empty")
      }
      // The frame duration from the sequence with the most frames.
      let longest = consumer.spans.max { $0.count < $1.count } ?? consumer.spans[0]
      let longestSpan = longest.maxDelta - longest.minDelta
      let frameDuration: Double =
        longest.count > 1 && longestSpan > 0
        ? Double(longestSpan) / Double(longest.count - 1) : 3600
      fps = 90000 / frameDuration
      var sequences: [BDMVClipAnalysis.STCSequence] = []
      for (k, span) in consumer.spans.enumerated() {
        guard let spanFirst = k == 0 ? first : span.firstPTS else {
          throw DiscKitError(
            .unsupported, path, at: nil,
            "STC sequence \(k + 1) (from source packet \(consumer.stcStarts[k])) has no video PES with a PTS"
          )
        }
        let duration = UInt64(span.maxDelta - span.minDelta) + UInt64(frameDuration.rounded())
        guard duration < 1 << 32 else {
          throw DiscKitError(
            .unsupported, path, at: nil,
            "the video lasts \(duration / 90000) s; a clip lasts under 13 h")
        }
        sequences.append(
          BDMVClipAnalysis.STCSequence(
            spnStart: UInt32(clamping: consumer.stcStarts[k]),
            start90k: (spanFirst &+ UInt64(bitPattern: span.minDelta)) & BDMVClipAnalysis.ptsMask,
            duration90k: duration))
      }
      self.sequences = sequences
      start = sequences[0].start90k
      duration = sequences[0].duration90k
      if consumer.pcrCount == 0 {
        throw DiscKitError(
          .unsupported, path, at: nil,
          "no PCR on the PCR PID 0x\(String(pcrPID, radix: 16)): arrival time stamps cannot be derived"
        )
      }
      recordingRate = 6_000_000
      if let firstPCR = consumer.firstPCR, let last = consumer.lastPCR, last.value > firstPCR {
        let seconds = Double(last.value - firstPCR) / 27_000_000
        let rate = Double(packetCount) * 192 / seconds
        recordingRate = UInt32(min(Double(UInt32.max), max(1, rate.rounded(.up))))
      }
    }
  }

  /// The ProgramInfo streams with their attributes (probed from the captured first PES).
  static func programInfoStreams(
    _ carried: [CarriedStream], consumer: ConvertingConsumer, mapped: (UInt16) -> UInt16,
    fps: Double, language: String?, enhancementLayer: UInt16? = nil
  ) -> [ClipProgramInfo.Stream] {
    var streams: [ClipProgramInfo.Stream] = []
    for (info, codec, coding) in carried {
      var stream = ClipProgramInfo.Stream(pid: mapped(info.pid), codingType: coding)
      let payload = consumer.captures[info.pid].flatMap(ElementaryStreamProbe.pesPayload)
      switch codec.kind {
      case .video:
        let picture = payload.flatMap { ElementaryStreamProbe.picture(codec: codec, payload: $0) }
        stream.format = ElementaryStreamProbe.videoFormat(picture)
        stream.rate = ElementaryStreamProbe.frameRate(fps)
        stream.aspect = 3
        if coding == 0x24 {
          let colour = ElementaryStreamProbe.hevcColour(codec: codec, payload: payload)
          // The enhancement layer is Dolby Vision (2); the colour space is its own VUI's.
          stream.dynamicRangeType =
            info.pid == enhancementLayer ? 2 : colour?.blurayDynamicRangeType ?? 0
          stream.colorSpace = colour?.blurayColorSpace ?? 0
          stream.hdrPlusFlag = colour?.blurayHDRPlusFlag ?? false
        }
      case .audio:
        let sound = payload.flatMap { ElementaryStreamProbe.sound(codec: codec, payload: $0) }
        stream.format = ElementaryStreamProbe.audioFormat(sound)
        stream.rate = ElementaryStreamProbe.sampleRate(sound)
        stream.language = info.language ?? language ?? "und"
      default:
        stream.language = info.language ?? language ?? "und"
      }
      streams.append(stream)
    }
    return streams
  }
}

/// Finds the PAT and the first program's PMT.
struct PSIConsumer: TransportPacketConsumer {
  var patAssembler = PSISectionAssembler()
  var pmtAssembler = PSISectionAssembler()
  var program: ProgramAssociationTable.Program?
  var patOffset: Int64?
  var pmt: ProgramMapTable?
  var pmtOffset: Int64 = 0
  var error: DiscKitError?

  mutating func consume(_ packet: TransportPacket) {
    guard pmt == nil, error == nil else { return }
    let pid = packet.pid
    guard pid == 0 || pid == program?.pid else { return }
    guard case .payload(let range) = packet.payloadLayout else { return }
    let payload = UnsafeRawBufferPointer(rebasing: packet.bytes[range])
    let payloadOffset = packet.syncOffset + Int64(range.lowerBound)
    if pid == 0 {
      let (sections, _) = patAssembler.feed(
        payload, unitStart: packet.header.payloadUnitStart, payloadOffset: payloadOffset,
        packetOffset: packet.offset)
      for section in sections where section.tableID == 0 && section.crcValid && program == nil {
        var reader = BinaryReader(
          section.bytes, baseOffset: section.offset, structure: "PAT")
        if let pat = try? ProgramAssociationTable(parsing: &reader),
          let first = pat.mappedPrograms.first
        {
          program = first
          patOffset = section.offset
        }
      }
    } else {
      let (sections, _) = pmtAssembler.feed(
        payload, unitStart: packet.header.payloadUnitStart, payloadOffset: payloadOffset,
        packetOffset: packet.offset)
      for section in sections where section.tableID == 2 && section.crcValid && pmt == nil {
        var reader = BinaryReader(section.bytes, baseOffset: section.offset, structure: "PMT")
        do {
          let table = try ProgramMapTable(parsing: &reader)
          if table.programNumber == program?.number {
            pmt = table
            pmtOffset = section.offset
          }
        } catch {
          self.error = error
        }
      }
    }
  }
}

/// Writes source packets into `out` and gathers the analysis, packet by packet.
struct ConvertingConsumer: TransportPacketConsumer {
  let videoPID: UInt16
  let pcrPID: UInt16
  let passThrough: Bool
  let capturePIDs: Set<UInt16>
  /// A Dolby Vision enhancement layer, captured whole like the video.
  var enhancementLayerPID: UInt16? = nil
  var finder: RandomAccessPointFinder

  /// Converted source packets not yet written; `out[0..<resolvedBytes]` carry their final ATS.
  var out: [UInt8] = []
  var resolvedBytes = 0
  /// The packet index of `out[resolvedBytes]`.
  var unresolvedIndex: Int64 = 0
  var packetCount: Int64 = 0
  /// The `TP_extra_header` of the last source packet copied (pass-through mode).
  var lastHeader: UInt32 = 0

  /// PCRs (27 MHz, unwrapped).
  var lastPCR: (value: Int64, index: Int64)?
  var lastRawPCR: Int64 = 0
  var firstPCR: Int64?
  var pcrCount = 0
  var ticksPerPacket: Double?
  /// 27 MHz ticks per 192-byte packet at 48 Mbit/s, used before two PCRs are known.
  static let nominalTicksPerPacket: Double = 27_000_000 * 192 / 6_000_000
  static let pcrModulus: Int64 = (1 << 33) * 300

  /// The video PES times of one STC sequence.
  struct VideoSpan {
    /// The first video PTS of the sequence.
    var firstPTS: UInt64?
    /// The earliest and latest video PTS, relative to `firstPTS` (signed, 33-bit modular).
    var minDelta: Int64 = 0
    var maxDelta: Int64 = 0
    /// Video PES packets with a PTS.
    var count = 0
  }

  /// The STC sequences: the index of each one's first packet (its PCR discontinuity) and its
  /// video times. A clip whose PCR restarts has several (ffmpeg streams concatenated).
  var stcStarts: [Int64] = [0]
  var spans: [VideoSpan] = [VideoSpan()]
  /// The PMT PID (with the PIDs below 0x20: PSI/SI packets, which carry no time).
  var pmtPID: UInt16 = 0x1FFF
  /// The first of the PSI/SI packets right before the current packet: a restarted stream's
  /// tables (ffmpeg writes SDT, PAT and PMT before the first PCR) open its STC sequence.
  var psiRunStart: Int64?
  /// The most STC sequences a clip may have (`number_of_STC_sequences` is 8 bits).
  static let maximumSTCSequences = 255

  var videoFirstPTS: UInt64? { spans[0].firstPTS }
  var videoMinDelta: Int64 { spans[0].minDelta }
  var videoMaxDelta: Int64 { spans[0].maxDelta }
  var videoPESCount: Int { spans.reduce(0) { $0 + $1.count } }
  var videoUnitStarts: [Int64] = []
  /// Audio-only clips: every PES start with a PTS of the timing stream (each is an access
  /// point).
  var audioPoints: [(index: Int64, pts: UInt64)] = []
  let isAudioTiming: Bool

  var captures: [UInt16: [UInt8]] = [:]
  var captureDone: Set<UInt16> = []
  var failure: DiscKitError?

  /// The PID rewriting of 188-byte input (nil: PIDs kept).
  let remap: PIDRemapping?

  init(
    videoPID: UInt16, videoCodec: StreamCodec, pcrPID: UInt16, passThrough: Bool,
    capturePIDs: Set<UInt16>, remap: PIDRemapping? = nil
  ) {
    self.remap = passThrough ? nil : remap
    self.videoPID = videoPID
    self.pcrPID = pcrPID
    self.passThrough = passThrough
    self.capturePIDs = capturePIDs
    // H.264 EP entries at IDRs and at open GOPs' I pictures with a recovery point SEI, as
    // retail discs have them.
    self.finder = RandomAccessPointFinder(
      pid: videoPID, codec: videoCodec, h264RecoveryPoints: true)
    self.isAudioTiming = videoCodec.kind == .audio
    out.reserveCapacity(ClipConverter.chunkSize + ClipConverter.chunkSize / 8)
  }

  mutating func consume(_ packet: TransportPacket) {
    let index = packet.index
    packetCount = index + 1
    if passThrough {
      out.append(contentsOf: packet.unit)
      let u = packet.unit
      lastHeader = UInt32(u[0]) << 24 | UInt32(u[1]) << 16 | UInt32(u[2]) << 8 | UInt32(u[3])
      resolvedBytes = out.count
      unresolvedIndex = index + 1
    } else {
      out.append(contentsOf: [0, 0, 0, 0])
      out.append(contentsOf: packet.bytes)
      if let remap {
        let base = out.count - 188
        let original = packet.pid
        let target = remap.table[Int(original)]
        if target != original {
          out[base + 1] = out[base + 1] & 0xE0 | UInt8(target >> 8)
          out[base + 2] = UInt8(target & 0xFF)
        }
        if packet.header.payloadUnitStart, original == 0 || original == remap.pmtPID,
          !remap.rewriteSection(&out, packetStart: base)
        {
          if failure == nil {
            failure = DiscKitError(
              .unsupported, "transport stream PSI", at: packet.offset,
              "a PAT/PMT section continues past its packet; DiscKit rewrites PIDs only in single-packet sections"
            )
          }
        }
      }
    }
    let pid = packet.pid
    let header = packet.header
    let isPSI = pid < 0x20 || pid == pmtPID
    if isPSI, psiRunStart == nil { psiRunStart = index }
    defer { if !isPSI { psiRunStart = nil } }
    if pid == pcrPID, let pcr = Self.pcr(packet) { recordPCR(pcr, index: index, packet: packet) }
    if pid == videoPID {
      finder.consume(packet)
      if header.payloadUnitStart, case .payload(let range) = packet.payloadLayout {
        videoUnitStarts.append(index)
        if let pts = Self.pts(UnsafeRawBufferPointer(rebasing: packet.bytes[range])) {
          if isAudioTiming { audioPoints.append((index, pts)) }
          let k = spans.count - 1
          spans[k].count += 1
          if let first = spans[k].firstPTS {
            var delta = Int64((pts &- first) & BDMVClipAnalysis.ptsMask)
            if delta >= 1 << 32 { delta -= 1 << 33 }
            spans[k].minDelta = min(spans[k].minDelta, delta)
            spans[k].maxDelta = max(spans[k].maxDelta, delta)
          } else {
            spans[k].firstPTS = pts
          }
        }
      }
    }
    if capturePIDs.contains(pid), !captureDone.contains(pid),
      case .payload(let range) = packet.payloadLayout
    {
      let payload = packet.bytes[range]
      if header.payloadUnitStart {
        if let captured = captures[pid], !ElementaryStreamProbe.isAC3CorePES(captured) {
          captureDone.insert(pid)
        } else {
          // The first PES, or the next one after a TrueHD PID's AC-3 core PES (the TrueHD
          // access unit with its major sync is what the probe reads).
          captures[pid] = Array(payload)
        }
      } else if captures[pid] != nil {
        captures[pid]?.append(contentsOf: payload)
      }
      // The video's (and a Dolby Vision enhancement layer's) first PES whole (an HEVC access
      // unit's parameter sets and HDR SEI messages may follow a long encoder SEI), the first
      // 2 KiB of the others.
      // (A TrueHD PID's AC-3 core PES is replaced by the next PES, up to 256 KiB.)
      let whole = pid == videoPID || pid == enhancementLayerPID
      if let captured = captures[pid], captured.count >= (whole ? 1 << 18 : 2048),
        captured.count >= 1 << 18 || !ElementaryStreamProbe.isAC3CorePES(captured)
      {
        captureDone.insert(pid)
      }
    }
  }

  /// Appends `count` null packets (PID 0x1FFF); their ATS continue the last rate.
  mutating func appendNullPackets(_ count: Int) {
    guard count > 0 else { return }
    var packet = [UInt8](repeating: 0xFF, count: 192)
    packet[4] = 0x47
    packet[5] = 0x1F
    packet[6] = 0xFF
    packet[7] = 0x10
    if passThrough {
      // Repeat the last arrival time stamp (copy permission bits kept).
      for k in 0..<4 { packet[k] = UInt8(truncatingIfNeeded: lastHeader >> (24 - 8 * UInt32(k))) }
    } else {
      packet.replaceSubrange(0..<4, with: [0, 0, 0, 0])
    }
    for _ in 0..<count { out.append(contentsOf: packet) }
    packetCount += Int64(count)
    if passThrough {
      resolvedBytes = out.count
      unresolvedIndex = packetCount
    }
  }

  /// The PCR of a packet (27 MHz), if it carries one.
  static func pcr(_ packet: TransportPacket) -> Int64? {
    let b = packet.bytes
    guard b[3] & 0x20 != 0, b[4] >= 7, b[5] & 0x10 != 0 else { return nil }
    let base =
      Int64(b[6]) << 25 | Int64(b[7]) << 17 | Int64(b[8]) << 9 | Int64(b[9]) << 1
      | Int64(b[10] >> 7)
    let ext = Int64(b[10] & 1) << 8 | Int64(b[11])
    return base * 300 + ext
  }

  /// The PTS of a PES header at the start of `payload`.
  static func pts(_ p: UnsafeRawBufferPointer) -> UInt64? {
    guard p.count >= 14, p[0] == 0, p[1] == 0, p[2] == 1, p[7] & 0x80 != 0 else { return nil }
    let a = UInt64(p[9] >> 1 & 7) << 30
    let b = UInt64(p[10]) << 22 | UInt64(p[11] >> 1) << 15
    let c = UInt64(p[12]) << 7 | UInt64(p[13] >> 1)
    return a | b | c
  }

  mutating func recordPCR(_ raw: Int64, index: Int64, packet: TransportPacket) {
    pcrCount += 1
    guard let last = lastPCR else {
      firstPCR = raw
      lastRawPCR = raw
      lastPCR = (raw, index)
      return
    }
    var delta = (raw - lastRawPCR) % Self.pcrModulus
    if delta < 0 { delta += Self.pcrModulus }
    let packets = index - last.index
    // Within an STC sequence the PCR advances, and not by more than 10 s. A restart (the
    // discontinuity indicator, a PCR going back or jumping ahead) begins the next STC sequence
    // at this packet; the arrival time base runs on at the last rate (one ATC sequence).
    if packet.discontinuityIndicator || delta == 0 && packets > 1 || delta > 270_000_000 {
      guard stcStarts.count < Self.maximumSTCSequences else {
        if failure == nil {
          failure = DiscKitError(
            .limitExceeded, "transport stream PCR", at: packet.offset,
            "PCR discontinuity (from \(lastRawPCR) to \(raw) on PID 0x\(String(pcrPID, radix: 16))) "
              + "after \(Self.maximumSTCSequences) STC sequences; a clip holds at most that many")
        }
        return
      }
      stcStarts.append(psiRunStart ?? index)
      spans.append(VideoSpan())
      let rate = ticksPerPacket ?? Self.nominalTicksPerPacket
      let value = last.value + Int64((Double(packets) * rate).rounded())
      fill(through: index) { k in
        last.value + Int64((Double(k - last.index) * rate).rounded())
      }
      lastRawPCR = raw
      lastPCR = (value, index)
      return
    }
    lastRawPCR = raw
    let value = last.value + delta
    if packets > 0 {
      ticksPerPacket = Double(delta) / Double(packets)
      fill(through: index) { k in last.value + delta * (k - last.index) / packets }
    }
    lastPCR = (value, index)
  }

  /// Writes the ATS of the pending packets up to and including `index`.
  mutating func fill(through index: Int64, ats: (Int64) -> Int64) {
    guard !passThrough else { return }
    var k = unresolvedIndex
    var position = resolvedBytes
    while k <= index, position + 192 <= out.count {
      var value = ats(k) % (1 << 30)
      if value < 0 { value += 1 << 30 }
      let v = UInt32(value)
      out[position] = UInt8(v >> 24 & 0x3F)
      out[position + 1] = UInt8(v >> 16 & 0xFF)
      out[position + 2] = UInt8(v >> 8 & 0xFF)
      out[position + 3] = UInt8(v & 0xFF)
      k += 1
      position += 192
    }
    unresolvedIndex = k
    resolvedBytes = position
  }

  /// Extrapolates the ATS of every pending packet from the last PCR and rate.
  mutating func resolvePending() {
    guard !passThrough, unresolvedIndex < packetCount else { return }
    let rate = ticksPerPacket ?? Self.nominalTicksPerPacket
    let base = lastPCR ?? (0, unresolvedIndex)
    let last = packetCount - 1
    fill(through: last) { k in base.value + Int64((Double(k - base.index) * rate).rounded()) }
    lastPCR = (base.value + Int64((Double(last - base.index) * rate).rounded()), last)
  }

  /// The random access points with a PTS, as EP map entries.
  mutating func finishAccessPoints() -> [BDMVClipAnalysis.EntryPoint] {
    let points: [(packetIndex: Int64, pts: UInt64?)] =
      isAudioTiming
      ? audioPoints.map { ($0.index, $0.pts) }
      : finder.finish().map { ($0.packetIndex, $0.pts) }
    var result: [BDMVClipAnalysis.EntryPoint] = []
    result.reserveCapacity(points.count)
    var lastSPN: Int64 = -1
    for p in points {
      guard let pts = p.pts, p.packetIndex > lastSPN, p.packetIndex <= Int64(UInt32.max) else {
        continue
      }
      lastSPN = p.packetIndex
      // The picture ends where the next PES of the video stream starts.
      var lo = 0
      var hi = videoUnitStarts.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if videoUnitStarts[mid] <= p.packetIndex { lo = mid + 1 } else { hi = mid }
      }
      let end = lo < videoUnitStarts.count ? videoUnitStarts[lo] : packetCount
      result.append(
        BDMVClipAnalysis.EntryPoint(
          pts90k: pts, spn: UInt32(p.packetIndex),
          iEndPositionOffset: EPMapLayout.iEndCode(bytes: (end - p.packetIndex) * 192)))
    }
    return result
  }
}

/// Moves the streams of a 188-byte transport stream to the PIDs Blu-ray clips use, rewriting the
/// PAT and PMT (with new CRCs).
struct PIDRemapping: Sendable {
  /// Old PID → new PID (identity for PIDs not moved).
  var table: [UInt16]
  /// The original PMT PID.
  var pmtPID: UInt16

  /// The Blu-ray PIDs for the program's streams, or nil when they are already there, the PMT
  /// does not fit one packet, or the mapping would collide.
  static func plan(program: ClipConverter.Program, enhancementLayer: UInt16? = nil)
    -> PIDRemapping?
  {
    let pmt = program.pmt
    var map: [UInt16: UInt16] = [program.pmtPID: 0x0100]
    // A Dolby Vision enhancement layer goes to 0x1015, where UHD Blu-ray players look for it.
    if let el = enhancementLayer { map[el] = 0x1015 }
    var next: [String: UInt16] = [
      "video": 0x1011, "audio": 0x1100, "pg": 0x1200, "ig": 0x1400, "audio2": 0x1A00,
    ]
    func take(_ key: String) -> UInt16? {
      guard let v = next[key] else { return nil }
      next[key] = v + 1
      return v
    }
    // An audio-only clip (a sub-path's secondary audio) takes the secondary audio PIDs.
    let audioOnly = !pmt.streams.contains { $0.codec.kind == .video }
    for stream in pmt.streams where stream.pid != enhancementLayer {
      let codec = stream.codec
      let key: String? =
        switch codec {
        case .eac3Secondary, .dtsExpressSecondary: "audio2"
        case _ where audioOnly && codec.kind == .audio: "audio2"
        case .pgs, .textSubtitle: "pg"
        case .interactiveGraphics: "ig"
        default:
          codec.kind == .video ? "video" : codec.kind == .audio ? "audio" : nil
        }
      if let key, let pid = take(key) { map[stream.pid] = pid }
    }
    if map[pmt.pcrPID] == nil, pmt.pcrPID != 0x1FFF { map[pmt.pcrPID] = 0x1001 }
    // Nothing to do, or a collision with a PID that stays.
    if map.allSatisfy({ $0.key == $0.value }) { return nil }
    let kept = Set(pmt.streams.map(\.pid) + [pmt.pcrPID, program.pmtPID]).subtracting(map.keys)
    let targets = Array(map.values)
    guard Set(targets).count == targets.count, kept.isDisjoint(with: targets),
      !targets.contains(0), !map.keys.contains(0)
    else { return nil }
    var table = (0..<8192).map { UInt16($0) }
    for (from, to) in map { table[Int(from & 0x1FFF)] = to }
    return PIDRemapping(table: table, pmtPID: program.pmtPID)
  }

  /// Rewrites the PIDs of a PAT (table 0) or PMT (table 2) section starting in the 188-byte
  /// packet at `out[packetStart]`; false when the section does not end in this packet.
  func rewriteSection(_ out: inout [UInt8], packetStart p: Int) -> Bool {
    var start = p + 4
    if out[p + 3] & 0x20 != 0 { start += 1 + Int(out[p + 4]) }
    guard start < p + 188 else { return true }
    let s = start + 1 + Int(out[start])
    guard s + 3 <= p + 188 else { return false }
    let tableID = out[s]
    guard tableID == 0 || tableID == 2 else { return true }
    let length = Int(out[s + 1] & 0x0F) << 8 | Int(out[s + 2])
    let end = s + 3 + length
    guard length >= 9, end <= p + 188 else { return false }
    func pid(at i: Int) -> UInt16 { UInt16(out[i] & 0x1F) << 8 | UInt16(out[i + 1]) }
    func setPID(at i: Int) {
      let v = self.table[Int(pid(at: i) & 0x1FFF)]
      out[i] = out[i] & 0xE0 | UInt8(v >> 8)
      out[i + 1] = UInt8(v & 0xFF)
    }
    if tableID == 0 {
      var i = s + 8
      while i + 4 <= end - 4 {
        if out[i] != 0 || out[i + 1] != 0 { setPID(at: i + 2) }
        i += 4
      }
    } else {
      guard s + 12 <= end - 4 else { return true }
      setPID(at: s + 8)
      var i = s + 12 + (Int(out[s + 10] & 0x0F) << 8 | Int(out[s + 11]))
      while i + 5 <= end - 4 {
        setPID(at: i + 1)
        let infoEnd = min(end - 4, i + 5 + (Int(out[i + 3] & 0x0F) << 8 | Int(out[i + 4])))
        // A DOVI video descriptor's dependency_pid (13 bits after the flags when bl_present_flag
        // is 0) names the base layer, which moves too.
        var d = i + 5
        while d + 2 <= infoEnd {
          let length = Int(out[d + 1])
          if out[d] == DolbyVisionConfiguration.descriptorTag, length >= 6,
            d + 2 + length <= infoEnd,
            out[d + 5] & 1 == 0
          {
            let at = d + 6
            let old = UInt16(out[at]) << 5 | UInt16(out[at + 1] >> 3)
            let new = self.table[Int(old & 0x1FFF)]
            out[at] = UInt8(new >> 5)
            out[at + 1] = UInt8(new & 0x1F) << 3 | out[at + 1] & 0x07
          }
          d += 2 + length
        }
        i = infoEnd
      }
    }
    let crc = MPEGCRC32.checksum(out[s..<(end - 4)])
    out[end - 4] = UInt8(crc >> 24)
    out[end - 3] = UInt8(crc >> 16 & 0xFF)
    out[end - 2] = UInt8(crc >> 8 & 0xFF)
    out[end - 1] = UInt8(crc & 0xFF)
    return true
  }
}
