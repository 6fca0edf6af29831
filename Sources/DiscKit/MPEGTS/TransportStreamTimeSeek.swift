/// Time seek inside a plain transport-stream file (`.ts` 188-byte, `.m2ts`/`.mts` 192-byte BDAV,
/// 204-byte packets): the byte offset where playback from `T` seconds after the stream's start
/// should begin.
///
/// The seek:
/// 1. scans the head (``PESPreScanner``, 1 MiB, then ``headWindow`` bytes if needed) for the packet size, the first
///    video PID (not an MVC dependent view), its codec from the PMT and its first PTS `P0` (the
///    first PES after the PAT gate);
/// 2. bisects packet-aligned file offsets, reading ``probeWindow``-byte windows, for the first
///    video PES whose decoding time (DTS, else PTS — decode order is monotonic, so B-frame
///    reordering does not disturb the bisection) lies more than `T` after `P0`;
/// 3. scans backward from there, window by window, with a `RandomAccessPointFinder` for the
///    codec, and takes the **last random access point whose PTS is at most `T` after `P0`**; at
///    most ``maxBackwardScan`` bytes are read before it gives up (see ``Result/placement``);
/// 4. moves the offset back over the PAT (PID 0), PMT and SIT (0x1F) packets that directly
///    precede that access point — for 192-byte streams over every PID ≤ 0x1001, as libbluray does
///    after a seek (see ``BlurayTitle/playbackStart(forTitleTime:)``) — so that a demuxer with a
///    PAT gate (GStreamer's tsdemux) sees the PAT before the IDR picture.
///
/// Time is measured as the forward distance from `P0` modulo 2^33, so a PTS wrap inside the file
/// is handled. PTS that lie up to 10 s *before* `P0` (B-frames, leading pictures) count as time 0.
/// The bisection assumes one PTS epoch: a stream with a PTS discontinuity (a splice, a new
/// program) gives an access point in whichever epoch the bisection lands in; the result is still
/// a valid access point of the file, but its time is not meaningful. Every read is bounded: the
/// head window, about `log2(size / probeWindow)` probes of at most ``maxForwardSearch`` bytes, and
/// the backward scan.
///
/// ```swift
/// let seek = try TransportStreamTimeSeek.seek(source: FileByteSource(path: "movie.m2ts"), to: 600)
/// // send the file's bytes from seek.offset; the picture there is seek.pts (seek.seconds in)
/// ```
public enum TransportStreamTimeSeek {
  /// Bytes scanned at the head of the file for the PAT, PMT and the first video PTS.
  public static let headWindow: Int64 = 8 << 20
  /// Bytes read per probe window.
  public static let probeWindow = 256 << 10
  /// Extra bytes read after a backward-scan window, so that a PES starting near its end is seen
  /// with enough payload to classify its picture.
  static let overlap = 128 << 10
  /// Bytes a bisection probe reads forward looking for a video PES start.
  public static let maxForwardSearch: Int64 = 8 << 20
  /// Bytes the backward scan for an access point reads before it gives up.
  public static let maxBackwardScan: Int64 = 64 << 20
  /// PTS up to this far before `P0` count as time 0 rather than as ~26.5 hours later.
  static let negativeTolerance: UInt64 = 10 * 90_000
  /// Source packets at most moved back over before the access point.
  static let maxPSIBackup = 64

  /// How the access point relates to the requested time.
  public enum Placement: String, Sendable, Hashable, Codable {
    /// The last access point at or before the requested time (the normal case; also when the
    /// time is beyond the end, see ``Result/clamped``).
    case atOrBefore
    /// No access point at or before the requested time was found — the time lies before the
    /// stream's first access point, or none lies within ``maxBackwardScan`` bytes before it —
    /// so the nearest access point after it is used.
    case after
    /// No access point near the requested time was found at all: the stream's first access
    /// point (from the head scan) is used.
    case streamStart
  }

