/// Finds the interactive composition of an IG stream inside a clip's transport stream: the
/// stream's PES packets are reassembled, split into segments (type, 16-bit length, payload), and
/// the fragments of the first complete ICS are joined.
///
/// These functions take a whole buffer; ``IGCompositionScanner`` does the same on a clip read in
/// pieces and stops at the first complete ICS (what the title listing uses).
package enum IGStreamReader {
  /// An aligned unit: 32 source packets of 192 bytes, 3 sectors (the unit libbluray reads and
  /// AACS encrypts). Menu reads are whole units.
  package static let alignedUnit = 6144
  /// The first read of a clip looking for its menu: 11 aligned units (66 KiB). A menu's ICS is
  /// the first segment of the IG display set that starts the clip's epoch, sent before the video
  /// it is drawn over, so it is in the clip's first packets.
  package static let firstRead = 11 * alignedUnit
  /// Every later read: 32 aligned units (192 KiB).
  package static let laterRead = 32 * alignedUnit
  /// The most bytes of one clip read looking for its menu (342 aligned units, 2 MiB): a clip
  /// that holds no complete ICS by then is taken to have no menu.
  package static let scanLimit = 342 * alignedUnit

  /// The segments of an IG elementary stream, as (segment type, payload).
  package static func segments(_ stream: [UInt8]) -> [(type: UInt8, payload: [UInt8])] {
    var out: [(UInt8, [UInt8])] = []
    var k = 0
    while k + 3 <= stream.count {
      let type = stream[k]
      let length = Int(stream[k + 1]) << 8 | Int(stream[k + 2])
      guard k + 3 + length <= stream.count else { break }
      out.append((type, Array(stream[(k + 3)..<(k + 3 + length)])))
      k += 3 + length
    }
    return out
  }

  /// The payload bytes of PID `pid`'s PES packets, concatenated (PES headers removed).
  ///
  /// - Parameter packetSize: 192 (`.m2ts`, a 4-byte arrival time before each packet) or 188.
  package static func elementaryStream(_ ts: [UInt8], pid: UInt16, packetSize: Int = 192)
    -> [UInt8]
  {
    var out: [UInt8] = []
    var pending: [UInt8] = []
    let skip = packetSize - 188
    var offset = 0
    func flush(_ pes: [UInt8]) -> [UInt8] {
      guard pes.count >= 9, pes[0] == 0, pes[1] == 0, pes[2] == 1 else { return [] }
      let start = 9 + Int(pes[8])
      return start <= pes.count ? Array(pes[start...]) : []
    }
    while offset + packetSize <= ts.count {
      let p = offset + skip
      offset += packetSize
      guard ts[p] == 0x47 else { continue }
      let packetPID = UInt16(ts[p + 1] & 0x1F) << 8 | UInt16(ts[p + 2])
      guard packetPID == pid else { continue }
      let control = (ts[p + 3] >> 4) & 3
      guard control & 1 != 0 else { continue }
      var start = p + 4
      if control & 2 != 0 { start += 1 + Int(ts[p + 4]) }
      guard start <= p + 188 else { continue }
      if ts[p + 1] & 0x40 != 0 {
        out += flush(pending)
        pending = []
      }
      pending += ts[start..<(p + 188)]
    }
    out += flush(pending)
    return out
  }

  /// The first complete interactive composition in an IG elementary stream.
  package static func firstComposition(inElementaryStream stream: [UInt8], name: String)
    throws(DiscKitError) -> InteractiveComposition?
  {
    var fragments: [[UInt8]] = []
    for segment in segments(stream) where segment.type == InteractiveComposition.segmentType {
      guard segment.payload.count >= 9 else { continue }
      let flags = segment.payload[8]
      if flags & 0x80 != 0 { fragments = [] }
      guard flags & 0x80 != 0 || !fragments.isEmpty else { continue }
      fragments.append(segment.payload)
      if flags & 0x40 != 0 {
        return try InteractiveComposition(fragments: fragments, name: name)
      }
    }
    return nil
  }
}

