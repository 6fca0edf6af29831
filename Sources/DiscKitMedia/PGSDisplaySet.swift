import CFFmpeg
import DiscKit

/// Gathers the segments of one HDMV PGS display set (PCS, WDS, PDS, ODS, ..., END), which a
/// Blu-ray transport stream carries one segment per PES packet, into one Matroska block at the
/// display set's first time, as mkvmerge stores `S_HDMV/PGS`.
///
/// A segment is its type (1 byte), its length (2 bytes, big-endian) and its payload. A display
/// set is complete with its END segment (type `0x80`); a packet whose segments do not parse, or a
/// set that grows past ``limit``, is passed on as it is, so malformed input costs at most one odd
/// block, never unbounded memory.
struct PGSDisplaySet {
  /// The END segment's type.
  static let endSegment: UInt8 = 0x80
  /// The most bytes gathered before a set is passed on incomplete (a full-screen 1920x1080 set
  /// with its run-length objects is far smaller).
  static let limit = 4 << 20

  /// The gathered segments.
  private(set) var bytes: [UInt8] = []
  /// The title times (90 kHz) of the set's first segment.
  private(set) var pts: Int64 = 0
  private(set) var dts: Int64 = 0
  /// The flags of the first segment's packet.
  private(set) var flags: Int32 = 0

  var isEmpty: Bool { bytes.isEmpty }

  /// Whether `data` ends a display set: its segments parse and the last is an END segment, or
  /// its segments do not parse (passed on as they are).
  static func ends(_ data: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    var last: UInt8?
    while i < data.count {
      guard data.count - i >= 3 else { return true }
      let length = Int(data[i + 1]) << 8 | Int(data[i + 2])
      guard length <= data.count - i - 3 else { return true }
      last = data[i]
      i += 3 + length
    }
    return last == endSegment
  }

  /// Adds a packet's segments (title times of the packet); returns whether the set is complete.
  mutating func append(_ packet: UnsafePointer<AVPacket>, pts: Int64, dts: Int64) -> Bool {
    let size = Int(max(0, packet.pointee.size))
    let data = UnsafeBufferPointer(
      start: packet.pointee.data, count: packet.pointee.data == nil ? 0 : size)
    if bytes.isEmpty {
      self.pts = pts
      self.dts = dts
      flags = packet.pointee.flags
    }
    bytes.append(contentsOf: data)
    return Self.ends(data) || bytes.count >= Self.limit
  }

  /// Moves the gathered set into `packet` (its data replaced) and empties the set.
  mutating func take(into packet: UnsafeMutablePointer<AVPacket>) -> Bool {
    av_packet_unref(packet)
    guard av_new_packet(packet, Int32(bytes.count)) >= 0, let data = packet.pointee.data else {
      bytes.removeAll(keepingCapacity: true)
      return false
    }
    bytes.withUnsafeBufferPointer { b in
      if let base = b.baseAddress { data.update(from: base, count: b.count) }
    }
    packet.pointee.flags = flags | AV_PKT_FLAG_KEY
    packet.pointee.duration = 0
    bytes.removeAll(keepingCapacity: true)
    return true
  }
}
