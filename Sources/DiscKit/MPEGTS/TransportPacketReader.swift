/// Splits a byte stream into transport packets, incrementally.
///
/// Feed it chunks of any size with ``feed(_:into:)`` and call ``finish(into:)`` at the end; the
/// packets delivered (and their offsets) are the same whatever the chunking. The reader detects
/// the packet layout (188, 192 or 204 bytes) by requiring ``confirmations`` sync bytes at the
/// unit spacing, skips bytes that are not packets, and when a unit lacks its sync byte it searches
/// again from the next byte (a resync). Whole packets are handed to the consumer straight from the
/// caller's chunk; only a packet split across chunks is copied, into a buffer allocated once.
package struct TransportPacketReader {
  /// Sync bytes at the unit spacing required to lock on to a layout.
  package static let confirmations = 5
  static let capacity = 16 << 10

  /// The layout found (or forced), nil until the reader has locked on.
  package private(set) var format: TransportPacketFormat?
  /// The absolute offset of the first byte fed.
  package let baseOffset: Int64
  /// Units delivered so far.
  package private(set) var packetCount: Int64 = 0
  /// Bytes skipped because they were not part of a packet.
  package private(set) var skippedBytes: Int64 = 0
  /// Times the reader lost sync after having locked on.
  package private(set) var resyncCount = 0
  /// Bytes fed so far.
  package private(set) var bytesFed: Int64 = 0

  private let forced: TransportPacketFormat?
  private var locked = false
  private var pending: [UInt8]
  private var skippedSinceLock: Int64 = 0

  /// Creates a reader.
  ///
  /// - Parameters:
  ///   - baseOffset: the absolute offset of the first byte that will be fed (reported offsets
  ///     are absolute).
  ///   - format: a known layout; nil detects it.
  package init(baseOffset: Int64 = 0, format: TransportPacketFormat? = nil) {
    self.baseOffset = baseOffset
    self.forced = format
    self.pending = []
    self.pending.reserveCapacity(Self.capacity)
  }

  /// The absolute offset of `pending[0]`.
  private var pendingOffset: Int64 { baseOffset + bytesFed - Int64(pending.count) }

  /// Feeds the next bytes of the stream.
  package mutating func feed<C: TransportPacketConsumer>(
    _ chunk: UnsafeRawBufferPointer, into consumer: inout C
  ) {
    guard let base = chunk.baseAddress, chunk.count > 0 else { return }
    let fedBase = bytesFed
    var position = 0
    let end = chunk.count
    while position < end {
      if locked, pending.isEmpty, let format {
        // Fast path: whole units straight from the chunk.
        let unit = format.unitSize
        let sync = format.syncOffset
        var lost = false
        while end - position >= unit {
          let offset = baseOffset + fedBase + Int64(position)
          if chunk[position + sync] != TransportPacketFormat.syncByte {
            consumer.syncLost(at: offset)
            locked = false
            resyncCount += 1
            // Drop the failed unit's first byte and search from the next one.
            skippedBytes += 1
            skippedSinceLock = 1
            position += 1
            lost = true
            break
          }
          let packet = TransportPacket(
            unit: UnsafeRawBufferPointer(start: base + position, count: unit), format: format,
            offset: offset, index: packetCount)
          packetCount += 1
          consumer.consume(packet)
          position += unit
        }
        if lost { continue }
        if position < end {
          pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[position..<end]))
          position = end
        }
        break
      }
      // Buffered path: append what fits, then drain.
      var take = min(Self.capacity - pending.count, end - position)
      if locked, let format, pending.count < format.unitSize {
        // Complete just the split unit, so the fast path resumes on the next one.
        take = min(take, format.unitSize - pending.count)
      }
      pending.append(
        contentsOf: UnsafeRawBufferPointer(rebasing: chunk[position..<position + take]))
      position += take
      bytesFed = fedBase + Int64(position)
      drain(final: false, into: &consumer)
    }
    bytesFed = fedBase + Int64(end)
  }

  /// Signals the end of the stream: decides on the bytes still buffered.
  package mutating func finish<C: TransportPacketConsumer>(into consumer: inout C) {
    drain(final: true, into: &consumer)
    if !pending.isEmpty {
      if locked {
        consumer.truncatedPacket(at: pendingOffset, bytes: pending.count)
      }
      skippedBytes += Int64(pending.count)
      pending.removeAll(keepingCapacity: true)
    }
  }

  /// Processes the buffered bytes: emits whole units while locked, searches while not.
  private mutating func drain<C: TransportPacketConsumer>(final: Bool, into consumer: inout C) {
    var i = 0
    let count = pending.count
    pending.withUnsafeBytes { raw in
      while true {
        if locked, let format {
          let unit = format.unitSize
          guard count - i >= unit else { break }
          if raw[i + format.syncOffset] != TransportPacketFormat.syncByte {
            consumer.syncLost(at: pendingOffset + Int64(i))
            locked = false
            resyncCount += 1
            skippedBytes += 1
            skippedSinceLock = 1
            i += 1
            continue
          }
          let packet = TransportPacket(
            unit: UnsafeRawBufferPointer(rebasing: raw[i..<i + unit]), format: format,
            offset: pendingOffset + Int64(i), index: packetCount)
          packetCount += 1
          consumer.consume(packet)
          i += unit
        } else {
          // Searching: decide candidate i once enough bytes are there (or at the end).
          guard i < count else { break }
          switch candidate(raw, at: i, count: count, final: final) {
          case .needMore:
            break
          case .no:
            skippedBytes += 1
            skippedSinceLock += 1
            i += 1
            continue
          case .yes(let found):
            format = found
            locked = true
            consumer.syncAcquired(
              at: pendingOffset + Int64(i), format: found, skippedBytes: skippedSinceLock)
            skippedSinceLock = 0
            continue
          }
          break
        }
      }
    }
    if i > 0 {
      pending.removeFirst(i)
    }
  }

  private static let plainFirst: [TransportPacketFormat] = [.plain, .bdav, .reedSolomon]
  private static let bdavFirst: [TransportPacketFormat] = [.bdav, .plain, .reedSolomon]
  private static let reedSolomonFirst: [TransportPacketFormat] = [.reedSolomon, .plain, .bdav]
  private static let plainOnly: [TransportPacketFormat] = [.plain]
  private static let bdavOnly: [TransportPacketFormat] = [.bdav]
  private static let reedSolomonOnly: [TransportPacketFormat] = [.reedSolomon]
  /// Bytes needed to judge every layout at one candidate position.
  private static let evidenceBytes =
    (confirmations - 1) * 204 + TransportPacketFormat.packetSize + 4

  private enum Decision {
    case needMore, no
    case yes(TransportPacketFormat)
  }

  /// Whether a unit of some layout starts at `i`, confirmed by sync bytes at the unit spacing.
  private func candidate(_ raw: UnsafeRawBufferPointer, at i: Int, count: Int, final: Bool)
    -> Decision
  {
    let order: [TransportPacketFormat]
    if let forced {
      order =
        forced == .plain ? Self.plainOnly : forced == .bdav ? Self.bdavOnly : Self.reedSolomonOnly
    } else if let format {
      order =
        format == .plain
        ? Self.plainFirst : format == .bdav ? Self.bdavFirst : Self.reedSolomonFirst
    } else {
      order = Self.plainFirst
    }
    // Wait until every layout can be judged on full evidence, so chunking cannot change the outcome.
    if !final && count - i < Self.evidenceBytes { return .needMore }
    for f in order {
      var matched = 0
      var j = 0
      while j < Self.confirmations {
        let at = i + f.syncOffset + j * f.unitSize
        guard at + TransportPacketFormat.packetSize <= count else { break }
        guard raw[at] == TransportPacketFormat.syncByte else {
          matched = -1
          break
        }
        matched += 1
        j += 1
      }
      if matched == Self.confirmations { return .yes(f) }
      // At the end of the stream, accept fewer confirmations when that is all there is.
      if final && matched >= 2 { return .yes(f) }
      if final && matched == 1 && (format != nil || forced != nil) && count - i < 2 * f.unitSize {
        return .yes(f)
      }
    }
    return .no
  }
}