  /// Where playback from the requested time starts.
  public struct Result: Sendable, Hashable, Encodable {
    /// The offset to start reading from: ``accessPointOffset`` moved back over the PSI packets
    /// that directly precede it. Unit-aligned (for BDAV, at the `TP_extra_header`).
    public var offset: Int64
    /// The offset of the unit where the access point's PES starts (as ``RandomAccessPoint``).
    public var accessPointOffset: Int64
    /// The access point's PTS (raw 33 bits, 90 kHz).
    public var pts: UInt64
    /// Its DTS, when the PES has one.
    public var dts: UInt64?
    /// What kind of access point it is.
    public var kind: AccessPointKind
    /// The time it represents: `(pts - firstPTS) mod 2^33 / 90000` seconds.
    public var seconds: Double
    /// The requested time, seconds.
    public var targetSeconds: Double
    /// `P0`: the PTS of the video PID's first PES after the PAT gate, the stream's time zero.
    public var firstPTS: UInt64
    /// The video PID sought on.
    public var pid: UInt16
    /// Its codec (from the PMT).
    public var codec: StreamCodec
    /// 188, 192 or 204.
    public var packetSize: Int
    /// How the access point relates to the requested time.
    public var placement: Placement
    /// Whether the requested time lies beyond the last video PTS of the file (the last access
    /// point is returned).
    public var clamped: Bool
    /// Bytes read by the seek (head scan included).
    public var bytesRead: Int64
    /// What did not go as planned (a start after the time, a fallback to the stream's start);
    /// encoded as their descriptions.
    public var warnings: [Warning]
  }

  /// Finds where playback from `seconds` after the stream's start begins.
  ///
  /// - Throws: ``DiscKitError/Code/invalidArgument`` for a negative, NaN or infinite time;
  ///   ``DiscKitError/Code/malformed`` when the head holds no transport packets;
  ///   ``DiscKitError/Code/unsupported`` when the head holds no video stream (a time seek needs
  ///   video); ``DiscKitError/Code/malformed`` when it holds no video PTS, or the stream no random
  ///   access point near the time (all three exit 65 in the CLI: the input, not its path, is at
  ///   fault); I/O errors of the source.
  public static func seek(source: any ByteSource, to seconds: Double) throws(DiscKitError)
    -> Result
  {
    guard seconds.isFinite, seconds >= 0 else {
      throw DiscKitError(
        .invalidArgument, "time seek", at: nil, "\(seconds) is not a time (seconds ≥ 0)")
    }
    // 1. The head: packet size, the video stream and its first PTS.
    let head = try Head(source: source)
    let unit = head.format.rawValue
    let video = head.video
    let ticks = seconds * MPEGTimestamp.clockRate
    let target: UInt64 =
      ticks >= Double(MPEGTimestamp.modulus - 1) ? MPEGTimestamp.modulus - 1 : UInt64(ticks)
    var context = Context(
      source: source, format: head.format, pid: video.pid, codec: video.codec, p0: head.p0,
      phase: head.p0Offset % Int64(unit), target: target, bytesRead: head.bytesRead)
    defer { context.buffer.deallocate() }

    // 2. Bisection.
    let hi = try bisect(&context, from: head.p0Offset, target: target)

    // 3. Backward scan for the last access point at or before the target.
    var clamped = false
    if hi >= source.size {
      let tail = try context.maxPTSDistance(
        from: context.align(max(head.p0Offset, hi - Int64(probeWindow))))
      clamped = tail.map { target > $0 } ?? false
    }
    let (point, placement, warnings) = try accessPoint(
      &context, before: hi, head: head, target: target)
    let pts = point.pts ?? head.p0
    // 4. Back up over the PSI packets directly before the access point.
    let offset = try context.backUpOverPSI(from: point.offset, pmtPID: head.report.pmtPID)
    return Result(
      offset: offset, accessPointOffset: point.offset, pts: pts, dts: point.dts, kind: point.kind,
      seconds: Double(context.distance(pts)) / MPEGTimestamp.clockRate, targetSeconds: seconds,
      firstPTS: head.p0, pid: video.pid, codec: video.codec, packetSize: unit,
      placement: placement, clamped: clamped, bytesRead: context.bytesRead, warnings: warnings)
  }

