import DiscKit

/// One subtitle packet demuxed from a title's bytes: a PGS PES payload (its segments) or a whole
/// DVD subpicture unit, with its PTS (90 kHz, the stream's own clock) and where it starts.
public struct SubtitlePacket: Sendable, Hashable {
  /// The packet's bytes (PES payload; DVD: the SPU without its substream byte).
  public var data: [UInt8]
  /// Its PTS (90 kHz), when the PES header carries one.
  public var pts90k: Int64?
  /// The byte offset in the title's bytes of the transport packet (pack) that started it.
  public var offset: Int64
}

/// Reads one subtitle stream's packets out of a title's bytes (Blu-ray M2TS: one PID; DVD
/// program stream: one private stream 1 substream, `0x20`-`0x3F`).
///
/// The bytes are read in large positional reads; only the packets of the stream are looked at
/// past their headers. A PES header that does not parse is skipped; a PES grows to at most
/// ``maxPacketBytes``.
public enum SubtitlePacketReader {
  /// The most bytes one PES (SPU) may gather.
  public static let maxPacketBytes = 4 << 20
  /// How much is read at once (a multiple of 192 and of 2048).
  static let chunk = 192 * 2048 * 8

  /// The PES packets of PID `pid` in `range` of `source`, 192-byte M2TS packets from the range's
  /// start.
  public static func transportStream(
    _ source: any ByteSource, pid: Int, range: Range<Int64>
  ) throws(DiscKitError) -> [SubtitlePacket] {
    var packets: [SubtitlePacket] = []
    var current: SubtitlePacket?
    var declared = 0
    func flush() {
      if let c = current, !c.data.isEmpty { packets.append(c) }
      current = nil
    }
    var buffer = [UInt8](repeating: 0, count: chunk)
    var at = range.lowerBound
    while at + 192 <= range.upperBound {
      let want = Int(min(Int64(chunk), (range.upperBound - at) / 192 * 192))
      let got = try buffer.withUnsafeMutableBytes { raw in
        Result { () throws(DiscKitError) -> Int in
          try source.readFully(at: at, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<want]))
        }
      }.get()
      let whole = got / 192 * 192
      guard whole > 0 else { break }
      var p = 0
      while p < whole {
        defer { p += 192 }
        guard buffer[p + 4] == 0x47,
          Int(buffer[p + 5] & 0x1F) << 8 | Int(buffer[p + 6]) == pid
        else { continue }
        let start = buffer[p + 5] & 0x40 != 0
        let control = buffer[p + 7] >> 4 & 3
        var payload = p + 8
        if control & 2 != 0 { payload += 1 + Int(buffer[p + 8]) }
        guard control & 1 != 0, payload < p + 192 else { continue }
        let end = p + 192
        if start {
          flush()
          let h = payload
          guard end - h >= 9, buffer[h] == 0, buffer[h + 1] == 0, buffer[h + 2] == 1 else {
            continue
          }
          declared = Int(buffer[h + 4]) << 8 | Int(buffer[h + 5])
          let headerLength = Int(buffer[h + 8])
          guard end - h >= 9 + headerLength else { continue }
          var pts: Int64?
          if buffer[h + 7] & 0x80 != 0, headerLength >= 5 {
            pts = timestamp(buffer, h + 9)
          }
          declared = declared == 0 ? 0 : max(0, declared - 3 - headerLength)
          current = SubtitlePacket(
            data: Array(buffer[(h + 9 + headerLength)..<end]), pts90k: pts, offset: at + Int64(p))
        } else if current != nil {
          current?.data += buffer[payload..<end]
        }
        if let c = current {
          if declared > 0, c.data.count >= declared {
            current?.data.removeLast(c.data.count - declared)
            flush()
          } else if c.data.count > maxPacketBytes {
            current = nil
          }
        }
      }
      at += Int64(whole)
      if got < want { break }
    }
    flush()
    return packets
  }

  /// The subpicture units of substream `substream` (`0x20`-`0x3F`) of private stream 1 in `range`
  /// of a DVD title's program stream (2048-byte packs from the range's start).
  public static func programStream(
    _ source: any ByteSource, substream: Int, range: Range<Int64>
  ) throws(DiscKitError) -> [SubtitlePacket] {
    var units: [SubtitlePacket] = []
    var current: SubtitlePacket?
    var buffer = [UInt8](repeating: 0, count: chunk)
    var at = range.lowerBound
    while at + 2048 <= range.upperBound {
      let want = Int(min(Int64(chunk), (range.upperBound - at) / 2048 * 2048))
      let got = try buffer.withUnsafeMutableBytes { raw in
        Result { () throws(DiscKitError) -> Int in
          try source.readFully(at: at, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<want]))
        }
      }.get()
      let whole = got / 2048 * 2048
      guard whole > 0 else { break }
      for pack in stride(from: 0, to: whole, by: 2048) {
        let end = pack + 2048
        guard buffer[pack] == 0, buffer[pack + 1] == 0, buffer[pack + 2] == 1,
          buffer[pack + 3] == 0xBA
        else { continue }
        var i = buffer[pack + 4] & 0xC0 == 0x40 ? pack + 14 + Int(buffer[pack + 13] & 7) : pack + 12
        while i + 6 <= end, buffer[i] == 0, buffer[i + 1] == 0, buffer[i + 2] == 1 {
          let id = buffer[i + 3]
          let length = Int(buffer[i + 4]) << 8 | Int(buffer[i + 5])
          let next = i + 6 + length
          defer { i = next }
          guard id == 0xBD, next <= end, length >= 4 else {
            if next > end { break }
            continue
          }
          let headerLength = Int(buffer[i + 8])
          let payload = i + 9 + headerLength
          guard payload < next, buffer[payload] == UInt8(substream) else { continue }
          let pts: Int64? =
            buffer[i + 7] & 0x80 != 0 && headerLength >= 5 ? timestamp(buffer, i + 9) : nil
          let data = buffer[(payload + 1)..<next]
          if pts != nil || current == nil {
            current = SubtitlePacket(data: Array(data), pts90k: pts, offset: at + Int64(pack))
          } else {
            current?.data += data
          }
          if let c = current, c.data.count >= 2 {
            let size = Int(c.data[0]) << 8 | Int(c.data[1])
            if c.data.count >= size {
              if size >= 4 {
                units.append(
                  SubtitlePacket(
                    data: Array(c.data.prefix(size)), pts90k: c.pts90k, offset: c.offset))
              }
              current = nil
            } else if c.data.count > maxPacketBytes {
              current = nil
            }
          }
        }
      }
      at += Int64(whole)
      if got < want { break }
    }
    return units
  }

  /// A 33-bit PES timestamp at `i`.
  static func timestamp(_ b: [UInt8], _ i: Int) -> Int64 {
    Int64(b[i] >> 1 & 7) << 30 | Int64(b[i + 1]) << 22 | Int64(b[i + 2] >> 1) << 15
      | Int64(b[i + 3]) << 7 | Int64(b[i + 4] >> 1)
  }
}
