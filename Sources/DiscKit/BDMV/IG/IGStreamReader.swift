/// Finds the interactive composition of an IG stream inside a clip's transport stream: the
/// stream's PES packets are reassembled, split into segments (type, 16-bit length, payload), and
/// the fragments of the first complete ICS are joined.
package enum IGStreamReader {
  /// The bytes of a clip read when looking for its menu: a menu's ICS comes before the video
  /// it is drawn over (preloaded IG is at the clip's start).
  package static let scanLimit = 8 << 20

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
