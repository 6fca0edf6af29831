/// The pre-scanner's packet-level state (the consumer behind ``PESPreScanner``).
struct PreScanState: TransportPacketConsumer {
  /// The first access point seen under one reading of the stream.
  struct Hit: Sendable, Hashable {
    var pts: UInt64?
    var offset: Int64
    var kind: AccessPointKind
    var nalType: UInt8?
  }

  /// What is known of one PID carrying PES packets.
  struct Slot: Sendable {
    var pid: UInt16
    var tracker: PESStreamTracker
    var codec: StreamCodec?
    var pesCount = 0
    var pesBeforePMT = 0
    var firstPTS: UInt64?
    var firstPTSOffset: Int64?
    var dependentView = false
    /// The codec guessed from the first PES payload (for unlabelled streams).
    var sniffed: StreamCodec?
    var sniffDone = false
    // First hits under every reading (the codec may be learnt after them).
    var h264IDR: Hit?
    var mvcIDR: Hit?
    var hevcIDR: Hit?
    var hevcCRA: Hit?
    var mpeg2I: Hit?
    var vc1Entry: Hit?
  }

  let options: PESScanOptions
  var continuity = ContinuityCounterTracker()
  /// The next entry of `options.streamBoundaries` not yet passed.
  var nextBoundary = 0
  var slotIndex: [Int16]
  var slots: [Slot] = []
  var isPMTPID: [Bool]
  /// Per PID: a followed PES stream whose next continuation payload would only be counted
  /// (``PESStreamTracker/countsContinuationOnly``), refreshed after every packet that takes the
  /// general path. Such packets skip the general path when their header is plain (no error,
  /// unit start, scrambling or adaptation field) and their continuity counter follows on.
  var quiet: [Bool]
  /// Whether the fast path above is taken (the general path alone gives the same report; tests
  /// compare the two).
  var skipsQuietPayloads = true
  /// Packets that took the fast path.
  var quietPackets = 0
  /// `options.streamBoundaries[nextBoundary]`, or `Int64.max` past the last one.
  var nextBoundaryOffset: Int64
  var sectionAssemblers: [UInt16: PSISectionAssembler] = [:]
  var streams: [UInt16: ElementaryStreamInfo] = [:]
  var streamOrder: [UInt16] = []

  var gateOpen = false
  var firstPATOffset: Int64?
  var pesBeforePAT = 0
  var firstPMTOffset: Int64?
  var pmtPID: UInt16?
  var programNumber: UInt16?
  var pcrPID: UInt16?
  var sawPAT = false
  var continuityErrors = 0
  var untrackedPIDWarned = false
  var warnings: [ScanWarning] = []
  var warningsOmitted = 0
  var pesHeaderWarnings = 0

  init(options: PESScanOptions) {
    self.options = options
    slotIndex = [Int16](repeating: -1, count: 8192)
    isPMTPID = [Bool](repeating: false, count: 8192)
    quiet = [Bool](repeating: false, count: 8192)
    nextBoundaryOffset = options.streamBoundaries.first ?? .max
    slots.reserveCapacity(min(options.maxTrackedPIDs, 8192))
  }

  mutating func warn(_ warning: ScanWarning) {
    if warnings.count < options.maxWarnings {
      warnings.append(warning)
    } else {
      warningsOmitted += 1
    }
  }

  // MARK: TransportPacketConsumer

  mutating func syncAcquired(at offset: Int64, format: TransportPacketFormat, skippedBytes: Int64) {
    if skippedBytes > 0 {
      warn(
        ScanWarning(
          .leadingGarbage, offset: offset,
          "\(skippedBytes) bytes skipped before \(format.unitSize)-byte packets resumed"))
    }
  }

  mutating func syncLost(at offset: Int64) {
    warn(
      ScanWarning(.resync, offset: offset, "no sync byte where a packet was due; searching again"))
  }

