import DiscKit

/// The PES packets of one PID that start in a byte range of a title's 192-byte source packets,
/// as a stream of events read in bounded chunks: the same packets as ``PESCollector`` (a PES
/// belongs to the range its first packet is in; one still open at the range's end is completed
/// from the packets after it; the first PES header after the range is the next segment's first
/// timestamps), without keeping their payloads. A segment is read twice this way: once to plan
/// its samples, once to write them.
struct PESStream: Sendable {
  /// What the next packet of the PID brought.
  enum Event {
    /// A PES starts (the one before, if any, is complete); its first payload bytes are
    /// ``buffer``'s `body` range.
    case start(PESCollector.Packet, body: Range<Int>)
    /// More payload of the open PES: ``buffer``'s range.
    case more(Range<Int>)
    /// The first PES header after the range (the open PES, if any, is complete).
    case next(PESCollector.Packet)
  }

  let source: any ByteSource
  let range: Range<Int64>
  let pid: UInt16
  let firstOnly: Bool
  let hardEnd: Int64
  /// The bytes read last; events name ranges of it, valid until the next call of ``next()``.
  private(set) var buffer: [UInt8]
  private var got = 0
  private var index = 0
  private var offset: Int64
  private var open = false
  private var seenStart = false
  private var sawNext = false
  private var completed = 0
  private var done = false
  private var shortRead = false
  /// The PID's packets with payload read so far in the range (its share of the range's bytes).
  private(set) var packetsInRange = 0

  static let unit: Int64 = 192

  /// - Parameter firstOnly: stop once the first PES is complete (an I-frame playlist's picture).
  init(
    source: any ByteSource, range: Range<Int64>, pid: UInt16, firstOnly: Bool = false,
    chunk: Int = 192 * 512
  ) {
    self.source = source
    self.range = range
    self.pid = pid
    self.firstOnly = firstOnly
    hardEnd = min(source.size, range.upperBound + PESCollector.lookahead)
    offset = range.lowerBound - range.lowerBound % Self.unit
    buffer = [UInt8](repeating: 0, count: max(192, chunk / 192 * 192))
  }

  /// The next event, or nil when the PES packets of the range are all complete.
  mutating func next() throws(DiscKitError) -> Event? {
    let unit = Int(Self.unit)
    while !done {
      if index + unit > got {
        guard try refill() else {
          done = true
          return nil
        }
      }
      let i = index
      index += unit
      let at = offset - Int64(got) + Int64(i)
      let p = i + 4
      guard buffer[p] == 0x47,
        UInt16(buffer[p + 1] & 0x1F) << 8 | UInt16(buffer[p + 2]) == pid,
        buffer[p + 3] & 0x10 != 0
      else { continue }
      var start = p + 4
      if buffer[p + 3] & 0x20 != 0 { start += 1 + Int(buffer[p + 4]) }
      guard start < p + 188 else { continue }
      let unitStart = buffer[p + 1] & 0x40 != 0
      let inRange = at < range.upperBound
      if inRange, at >= range.lowerBound { packetsInRange += 1 }
      var event: Event?
      if unitStart {
        if open {
          open = false
          completed += 1
        }
        if !inRange {
          if !sawNext {
            sawNext = true
            event = .next(PESCollector.header(buffer[start..<(p + 188)], offset: at))
          }
        } else if at >= range.lowerBound {
          seenStart = true
          open = true
          let header = PESCollector.header(buffer[start..<(p + 188)], offset: at)
          let body = PESCollector.payloadStart(buffer[start..<(p + 188)]).map {
            (start + $0)..<(p + 188)
          }
          event = .start(header, body: body ?? (p + 188)..<(p + 188))
        }
      } else if open {
        event = .more(start..<(p + 188))
      }
      if firstOnly, completed > 0 { done = true }
      if !inRange, !open, sawNext || !seenStart { done = true }
      if let event { return event }
    }
    return nil
  }

  /// Reads the next chunk; false at the end of what may be read (as ``PESCollector``: up to the
  /// lookahead's end, or the source's, which a short read marks).
  private mutating func refill() throws(DiscKitError) -> Bool {
    let unit = Self.unit
    guard !shortRead, offset + unit <= hardEnd else { return false }
    let count = Int(min(Int64(buffer.count), (hardEnd - offset) / unit * unit))
    let start = offset
    let source = source
    let outcome = buffer.withUnsafeMutableBytes { raw in
      Result { () throws(DiscKitError) -> Int in
        try source.readFully(
          at: start, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]))
      }
    }
    let read = try outcome.get()
    guard read >= Int(unit) else { return false }
    got = read
    index = 0
    offset += Int64(read)
    shortRead = read < count
    return true
  }
}