/// Finds the first complete interactive composition of one IG PID in a clip's transport stream
/// fed in pieces (each a whole number of packets, in stream order), as
/// ``IGStreamReader/elementaryStream(_:pid:packetSize:)`` followed by
/// ``IGStreamReader/firstComposition(inElementaryStream:name:)`` find it in the whole buffer:
/// the PID's PES payloads (headers removed) are one byte stream of segments (type, 16-bit
/// length, payload), and the fragments of the first ICS whose sequence completes are joined.
///
/// Nothing is allocated per packet: PES headers and segments are parsed as their bytes arrive,
/// and only the payload of ICS segments is kept (a segment is at most 64 KiB; the pictures of
/// the object segments are skipped, never copied).
package struct IGCompositionScanner {
  /// Where the reassembly of the PID's current PES packet is.
  private enum PESState {
    /// The current PES's header is not a PES header: ignored until the next packet that starts
    /// one.
    case idle
    /// Collecting the first 9 header bytes (start code, stream id, length, flags, header length).
    case prefix
    /// Skipping the rest of the header (`n` bytes).
    case header(Int)
    /// Payload: segment bytes.
    case payload
  }

  /// The PID of the IG stream.
  package let pid: UInt16
  /// 192 (`.m2ts`) or 188.
  package let packetSize: Int
  /// The name errors carry (the stream file's path).
  package let name: String

  /// The PID's packets before the first that starts a PES are read as a PES too (as the
  /// whole-buffer reader does): one whose header is not a PES header is ignored.
  private var pes = PESState.prefix
  private var prefix: [UInt8] = []
  /// The current segment: its 3-byte header as read so far, then how many payload bytes remain.
  private var segmentHeader: (UInt8, UInt8, UInt8) = (0, 0, 0)
  private var segmentHeaderCount = 0
  private var segmentRemaining = 0
  /// Whether the current segment is an ICS (its payload is kept).
  private var keeping = false
  private var segment: [UInt8] = []
  private var fragments: [[UInt8]] = []

  /// The first complete composition, once found.
  package private(set) var composition: InteractiveComposition?
  /// The ICS fragments the composition was parsed from (or found in ``known``), once found.
  package private(set) var compositionFragments: [[UInt8]] = []
  /// Compositions already parsed: a composition whose fragments are one of these, byte for
  /// byte, is taken from it instead of parsed again.
  package var known = IGKnownCompositions()
  /// Transport packets (sync byte in place) seen in the last ``feed(_:)``.
  package private(set) var packetsInLastFeed = 0

  /// A scanner for PID `pid` of a stream of `packetSize`-byte packets.
  package init(pid: UInt16, packetSize: Int = 192, name: String) {
    self.pid = pid
    self.packetSize = packetSize
    self.name = name
    prefix.reserveCapacity(9)
  }

  /// Whether the first complete composition has been found.
  package var isComplete: Bool { composition != nil }

  /// Reads the next piece of the stream (whole packets; a partial packet at the end is ignored).
  ///
  /// - Returns: whether the composition is complete (nothing more needs to be fed).
  /// - Throws: when the first complete ICS is malformed.
  @discardableResult
  package mutating func feed(_ ts: UnsafeRawBufferPointer) throws(DiscKitError) -> Bool {
    packetsInLastFeed = 0
    guard composition == nil else { return true }
    let skip = packetSize - 188
    var offset = 0
    while offset + packetSize <= ts.count {
      let p = offset + skip
      offset += packetSize
      guard ts[p] == 0x47 else { continue }
      packetsInLastFeed += 1
      let packetPID = UInt16(ts[p + 1] & 0x1F) << 8 | UInt16(ts[p + 2])
      guard packetPID == pid else { continue }
      let control = (ts[p + 3] >> 4) & 3
      guard control & 1 != 0 else { continue }
      var start = p + 4
      if control & 2 != 0 { start += 1 + Int(ts[p + 4]) }
      guard start <= p + 188 else { continue }
      if ts[p + 1] & 0x40 != 0 {
        pes = .prefix
        prefix.removeAll(keepingCapacity: true)
      }
      try pesBytes(UnsafeRawBufferPointer(rebasing: ts[start..<(p + 188)]))
      if composition != nil { return true }
    }
    return false
  }

  /// The payload bytes of one packet of the PID.
  private mutating func pesBytes(_ bytes: UnsafeRawBufferPointer) throws(DiscKitError) {
    var k = 0
    while k < bytes.count {
      switch pes {
      case .idle:
        return
      case .prefix:
        let take = min(9 - prefix.count, bytes.count - k)
        prefix.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[k..<(k + take)]))
        k += take
        if prefix.count == 9 {
          pes =
            prefix[0] == 0 && prefix[1] == 0 && prefix[2] == 1 ? .header(Int(prefix[8])) : .idle
          if case .header(0) = pes { pes = .payload }
        }
      case .header(let left):
        let take = min(left, bytes.count - k)
        k += take
        pes = left == take ? .payload : .header(left - take)
      case .payload:
        try segmentBytes(UnsafeRawBufferPointer(rebasing: bytes[k...]))
        return
      }
    }
  }

  /// Bytes of the segment stream.
  private mutating func segmentBytes(_ bytes: UnsafeRawBufferPointer) throws(DiscKitError) {
    var k = 0
    while k < bytes.count, composition == nil {
      if segmentHeaderCount < 3 {
        switch segmentHeaderCount {
        case 0: segmentHeader.0 = bytes[k]
        case 1: segmentHeader.1 = bytes[k]
        default: segmentHeader.2 = bytes[k]
        }
        segmentHeaderCount += 1
        k += 1
        if segmentHeaderCount == 3 {
          segmentRemaining = Int(segmentHeader.1) << 8 | Int(segmentHeader.2)
          keeping = segmentHeader.0 == InteractiveComposition.segmentType
          if keeping { segment.removeAll(keepingCapacity: true) }
          if segmentRemaining == 0 { try segmentEnded() }
        }
        continue
      }
      let take = min(segmentRemaining, bytes.count - k)
      if keeping {
        segment.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[k..<(k + take)]))
      }
      segmentRemaining -= take
      k += take
      if segmentRemaining == 0 { try segmentEnded() }
    }
  }

  /// A whole segment has been read: an ICS fragment is kept, and the last of a sequence parsed.
  private mutating func segmentEnded() throws(DiscKitError) {
    segmentHeaderCount = 0
    guard keeping, segment.count >= 9 else { return }
    let flags = segment[8]
    if flags & 0x80 != 0 { fragments = [] }
    guard flags & 0x80 != 0 || !fragments.isEmpty else { return }
    fragments.append(segment)
    if flags & 0x40 != 0 {
      compositionFragments = fragments
      if let parsed = known.composition(of: fragments) {
        composition = parsed
      } else {
        composition = try InteractiveComposition(fragments: fragments, name: name)
      }
    }
  }
}