  /// What the seek needs from the stream's head.
  struct Head {
    /// The head's scan report.
    var report: PESScanReport
    /// Bytes read for it.
    var bytesRead: Int64
    var format: TransportPacketFormat
    /// The video stream seeked on (the base view when there are several).
    var video: VideoStreamReport
    /// Its first PTS and where the PES carrying it starts.
    var p0: UInt64
    var p0Offset: Int64

    init(source: any ByteSource) throws(DiscKitError) {
      // A 1 MiB head usually holds the PAT, PMT and first video PES; widen it only when not.
      var head = try PESPreScanner.scan(
        source: source, offset: 0, window: min(1 << 20, source.size))
      var headBytes = head.bytesScanned
      if head.video.allSatisfy({ $0.firstPTS == nil }), source.size > head.bytesScanned {
        head = try PESPreScanner.scan(
          source: source, offset: 0, window: min(headWindow, source.size))
        headBytes += head.bytesScanned
      }
      guard let unit = head.packetSize, let format = TransportPacketFormat(rawValue: unit) else {
        throw DiscKitError(.malformed, "transport stream", at: 0, "no transport packets")
      }
      guard !head.video.isEmpty else {
        throw DiscKitError(
          .unsupported, "transport stream", at: 0,
          "no video stream in the first \(head.bytesScanned) bytes (a time seek needs video)")
      }
      guard
        let video = head.video.first(where: { !$0.dependentView && $0.firstPTS != nil })
          ?? head.video.first(where: { $0.firstPTS != nil }),
        let p0 = video.firstPTS, let p0Offset = video.firstPTSOffset
      else {
        throw DiscKitError(
          .malformed, "transport stream", at: 0,
          "no video PES with a PTS after the first PAT in the first \(head.bytesScanned) bytes")
      }
      (report, bytesRead, self.format, self.video) = (head, headBytes, format, video)
      (self.p0, self.p0Offset) = (p0, p0Offset)
    }
  }

  /// Bisection from `start`: PES starts before `lo` decode at or before the target; the first
  /// PES start at or after the returned `hi` decodes after it (or there is none).
  static func bisect(_ context: inout Context, from start: Int64, target: UInt64)
    throws(DiscKitError) -> Int64
  {
    let unit = Int64(context.format.rawValue)
    var lo = start
    var hi = context.source.size
    var probes = 0
    while hi - lo > Int64(probeWindow), probes < 64 {
      probes += 1
      let mid = max(lo, context.align(lo + (hi - lo) / 2))
      guard let start = try context.firstPES(from: mid, limit: hi) else {
        hi = mid
        continue
      }
      if context.distance(start.dts ?? start.pts) <= target {
        lo = start.offset + unit
      } else {
        hi = mid
      }
    }
    return hi
  }

