/// Scans the head of a transport stream (by default 30 MiB from a chosen start) and reports
/// where playback can really begin: the first PAT (PES packets before it are counted in
/// ``PESScanReport/pesBeforePAT`` and otherwise ignored, as GStreamer's tsdemux drops them), per
/// video PID the first PTS and the first random access point, per audio PID the first PTS, and
/// the gaps between them.
///
/// Incremental: ``feed(_:)`` takes chunks of any size and ``finish()`` returns the report, which
/// is the same whatever the chunking. The per-packet path does not allocate.
///
/// ```swift
/// let report = try PESPreScanner.scan(source: FileByteSource(path: "00800.m2ts"))
/// print(report.video.first?.preIDRGapSeconds ?? 0)
/// ```
public struct PESPreScanner {
  /// The default window: 30 MiB.
  public static let defaultWindow: Int64 = 30 << 20

  private var reader: TransportPacketReader
  private var state: PreScanState
  private let scanStart: Int64

  /// Creates a scanner for bytes that start at absolute offset `scanStart`.
  public init(scanStart: Int64 = 0, options: PESScanOptions = PESScanOptions()) {
    self.scanStart = scanStart
    self.reader = TransportPacketReader(baseOffset: scanStart, format: options.format)
    self.state = PreScanState(options: options)
  }

  /// Whether packets that only extend a PES skip the general per-packet path (the default).
  /// The report is the same either way; tests turn it off to compare the two paths.
  var skipsQuietPayloads: Bool {
    get { state.skipsQuietPayloads }
    set { state.skipsQuietPayloads = newValue }
  }

  /// Packets that took the fast path so far.
  var quietPacketCount: Int { state.quietPackets }