  mutating func truncatedPacket(at offset: Int64, bytes: Int) {
    warn(
      ScanWarning(.truncatedPacket, offset: offset, "the data ends \(bytes) bytes into a packet"))
  }

  mutating func consume(_ packet: TransportPacket) {
    if skipsQuietPayloads {
      // Fast path: one 4-byte load decides whether this packet only adds to a PES's length.
      let word = UInt32(
        bigEndian: packet.unit.loadUnaligned(
          fromByteOffset: packet.format.syncOffset, as: UInt32.self))
      // transport_error_indicator 0, payload_unit_start_indicator 0, scrambling 00,
      // adaptation_field_control 01 (payload only: 184 bytes).
      if word & 0x00C0_00F0 == 0x0000_0010 {
        let pid = Int((word >> 8) & 0x1FFF)
        if quiet[pid], packet.offset < nextBoundaryOffset,
          continuity.followsOn(pid: pid, counter: UInt8(truncatingIfNeeded: word & 0x0F))
        {
          slots[Int(slotIndex[pid])].tracker.countContinuation(184)
          quietPackets &+= 1
          return
        }
      }
    }
    let header = packet.header
    let pid = header.pid
    if pid == TransportPacketHeader.nullPID { return }
    if header.transportError {
      warn(
        ScanWarning(
          .transportError, offset: packet.offset, pid: pid, "transport_error_indicator set"))
    }
    let boundaries = options.streamBoundaries
    if nextBoundary < boundaries.count && packet.offset >= boundaries[nextBoundary] {
      while nextBoundary < boundaries.count && packet.offset >= boundaries[nextBoundary] {
        nextBoundary += 1
      }
      nextBoundaryOffset = nextBoundary < boundaries.count ? boundaries[nextBoundary] : .max
      continuity.reset()
    }
    let cc = continuity.check(packet)
    var continuous = true
    switch cc {
    case .ok: break
    case .duplicate: return
    case .discontinuity(let expected, let found):
      continuityErrors += 1
      continuous = false
      warn(
        ScanWarning(
          .continuity, offset: packet.offset, pid: pid,
          "continuity counter \(found), expected \(expected)"))
    }
    let range: Range<Int>
    switch packet.payloadLayout {
    case .none: return
    case .invalidAdaptationLength(let length):
      warn(
        ScanWarning(
          .adaptationFieldLength, offset: packet.offset, pid: pid,
          "adaptation_field_length \(length) exceeds the packet; payload ignored"))
      return
    case .payload(let r): range = r
    }
    let bytes = packet.bytes
    let payload = UnsafeRawBufferPointer(rebasing: bytes[range])
    if pid == 0 || isPMTPID[Int(pid)] {
      if header.scrambling != 0 { return }
      section(
        packet: packet, pid: pid, payload: payload, unitStart: header.payloadUnitStart,
        continuous: continuous, payloadOffset: packet.syncOffset + Int64(range.lowerBound))
      return
    }
    if !gateOpen {
      if header.payloadUnitStart, pid >= 0x20, payload.count >= 3, payload[0] == 0, payload[1] == 0,
        payload[2] == 1
      {
        pesBeforePAT += 1
      }
      return
    }
    var slot = Int(slotIndex[Int(pid)])
    if slot < 0 {
      // PIDs 0x01-0x1F carry tables (CAT, NIT, SDT, EIT, SIT...); other PIDs are followed from
      // their first PES start.
      guard header.payloadUnitStart, pid >= 0x20, payload.count >= 3, payload[0] == 0,
        payload[1] == 0, payload[2] == 1
      else { return }
      guard slots.count < min(options.maxTrackedPIDs, 8192) else {
        if !untrackedPIDWarned {
          untrackedPIDWarned = true
          warn(
            ScanWarning(
              .tooManyPIDs, offset: packet.offset, pid: pid,
              "more than \(options.maxTrackedPIDs) PIDs carry PES packets; PID \(pid) and later ones are not followed"
            ))
        }
        return
      }
      slot = slots.count
      slotIndex[Int(pid)] = Int16(slot)
      let codec = streams[pid]?.codec
      var tracker = PESStreamTracker(payloadBound: options.payloadBound, scanMode: .byStreamID)
      if let codec { tracker.scanMode = codec.kind == .video ? .always : .never }
      slots.append(Slot(pid: pid, tracker: tracker, codec: codec))
    }
    if header.scrambling != 0 {
      if header.payloadUnitStart {
        warn(
          ScanWarning(
            .scrambled, offset: packet.offset, pid: pid,
            "transport_scrambling_control \(header.scrambling)"))
      }
      return
    }
    let step = slots[slot].tracker.consume(
      payload, unitStart: header.payloadUnitStart, packetOffset: packet.offset,
      packetIndex: packet.index,
      randomAccessIndicator: packet.randomAccessIndicator)
    if let finished = step.finished { finishedPES(finished, slot: slot) }
    if let started = step.started { startedPES(started, slot: slot) }
    quiet[Int(pid)] = slots[slot].tracker.countsContinuationOnly
  }

