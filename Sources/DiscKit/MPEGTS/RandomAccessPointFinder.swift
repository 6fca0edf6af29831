/// Finds every random access point of one video PID: for each PES that begins an IDR (H.264,
/// MVC, HEVC), a CRA/BLA (HEVC), an I-picture after a sequence header (MPEG-2) or an entry point
/// (VC-1), the packet where the PES starts, its PTS/DTS and the kind. This is what a Blu-ray
/// clip information file's EP map lists. With `h264RecoveryPoints`, an H.264 I picture carrying a
/// recovery point SEI (an open GOP's entry) is one too.
///
/// Feed it packets (``consume(_:)``, e.g. from your own ``TransportPacketReader``) or raw bytes
/// (``feed(_:)``), then call ``finish()``. Allocation-free per packet (the result array grows).
package struct RandomAccessPointFinder {
  /// The packet-level part (a ``TransportPacketConsumer``).
  package struct Collector: TransportPacketConsumer {
    /// The video PID followed.
    package let pid: UInt16
    /// The codec the PID's payloads are read as.
    package let codec: StreamCodec
    /// Whether H.264 I pictures with a recovery point SEI count (open GOPs).
    package let h264RecoveryPoints: Bool
    /// The access points found so far.
    package private(set) var accessPoints: [RandomAccessPoint] = []
    /// The PTS of the first and of the last PES with a PTS on the PID.
    package private(set) var firstPTS: UInt64?
    /// The PTS of the last PES with a PTS on the PID.
    package private(set) var lastPTS: UInt64?
    /// PES packets seen on the PID.
    package private(set) var pesCount = 0
    /// Continuity errors on the PID.
    package private(set) var continuityErrors = 0
    var tracker: PESStreamTracker
    var continuity = ContinuityCounterTracker()

    init(pid: UInt16, codec: StreamCodec, payloadBound: Int, h264RecoveryPoints: Bool) {
      self.pid = pid
      self.codec = codec
      self.h264RecoveryPoints = h264RecoveryPoints
      self.tracker = PESStreamTracker(payloadBound: payloadBound, scanMode: .always)
    }

    /// Takes one packet: packets of other PIDs, without payload or duplicated are ignored; a
    /// counter jump counts as a continuity error.
    package mutating func consume(_ packet: TransportPacket) {
      guard packet.pid == pid else { return }
      let header = packet.header
      guard header.hasPayload else { return }
      switch continuity.check(
        pid: pid, counter: header.continuityCounter, hasPayload: true,
        discontinuityIndicator: packet.discontinuityIndicator)
      {
      case .ok: break
      case .duplicate: return
      case .discontinuity: continuityErrors += 1
      }
      guard case .payload(let range) = packet.payloadLayout else { return }
      let step = tracker.consume(
        UnsafeRawBufferPointer(rebasing: packet.bytes[range]), unitStart: header.payloadUnitStart,
        packetOffset: packet.offset, packetIndex: packet.index,
        randomAccessIndicator: packet.randomAccessIndicator)
      if let finished = step.finished { record(finished) }
      if let started = step.started, let pts = started.header?.pts {
        if firstPTS == nil { firstPTS = pts }
        lastPTS = pts
      }
    }

    mutating func record(_ finished: PESStreamTracker.Finished) {
      guard let header = finished.start.header else { return }
      pesCount += 1
      guard
        let kind = finished.flags.accessPoint(
          for: codec, h264RecoveryPoints: h264RecoveryPoints)
      else { return }
      accessPoints.append(
        RandomAccessPoint(
          pid: pid, kind: kind, pts: header.pts, dts: header.dts, offset: finished.start.offset,
          packetIndex: finished.start.packetIndex,
          randomAccessIndicator: finished.start.randomAccessIndicator))
    }

    mutating func finish() {
      if let finished = tracker.finish() { record(finished) }
    }
  }

  private var reader: TransportPacketReader
  /// The packet-level state and results.
  package private(set) var collector: Collector

  /// Creates a finder for `pid` coded as `codec`.
  ///
  /// - Parameters:
  ///   - baseOffset: the absolute offset of the first byte given to ``feed(_:)``.
  ///   - payloadBound: payload bytes scanned per PES for start codes.
  ///   - h264RecoveryPoints: H.264 I pictures with a recovery point SEI are access points too.
  package init(
    pid: UInt16, codec: StreamCodec, baseOffset: Int64 = 0, format: TransportPacketFormat? = nil,
    payloadBound: Int = 4096, h264RecoveryPoints: Bool = false
  ) {
    reader = TransportPacketReader(baseOffset: baseOffset, format: format)
    collector = Collector(
      pid: pid, codec: codec, payloadBound: payloadBound, h264RecoveryPoints: h264RecoveryPoints)
  }

  /// Feeds raw stream bytes.
  package mutating func feed(_ chunk: UnsafeRawBufferPointer) {
    reader.feed(chunk, into: &collector)
  }

  /// Feeds one packet found by a reader of your own.
  package mutating func consume(_ packet: TransportPacket) {
    collector.consume(packet)
  }

  /// Ends the stream; returns every access point found, in stream order.
  package mutating func finish() -> [RandomAccessPoint] {
    reader.finish(into: &collector)
    collector.finish()
    return collector.accessPoints
  }
}