  /// Feeds the next bytes.
  public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
    reader.feed(chunk, into: &state)
  }

  /// Ends the scan and builds the report.
  public mutating func finish() -> PESScanReport {
    reader.finish(into: &state)
    state.finishStreams()
    return buildReport()
  }

  /// Scans `window` bytes of `source` from `offset`.
  ///
  /// - Throws: ``DiscKitError/Code/invalidArgument`` for an offset outside the source or a
  ///   negative window; ``DiscKitError/Code/malformed`` when no transport packets are found
  ///   (an empty, random or non-TS input); I/O errors of the source.
  public static func scan(
    source: any ByteSource, offset: Int64 = 0, window: Int64 = defaultWindow,
    options: PESScanOptions = PESScanOptions()
  ) throws(DiscKitError) -> PESScanReport {
    guard offset >= 0, offset <= source.size else {
      throw DiscKitError(
        .invalidArgument, "transport stream", at: offset,
        "offset lies outside the \(source.size)-byte source")
    }
    guard window >= 0 else {
      throw DiscKitError(
        .invalidArgument, "transport stream", at: offset, "negative scan window \(window)")
    }
    let end = offset + min(window, source.size - offset)
    var scanner = PESPreScanner(scanStart: offset, options: options)
    let chunk = max(4096, options.chunkSize)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 64)
    defer { buffer.deallocate() }
    var position = offset
    while position < end {
      let want = Int(min(Int64(chunk), end - position))
      let got = try source.readFully(
        at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
      if got == 0 { break }
      scanner.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
      position += Int64(got)
    }
    let report = scanner.finish()
    guard report.packetSize != nil else {
      throw DiscKitError(
        .malformed, "transport stream", at: offset,
        "no transport packets (sync bytes 0x47 at a 188, 192 or 204-byte spacing) in \(report.bytesScanned) bytes"
      )
    }
    return report
  }

  private func buildReport() -> PESScanReport {
    var state = self.state
    if reader.format == nil {
      state.warn(
        ScanWarning(
          .noPackets, offset: scanStart, "no packet sync found in \(reader.bytesFed) bytes"))
    } else {
      if !state.sawPAT {
        state.warn(ScanWarning(.noPAT, "no valid PAT: every PES was left uncounted"))
      }
      if state.sawPAT && state.firstPMTOffset == nil {
        state.warn(ScanWarning(.noPMT, "no valid PMT: stream types are unknown"))
      }
    }
    var video: [VideoStreamReport] = []
    var audio: [AudioStreamReport] = []
    var other: [OtherStreamReport] = []
    var pids = state.streamOrder
    for slot in state.slots where state.streams[slot.pid] == nil { pids.append(slot.pid) }
    for pid in pids.sorted() {
      let info = state.streams[pid]
      let index = Int(state.slotIndex[Int(pid)])
      let slot: PreScanState.Slot? = index >= 0 ? state.slots[index] : nil
      var codec = info?.codec ?? .unknown
      if codec == .unknown, info == nil || info?.streamType == 0x06, let sniffed = slot?.sniffed {
        codec = sniffed
      }
      switch codec.kind {
      case .video:
        var v = VideoStreamReport(
          pid: pid, streamType: info?.streamType, codec: codec,
          dependentView: codec == .h264MVC || (slot?.dependentView ?? false),
          firstPTS: slot?.firstPTS, firstPTSOffset: slot?.firstPTSOffset,
          pesCount: slot?.pesCount ?? 0,
          pesBeforePMT: slot?.pesBeforePMT ?? 0)
        if let slot, let hit = PreScanState.idrHit(slot, codec) {
          v.firstIDRPTS = hit.pts
          v.firstIDROffset = hit.offset
          v.firstIDRKind = hit.kind
        }
        if codec == .hevc, let cra = slot?.hevcCRA {
          v.firstCRAPTS = cra.pts
          v.firstCRAOffset = cra.offset
          v.firstCRANALType = cra.nalType
        }
        if let first = v.firstPTS, let idr = v.firstIDRPTS {
          v.preIDRGapSeconds =
            Double(MPEGTimestamp.signedDifference(idr, first)) / MPEGTimestamp.clockRate
        }
        if v.firstIDRPTS == nil && v.firstCRAPTS == nil && v.pesCount > 0 {
          state.warn(
            ScanWarning(
              .noRandomAccessPoint, pid: pid, "no random access point found in the window"))
        }
        video.append(v)
      case .audio:
        audio.append(
          AudioStreamReport(
            pid: pid, streamType: info?.streamType, codec: codec, language: info?.language,
            firstPTS: slot?.firstPTS,
            firstPTSOffset: slot?.firstPTSOffset, pesCount: slot?.pesCount ?? 0,
            pesBeforePMT: slot?.pesBeforePMT ?? 0))
      case .subtitle, .other:
        if info == nil, let slot, slot.pesCount > 0 {
          state.warn(
            ScanWarning(
              .pidNotInPMT, offset: slot.firstPTSOffset, pid: pid,
              "PID carries PES packets but is in no PMT"))
        }
        other.append(
          OtherStreamReport(
            pid: pid, streamType: info?.streamType, codec: codec, language: info?.language,
            inPMT: info != nil,
            firstPTS: slot?.firstPTS, pesCount: slot?.pesCount ?? 0))
      }
    }
    let firstVideo = video.first
    for i in audio.indices {
      guard let a = audio[i].firstPTS else { continue }
      if let v = firstVideo?.firstPTS {
        audio[i].offsetFromVideoSeconds =
          Double(MPEGTimestamp.signedDifference(a, v)) / MPEGTimestamp.clockRate
      }
      if let v = firstVideo?.firstIDRPTS {
        audio[i].offsetFromIDRSeconds =
          Double(MPEGTimestamp.signedDifference(a, v)) / MPEGTimestamp.clockRate
      }
    }
    return PESScanReport(
      scanStart: scanStart, bytesScanned: reader.bytesFed, packetSize: reader.format?.unitSize,
      packets: reader.packetCount,
      firstPATOffset: state.firstPATOffset, pesBeforePAT: state.pesBeforePAT,
      firstPMTOffset: state.firstPMTOffset,
      pmtPID: state.pmtPID, programNumber: state.programNumber, pcrPID: state.pcrPID, video: video,
      audio: audio,
      other: other, avOffsetSeconds: audio.first?.offsetFromVideoSeconds,
      continuityErrors: state.continuityErrors,
      resyncs: reader.resyncCount, skippedBytes: reader.skippedBytes, warnings: state.warnings,
      warningsOmitted: state.warningsOmitted)
  }
}