  /// The last access point at or before the target, scanning backwards from `hi`; failing
  /// that the next one after it, or the stream's first.
  static func accessPoint(
    _ context: inout Context, before hi: Int64, head: Head, target: UInt64
  ) throws(DiscKitError) -> (RandomAccessPoint, Placement, [Warning]) {
    let p0Offset = head.p0Offset
    let video = head.video
    var found: RandomAccessPoint?
    var earliest: RandomAccessPoint?
    var end = hi
    var scanned: Int64 = 0
    while found == nil, end > p0Offset, scanned < maxBackwardScan {
      let start = max(p0Offset, context.align(end - Int64(probeWindow)))
      let points = try context.accessPoints(in: start..<end)
      scanned += end - start
      // Points come in stream order: keep the last one at or before the target; while there
      // is none, the window's first point is the nearest one after it.
      for point in points {
        guard let pts = point.pts, context.distance(pts) <= target else { continue }
        found = point
      }
      if found == nil, let first = points.first(where: { $0.pts != nil }) { earliest = first }
      end = start
    }
    if let found { return (found, .atOrBefore, []) }
    if let earliest, let pts = earliest.pts {
      let next = Double(context.distance(pts) / 90) / 1000
      let warning: Warning =
        end <= p0Offset
        ? .beforeFirstAccessPoint(nextSeconds: next)
        : .noAccessPointBefore(scannedBytes: scanned, nextSeconds: next)
      return (earliest, .after, [warning])
    }
    if let offset = video.firstIDROffset, let pts = video.firstIDRPTS {
      let point = RandomAccessPoint(
        pid: video.pid, kind: video.firstIDRKind ?? .idr, pts: pts, dts: nil, offset: offset,
        packetIndex: offset / Int64(context.format.rawValue), randomAccessIndicator: false)
      return (point, .streamStart, [.startedAtStreamStart(scannedBytes: scanned)])
    }
    throw DiscKitError(
      .malformed, "transport stream", at: hi,
      "no random access point of video PID \(video.pid) (\(video.codec.rawValue)) in the \(scanned) bytes before the time nor at the stream's head"
    )
  }

  struct Context {
    let source: any ByteSource
    let format: TransportPacketFormat
    let pid: UInt16
    let codec: StreamCodec
    let p0: UInt64
    let phase: Int64
    let target: UInt64
    var bytesRead: Int64
    let buffer: UnsafeMutableRawBufferPointer

    init(
      source: any ByteSource, format: TransportPacketFormat, pid: UInt16, codec: StreamCodec,
      p0: UInt64, phase: Int64, target: UInt64, bytesRead: Int64
    ) {
      self.source = source
      self.format = format
      self.pid = pid
      self.codec = codec
      self.p0 = p0
      self.phase = phase
      self.target = target
      self.bytesRead = bytesRead
      self.buffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: TransportStreamTimeSeek.probeWindow + TransportStreamTimeSeek.overlap,
        alignment: 64)
    }

    /// `x` moved down to a unit boundary of the head's packet grid (not below the phase).
    func align(_ x: Int64) -> Int64 {
      guard x > phase else { return phase }
      return x - (x - phase) % Int64(format.unitSize)
    }

    /// The forward distance from `P0`, with time stamps shortly before `P0` counted as 0.
    func distance(_ ts: UInt64) -> UInt64 {
      let d = MPEGTimestamp.forwardDistance(from: p0, to: ts)
      return d > MPEGTimestamp.modulus - TransportStreamTimeSeek.negativeTolerance ? 0 : d
    }

