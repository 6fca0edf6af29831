import DiscKit

/// A 188-byte transport stream view of 192-byte Blu-ray source packets: every packet's 4-byte
/// arrival time stamp (`TP_extra_header`) left out, for clients that only read plain MPEG-TS
/// (HLS). Positional and concurrency-safe like its base; reads go through one base read per call
/// (at most 4 MiB at a time), never one per packet.
public struct TransportStreamView: ByteSource {
  /// The source packets.
  public let base: any ByteSource
  /// Whole packets × 188 (a trailing partial packet of the base is not shown).
  public let size: Int64

  /// The view of `base`.
  public init(_ base: any ByteSource) {
    self.base = base
    self.size = base.size / 192 * 188
  }

  /// Position `offset` of the view in the base (the byte after the arrival time stamp).
  package static func baseOffset(_ offset: Int64) -> Int64 { offset / 188 * 192 + 4 + offset % 188 }

  /// Position `offset` of the base (a packet boundary) in the view.
  package static func viewOffset(_ offset: Int64) -> Int64 { offset / 192 * 188 }

  /// Reads the view's bytes at `offset` (at most 4 MiB per call): one read of the base.
  public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    guard offset >= 0 else {
      throw DiscKitError(.invalidArgument, "transport stream view", at: offset, "negative offset")
    }
    guard offset < size, buffer.count > 0 else { return 0 }
    let wanted = Int(min(Int64(buffer.count), size - offset, 4 << 20))
    let firstPacket = offset / 188
    let lastPacket = (offset + Int64(wanted) - 1) / 188
    let packets = Int(lastPacket - firstPacket + 1)
    var raw = [UInt8](repeating: 0, count: packets * 192)
    let outcome = raw.withUnsafeMutableBytes { r in
      Result { () throws(DiscKitError) -> Int in try base.readFully(at: firstPacket * 192, into: r)
      }
    }
    let got = try outcome.get()
    guard got == raw.count else {
      throw DiscKitError.truncated(
        "transport stream view", at: firstPacket * 192, needed: Int64(raw.count))
    }
    var done = 0
    var position = offset
    raw.withUnsafeBytes { r in
      while done < wanted {
        let packet = Int(position / 188 - firstPacket)
        let within = Int(position % 188)
        let take = min(188 - within, wanted - done)
        let from = packet * 192 + 4 + within
        buffer.baseAddress!.advanced(by: done).copyMemory(
          from: r.baseAddress!.advanced(by: from), byteCount: take)
        done += take
        position += Int64(take)
      }
    }
    return done
  }
}