  // MARK: PES

  mutating func startedPES(_ start: PESStreamTracker.Start, slot: Int) {
    if let problem = start.problem {
      pesHeaderWarnings += 1
      warn(
        ScanWarning(
          .pesHeader, offset: start.offset, pid: slots[slot].pid, "PES header: \(problem.rawValue)")
      )
      if start.header == nil { return }
    }
    slots[slot].pesCount += 1
    if slots[slot].codec == nil { slots[slot].pesBeforePMT += 1 }
    if slots[slot].firstPTS == nil, let pts = start.header?.pts {
      slots[slot].firstPTS = pts
      slots[slot].firstPTSOffset = start.offset
    }
  }

  mutating func finishedPES(_ finished: PESStreamTracker.Finished, slot: Int) {
    let pid = slots[slot].pid
    if finished.lengthMismatch {
      warn(
        ScanWarning(
          .pesLength, offset: finished.start.offset, pid: pid,
          "PES_packet_length \(finished.declaredLength) but \(finished.receivedLength) bytes arrived"
        ))
    }
    guard finished.start.header != nil else { return }
    if !slots[slot].sniffDone {
      slots[slot].sniffDone = true
      slots[slot].sniffed = StreamCodec.sniff(
        payloadPrefix: finished.payloadPrefix, count: finished.payloadPrefixCount)
    }
    let flags = finished.flags
    let pts = finished.start.header?.pts
    let offset = finished.start.offset
    if flags.mvcDependentView { slots[slot].dependentView = true }
    if flags.h264IDR, slots[slot].h264IDR == nil {
      slots[slot].h264IDR = Hit(pts: pts, offset: offset, kind: .idr)
    }
    if flags.mvcIDR || flags.h264IDR, slots[slot].mvcIDR == nil {
      slots[slot].mvcIDR = Hit(pts: pts, offset: offset, kind: .idr)
    }
    if let t = flags.hevcIRAPType {
      if t == 19 || t == 20 {
        if slots[slot].hevcIDR == nil {
          slots[slot].hevcIDR = Hit(pts: pts, offset: offset, kind: .idr, nalType: t)
        }
      } else if slots[slot].hevcCRA == nil {
        slots[slot].hevcCRA = Hit(pts: pts, offset: offset, kind: t == 21 ? .cra : .bla, nalType: t)
      }
    }
    if flags.mpeg2IPictureAfterSequenceHeader, slots[slot].mpeg2I == nil {
      slots[slot].mpeg2I = Hit(pts: pts, offset: offset, kind: .iPicture)
    }
    if flags.vc1EntryPoint, slots[slot].vc1Entry == nil {
      slots[slot].vc1Entry = Hit(pts: pts, offset: offset, kind: .entryPoint)
    }
    // Once the codec is known and its access point found, stop scanning this PID.
    if let codec = slots[slot].codec, Self.idrHit(slots[slot], codec) != nil {
      slots[slot].tracker.stopScanning()
    }
  }