    /// Reads `[offset, offset + count)` (clamped to the source) into the buffer.
    mutating func read(at offset: Int64, count: Int) throws(DiscKitError)
      -> UnsafeRawBufferPointer
    {
      let want = Int(min(Int64(min(count, buffer.count)), max(0, source.size - offset)))
      guard want > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
      let got = try source.readFully(
        at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
      bytesRead += Int64(got)
      return UnsafeRawBufferPointer(rebasing: buffer[0..<got])
    }

    /// The first PES start on the video PID with a time stamp in `[from, limit)`, reading at
    /// most ``maxForwardSearch`` bytes.
    mutating func firstPES(from: Int64, limit: Int64) throws(DiscKitError) -> PESStart? {
      var walker = PESStartWalker(pid: pid, stopAtFirst: true)
      var reader = TransportPacketReader(baseOffset: from, format: format)
      var position = from
      let end = min(limit, from + TransportStreamTimeSeek.maxForwardSearch)
      while position < end, walker.first == nil {
        let chunk = try read(
          at: position, count: Int(min(Int64(TransportStreamTimeSeek.probeWindow), end - position)))
        if chunk.isEmpty { break }
        reader.feed(chunk, into: &walker)
        position += Int64(chunk.count)
      }
      reader.finish(into: &walker)
      guard let first = walker.first, first.offset < limit else { return nil }
      return first
    }

    /// The largest PTS distance of the video PES that start in `[from, end of source)`.
    mutating func maxPTSDistance(from: Int64) throws(DiscKitError) -> UInt64? {
      var walker = PESStartWalker(pid: pid, stopAtFirst: false)
      var reader = TransportPacketReader(baseOffset: from, format: format)
      var position = from
      while position < source.size {
        let chunk = try read(at: position, count: TransportStreamTimeSeek.probeWindow)
        if chunk.isEmpty { break }
        reader.feed(chunk, into: &walker)
        position += Int64(chunk.count)
      }
      reader.finish(into: &walker)
      return walker.ptsValues.map { distance($0) }.max()
    }

    /// The access points whose PES starts in `range` (the walk reads a little beyond it so that
    /// the pictures there are classified).
    mutating func accessPoints(in range: Range<Int64>) throws(DiscKitError)
      -> [RandomAccessPoint]
    {
      var finder = RandomAccessPointFinder(
        pid: pid, codec: codec, baseOffset: range.lowerBound, format: format)
      let count = Int(range.upperBound - range.lowerBound) + TransportStreamTimeSeek.overlap
      let chunk = try read(at: range.lowerBound, count: count)
      finder.feed(chunk)
      return finder.finish().filter { range.contains($0.offset) }
    }

    /// `offset` moved back over the PAT/PMT/SIT (and, for BDAV, PID ≤ 0x1001) units before it.
    mutating func backUpOverPSI(from offset: Int64, pmtPID: UInt16?) throws(DiscKitError)
      -> Int64
    {
      let unit = format.unitSize
      let available = Int(min(Int64(TransportStreamTimeSeek.maxPSIBackup * unit), offset))
      let count = available / unit * unit
      guard count > 0 else { return offset }
      let bytes = try read(at: offset - Int64(count), count: count)
      guard bytes.count == count else { return offset }
      var position = count
      while position >= unit {
        let packet = position - unit
        let sync = packet + format.syncOffset
        guard bytes[sync] == TransportPacketFormat.syncByte else { break }
        let packetPID = UInt16(bytes[sync + 1] & 0x1F) << 8 | UInt16(bytes[sync + 2])
        let psi =
          packetPID == 0 || packetPID == 0x1F || packetPID == pmtPID
          || (format == .bdav && packetPID <= 0x1001)
        guard psi else { break }
        position = packet
      }
      return offset - Int64(count - position)
    }
  }

  /// A video PES start: its unit offset and time stamps.
  struct PESStart {
    var offset: Int64
    var pts: UInt64
    var dts: UInt64?
  }

  /// Collects the PES starts (with a PTS) of one PID.
  struct PESStartWalker: TransportPacketConsumer {
    let pid: UInt16
    let stopAtFirst: Bool
    var first: PESStart?
    var ptsValues: [UInt64] = []

    init(pid: UInt16, stopAtFirst: Bool) {
      self.pid = pid
      self.stopAtFirst = stopAtFirst
    }

    mutating func consume(_ packet: TransportPacket) {
      guard packet.pid == pid, !(stopAtFirst && first != nil) else { return }
      let header = packet.header
      guard header.payloadUnitStart, case .payload(let range) = packet.payloadLayout else {
        return
      }
      let payload = UnsafeRawBufferPointer(rebasing: packet.bytes[range])
      guard let decoded = PESHeader.decode(payload).header, let pts = decoded.pts else { return }
      if first == nil { first = PESStart(offset: packet.offset, pts: pts, dts: decoded.dts) }
      if !stopAtFirst { ptsValues.append(pts) }
    }
  }
}
