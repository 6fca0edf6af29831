import DiscKit

/// The PES packets of a few PIDs that start in one byte range of a title's 192-byte source
/// packets (a segment between two EP-map entries), read in bounded chunks: a PES belongs to the
/// range its first packet is in, so consecutive ranges share out a stream's PES packets exactly,
/// and a PES still open at the range's end is completed from the packets after it. The first PES
/// header after the range (per PID) is kept too: the next segment's first timestamps, which give
/// the last sample its duration.
package struct PESCollector {
  /// One PES packet: its timestamps, `stream_id_extension` and payload.
  package struct Packet: Sendable {
    package var pts: UInt64?
    package var dts: UInt64?
    /// `stream_id_extension` (PES extension 2) when present: on a Blu-ray's TrueHD PID 0x72 for
    /// TrueHD access units, 0x76 for the AC-3 core's frames.
    package var streamIDExtension: UInt8?
    package var payload: [UInt8]
    /// Where its first packet is in the title's bytes.
    package var offset: Int64
  }

  /// The PES packets by PID, in stream order.
  package var packets: [UInt16: [Packet]] = [:]
  /// The first PES header after the range, by PID (its payload left empty).
  package var next: [UInt16: Packet] = [:]

  /// How far past the range the open PES packets and the next headers are looked for.
  package static let lookahead: Int64 = 8 << 20

  /// Reads `range` (192-byte packet boundaries) of `source`.
  ///
  /// - Parameters:
  ///   - firstOnly: the PIDs for which one PES is enough (an I-frame playlist's picture): reading
  ///     stops once each has one complete PES, when every PID wanted is one of them.
  /// - Throws: the source's errors.
  ///   - limits: the most PES packets kept of a PID (the first ones; a title's plan needs the
  ///     first access unit and the audio's first frames, not a whole segment): its later
  ///     packets are not collected, and reading stops once every PID wanted has its limit.
  package init(
    source: any ByteSource, range: Range<Int64>, pids: Set<UInt16>, firstOnly: Bool = false,
    limits: [UInt16: Int] = [:]
  ) throws(DiscKitError) {
    let unit: Int64 = 192
    let chunk: Int64 = unit * 5461  // just under 1 MiB
    var open: [UInt16: Packet] = [:]
    var seenStart: Set<UInt16> = []
    var offset = range.lowerBound - range.lowerBound % unit
    let hardEnd = min(source.size, range.upperBound + Self.lookahead)
    var buffer = [UInt8](repeating: 0, count: Int(chunk))
    reading: while offset + unit <= hardEnd {
      let count = Int(min(chunk, (hardEnd - offset) / unit * unit))
      let outcome = buffer.withUnsafeMutableBytes { raw in
        Result { () throws(DiscKitError) -> Int in
          try source.readFully(
            at: offset, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]))
        }
      }
      let got = try outcome.get()
      guard got >= Int(unit) else { break }
      var i = 0
      while i + Int(unit) <= got {
        let at = offset + Int64(i)
        let p = i + 4
        defer { i += Int(unit) }
        guard buffer[p] == 0x47 else { continue }
        let pid = UInt16(buffer[p + 1] & 0x1F) << 8 | UInt16(buffer[p + 2])
        guard pids.contains(pid), buffer[p + 3] & 0x10 != 0 else { continue }
        var start = p + 4
        if buffer[p + 3] & 0x20 != 0 { start += 1 + Int(buffer[p + 4]) }
        guard start < p + 188 else { continue }
        let unitStart = buffer[p + 1] & 0x40 != 0
        let inRange = at < range.upperBound
        if unitStart {
          if let done = open.removeValue(forKey: pid) {
            packets[pid, default: []].append(done)
          }
          if let limit = limits[pid], (packets[pid]?.count ?? 0) >= limit {
            if pids.allSatisfy({ (packets[$0]?.count ?? 0) >= (limits[$0] ?? Int.max) }) {
              break reading
            }
            continue
          }
          if !inRange {
            if next[pid] == nil {
              next[pid] = Self.header(buffer[start..<(p + 188)], offset: at)
            }
          } else if at >= range.lowerBound {
            seenStart.insert(pid)
            open[pid] = Self.header(buffer[start..<(p + 188)], offset: at)
            if var packet = open[pid] {
              let body = Self.payloadStart(buffer[start..<(p + 188)])
              if let body { packet.payload.append(contentsOf: buffer[(start + body)..<(p + 188)]) }
              open[pid] = packet
            }
          }
        } else if open[pid] != nil {
          open[pid]?.payload.append(contentsOf: buffer[start..<(p + 188)])
        }
        if firstOnly, pids.allSatisfy({ (packets[$0]?.count ?? 0) > 0 }) { break reading }
        if !inRange, open.isEmpty, pids.allSatisfy({ next[$0] != nil || !seenStart.contains($0) }) {
          break reading
        }
      }
      offset += Int64(got)
      if got < count { break }
    }
    for (pid, packet) in open { packets[pid, default: []].append(packet) }
  }

  /// The payload's offset within a PES's first packet payload, nil when the header does not fit.
  static func payloadStart(_ bytes: ArraySlice<UInt8>) -> Int? {
    let b = bytes.startIndex
    guard bytes.count >= 9, bytes[b] == 0, bytes[b + 1] == 0, bytes[b + 2] == 1 else { return nil }
    guard PESHeader.hasOptionalHeader(streamID: bytes[b + 3]) else { return 6 }
    let length = 9 + Int(bytes[b + 8])
    return length <= bytes.count ? length : nil
  }

  /// The header fields of a PES starting in `bytes`.
  static func header(_ bytes: ArraySlice<UInt8>, offset: Int64) -> Packet {
    var packet = Packet(pts: nil, dts: nil, streamIDExtension: nil, payload: [], offset: offset)
    let decoded = Array(bytes.prefix(19)).withUnsafeBytes { PESHeader.decode($0) }
    if let header = decoded.header, decoded.problem == nil {
      packet.pts = header.pts
      packet.dts = header.dts
    }
    // PES_extension_flag_2 → stream_id_extension (ISO/IEC 13818-1 2.4.3.7).
    let b = bytes.startIndex
    guard bytes.count >= 9, bytes[b + 3] == 0xFD, bytes[b + 7] & 1 != 0 else { return packet }
    let flags = bytes[b + 7]
    var p = b + 9
    switch flags >> 6 {
    case 2: p += 5
    case 3: p += 10
    default: break
    }
    if flags & 0x20 != 0 { p += 6 }
    if flags & 0x10 != 0 { p += 3 }
    if flags & 0x08 != 0 { p += 1 }
    if flags & 0x04 != 0 { p += 1 }
    if flags & 0x02 != 0 { p += 2 }
    guard p < bytes.endIndex else { return packet }
    let extensionFlags = bytes[p]
    p += 1
    if extensionFlags & 0x80 != 0 { p += 16 }
    if extensionFlags & 0x40 != 0, p < bytes.endIndex { p += 1 + Int(bytes[p]) }
    if extensionFlags & 0x20 != 0 { p += 2 }
    if extensionFlags & 0x10 != 0 { p += 2 }
    guard extensionFlags & 0x01 != 0, p + 1 < bytes.endIndex, bytes[p] & 0x7F > 0,
      bytes[p + 1] & 0x80 == 0
    else { return packet }
    packet.streamIDExtension = bytes[p + 1] & 0x7F
    return packet
  }
}