  static func idrHit(_ slot: Slot, _ codec: StreamCodec) -> Hit? {
    switch codec {
    case .h264: slot.h264IDR
    case .h264MVC: slot.mvcIDR
    case .hevc: slot.hevcIDR
    case .mpeg1Video, .mpeg2Video: slot.mpeg2I
    case .vc1: slot.vc1Entry
    default: nil
    }
  }

  // MARK: PSI

  mutating func section(
    packet: TransportPacket, pid: UInt16, payload: UnsafeRawBufferPointer, unitStart: Bool,
    continuous: Bool, payloadOffset: Int64
  ) {
    var assembler = sectionAssemblers[pid] ?? PSISectionAssembler()
    let result = assembler.feed(
      payload, unitStart: unitStart, payloadOffset: payloadOffset, packetOffset: packet.offset,
      continuous: continuous)
    sectionAssemblers[pid] = assembler
    for problem in result.problems {
      switch problem {
      case .discontinuity: break  // already reported as a continuity error
      case .invalidSectionLength(let length, let at):
        warn(
          ScanWarning(
            .malformedSection, offset: at, pid: pid, "section_length \(length) exceeds 4093"))
      case .invalidPointerField(let pointer, let at):
        warn(
          ScanWarning(
            .malformedSection, offset: at, pid: pid,
            "pointer_field \(pointer) points past the packet"))
      }
    }
    for section in result.sections {
      if pid == 0 {
        guard section.tableID == 0x00 else { continue }
        patSection(section)
      } else if section.tableID == 0x02 {
        pmtSection(section, pid: pid)
      }
    }
  }

  mutating func patSection(_ section: PSISectionAssembler.PSISection) {
    var reader = BinaryReader(section.bytes, baseOffset: section.offset, structure: "PAT")
    do {
      let pat = try ProgramAssociationTable(parsing: &reader)
      if !gateOpen {
        gateOpen = true
        firstPATOffset = section.packetOffset
      }
      sawPAT = true
      for program in pat.mappedPrograms where Int(program.pid) < isPMTPID.count {
        if !isPMTPID[Int(program.pid)] && slotIndex[Int(program.pid)] < 0 {
          isPMTPID[Int(program.pid)] = true
        }
      }
    } catch {
      warn(
        ScanWarning(
          error.code == .checksumMismatch ? .crcMismatch : .malformedSection,
          offset: section.packetOffset, pid: 0, "PAT: \(error.detail)"))
    }
  }

  mutating func pmtSection(_ section: PSISectionAssembler.PSISection, pid: UInt16) {
    var reader = BinaryReader(section.bytes, baseOffset: section.offset, structure: "PMT")
    do {
      let pmt = try ProgramMapTable(parsing: &reader)
      if firstPMTOffset == nil {
        firstPMTOffset = section.packetOffset
        pmtPID = pid
        programNumber = pmt.programNumber
        pcrPID = pmt.pcrPID
      }
      for stream in pmt.streams where streams[stream.pid] == nil {
        streams[stream.pid] = stream
        streamOrder.append(stream.pid)
        let codec = stream.codec
        let slot = Int(slotIndex[Int(stream.pid)])
        if slot >= 0 {
          slots[slot].codec = codec
          if codec.kind != .video {
            slots[slot].tracker.stopScanning()
          } else if Self.idrHit(slots[slot], codec) != nil {
            slots[slot].tracker.stopScanning()
          } else {
            slots[slot].tracker.scanMode = .always
          }
        }
      }
    } catch {
      warn(
        ScanWarning(
          error.code == .checksumMismatch ? .crcMismatch : .malformedSection,
          offset: section.packetOffset, pid: pid, "PMT: \(error.detail)"))
    }
  }

  // MARK: Report

  mutating func finishStreams() {
    for i in slots.indices {
      if let finished = slots[i].tracker.finish() { finishedPES(finished, slot: i) }
    }
  }
}
