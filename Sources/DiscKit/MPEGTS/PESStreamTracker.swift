/// Follows the PES packets of one PID through its transport packets: finds each PES start,
/// decodes its header even when the header straddles packets, checks `PES_packet_length`
/// against the bytes that arrive, and scans the head of each payload (up to ``payloadBound``
/// bytes) for video start codes. Allocation-free after creation.
package struct PESStreamTracker: Sendable {
  /// Where a PES started and what its header says.
  package struct Start: Sendable, Hashable {
    /// The absolute offset of the unit whose payload begins the PES.
    package var offset: Int64
    /// That unit's index.
    package var packetIndex: Int64
    /// That packet's `random_access_indicator`.
    package var randomAccessIndicator: Bool
    /// The decoded header (nil when the start code is missing).
    package var header: PESHeader?
    /// What is wrong with the header, if anything.
    package var problem: PESHeader.Problem?
  }

  /// A PES whose bytes have all arrived (the next PES started, or the stream ended).
  package struct Finished: Sendable, Hashable {
    /// Where the PES started and what its header says.
    package var start: Start
    /// What the scanned head of the payload announces.
    package var flags: AccessUnitFlags
    /// `PES_packet_length` (0 = unbounded).
    package var declaredLength: Int
    /// The bytes that arrived after the 6-byte fixed header part.
    package var receivedLength: Int
    /// The first (up to) four payload bytes, big-endian, left-aligned; `payloadPrefixCount` of
    /// them are valid (for sniffing the codec of an unlabelled stream).
    package var payloadPrefix: UInt32
    /// How many bytes of `payloadPrefix` are valid (0-4).
    package var payloadPrefixCount: Int
    /// Whether a non-zero `PES_packet_length` disagrees with the bytes that arrived before the
    /// next PES (a lying length). Never set for the PES cut off by the end of the stream.
    package var lengthMismatch: Bool
  }

  /// The outcome of one packet.
  package struct Step: Sendable {
    /// The previous PES, completed by this packet's unit start.
    package var finished: Finished?
    /// A PES whose header was completed by this packet.
    package var started: Start?
  }

  /// Which payloads to scan for start codes.
  package enum ScanMode: Sendable, Hashable {
    /// Never (audio, subtitles).
    case never
    /// Every PES.
    case always
    /// PES whose `stream_id` is video (0xE0-0xEF) or extended (0xFD, VC-1).
    case byStreamID
  }

  /// Payload bytes scanned per PES.
  package var payloadBound: Int
  /// Which payloads to scan.
  package var scanMode: ScanMode

  private var active = false
  private var start = Start(
    offset: 0, packetIndex: 0, randomAccessIndicator: false, header: nil, problem: nil)
  private var headerBytes: [UInt8]
  private var headerComplete = false
  private var headerSkip = 0
  private var received = 0
  private var scanning = false
  private var scanned = 0
  private var scanner = StartCodeScanner()
  private var prefix: UInt32 = 0
  private var prefixCount = 0

  /// Creates a tracker.
  package init(payloadBound: Int = 4096, scanMode: ScanMode = .byStreamID) {
    self.payloadBound = max(0, payloadBound)
    self.scanMode = scanMode
    self.headerBytes = []
    self.headerBytes.reserveCapacity(19)
  }

  /// Whether a PES is in progress.
  package var inPES: Bool { active }

  /// Feeds one packet's payload.
  package mutating func consume(
    _ payload: UnsafeRawBufferPointer, unitStart: Bool, packetOffset: Int64, packetIndex: Int64,
    randomAccessIndicator: Bool
  ) -> Step {
    var step = Step()
    if unitStart {
      if active { step.finished = finalize(atEnd: false) }
      active = true
      start = Start(
        offset: packetOffset, packetIndex: packetIndex,
        randomAccessIndicator: randomAccessIndicator, header: nil, problem: nil)
      headerBytes.removeAll(keepingCapacity: true)
      headerComplete = false
      headerSkip = 0
      received = 0
      scanned = 0
      scanning = false
      prefix = 0
      prefixCount = 0
      scanner.reset()
    }
    guard active else { return step }
    var p = payload[...]
    received &+= payload.count
    while !headerComplete, !p.isEmpty {
      let have = headerBytes.count
      var target = 6
      if have >= 6 {
        if !PESHeader.hasOptionalHeader(streamID: headerBytes[3]) {
          target = 6
        } else if have < 9 {
          target = 9
        } else {
          target = min(9 + Int(headerBytes[8]), 19)
        }
      }
      if have >= target {
        if !completeHeader(&step) { return step }
        continue
      }
      let take = min(target - have, p.count)
      headerBytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: p.prefix(take)))
      p = p.dropFirst(take)
      if headerBytes.count >= 3, headerBytes[0] != 0 || headerBytes[1] != 0 || headerBytes[2] != 1 {
        start.problem = .missingStartCode
        step.started = start
        active = false
        return step
      }
    }
    if !headerComplete, headerBytes.count >= 6 {
      // The header may be complete exactly at the end of this payload.
      let optional = PESHeader.hasOptionalHeader(streamID: headerBytes[3])
      let target = !optional ? 6 : headerBytes.count < 9 ? 9 : min(9 + Int(headerBytes[8]), 19)
      if headerBytes.count >= target, !completeHeader(&step) { return step }
    }
    guard headerComplete else { return step }
    if headerSkip > 0 {
      let s = min(headerSkip, p.count)
      p = p.dropFirst(s)
      headerSkip -= s
    }
    if headerSkip == 0, prefixCount < 4 {
      for b in p.prefix(4 - prefixCount) {
        prefix |= UInt32(b) << (24 - 8 * prefixCount)
        prefixCount += 1
      }
    }
    if scanning, headerSkip == 0, scanned < payloadBound, !p.isEmpty {
      let n = min(payloadBound - scanned, p.count)
      scanner.scan(UnsafeRawBufferPointer(rebasing: p.prefix(n)))
      scanned += n
    }
    return step
  }

  /// Whether a payload that does not start a PES would only be counted: no PES in progress, or
  /// its header complete, its payload prefix captured and its start-code scan finished or off.
  /// The pre-scanner then skips the payload's bytes (``countContinuation(_:)``).
  @inline(__always)
  var countsContinuationOnly: Bool {
    !active
      || (headerComplete && headerSkip == 0 && prefixCount >= 4
        && (!scanning || scanned >= payloadBound))
  }

  /// Takes a payload of `count` bytes that does not start a PES, when
  /// ``countsContinuationOnly``: the same as ``consume(_:unitStart:packetOffset:packetIndex:randomAccessIndicator:)``
  /// without reading the bytes.
  @inline(__always)
  mutating func countContinuation(_ count: Int) {
    if active { received &+= count }
  }

  /// Stops scanning the current PES (and the following ones until ``scanMode`` changes).
  package mutating func stopScanning() {
    scanning = false
    scanMode = .never
  }

  /// Completes the PES in progress at the end of the stream.
  package mutating func finish() -> Finished? {
    guard active else { return nil }
    return finalize(atEnd: true)
  }

  /// Decodes the collected header bytes. Returns false when the PES must be ignored.
  private mutating func completeHeader(_ step: inout Step) -> Bool {
    let decoded = headerBytes.withUnsafeBytes { PESHeader.decode($0) }
    start.header = decoded.header
    start.problem = decoded.problem
    headerComplete = true
    step.started = start
    guard let header = decoded.header else {
      active = false
      return false
    }
    headerSkip = max(0, header.payloadOffset - headerBytes.count)
    // Bytes collected beyond the header (short headers) are payload.
    let extra = headerBytes.count - header.payloadOffset
    switch scanMode {
    case .never: scanning = false
    case .always: scanning = true
    case .byStreamID: scanning = (0xE0...0xEF).contains(header.streamID) || header.streamID == 0xFD
    }
    if extra > 0 {
      for i in 0..<min(extra, 4) {
        prefix |= UInt32(headerBytes[header.payloadOffset + i]) << (24 - 8 * prefixCount)
        prefixCount += 1
      }
    }
    if extra > 0, scanning {
      headerBytes.withUnsafeBytes { raw in
        let n = min(extra, payloadBound)
        scanner.scan(
          UnsafeRawBufferPointer(rebasing: raw[header.payloadOffset..<header.payloadOffset + n]))
        scanned += n
      }
    }
    return true
  }

  private mutating func finalize(atEnd: Bool) -> Finished {
    active = false
    if !headerComplete {
      start.problem = headerBytes.count < 3 ? .missingStartCode : .headerDataTooShort
      if headerBytes.count >= 6 {
        start.header = headerBytes.withUnsafeBytes { PESHeader.decode($0) }.header
        start.header?.pts = nil
        start.header?.dts = nil
      }
    }
    scanner.flush()
    let declared = start.header?.packetLength ?? 0
    let body = received - 6
    var mismatch = false
    if declared != 0, start.header != nil {
      mismatch = atEnd ? body > declared : body != declared
    }
    return Finished(
      start: start, flags: scanner.flags, declaredLength: declared, receivedLength: max(0, body),
      payloadPrefix: prefix, payloadPrefixCount: prefixCount,
      lengthMismatch: mismatch)
  }
}
