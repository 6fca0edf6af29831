@_spi(Benchmark) import DiscKit
import DiscKitTestSupport
import Foundation

/// ffprobe as the oracle, and a minimal independent packet walker (it shares no code with the
/// scanner) for the PAT gate.
enum TSOracle {
  struct Packet {
    var pid: UInt16
    var pts: Int64?
    var pos: Int64?
    var key: Bool
  }

  struct Probe {
    var packets: [Packet]
    /// PID → (codec_name, stream type).
    var streams: [UInt16: (codec: String, type: Int)]
  }

  /// Runs `ffprobe -show_streams -show_packets` on a file (or on its first `window` bytes).
  static func probe(_ path: String) throws -> Probe {
    let result = try Tool.run(
      "ffprobe",
      [
        "-v", "quiet", "-of", "json", "-show_entries",
        "stream=index,id,codec_name,codec_tag:packet=stream_index,pts,pos,flags", path,
      ])
    let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
    var pidOfIndex: [Int: UInt16] = [:]
    var streams: [UInt16: (codec: String, type: Int)] = [:]
    for s in json["streams"] as? [[String: Any]] ?? [] {
      guard let index = s["index"] as? Int, let id = s["id"] as? String,
        let pid = UInt16(id.dropFirst(2), radix: 16)
      else { continue }
      pidOfIndex[index] = pid
      let tag = (s["codec_tag"] as? String).flatMap { Int($0.dropFirst(2), radix: 16) } ?? -1
      streams[pid] = (s["codec_name"] as? String ?? "unknown", tag)
    }
    var packets: [Packet] = []
    for p in json["packets"] as? [[String: Any]] ?? [] {
      guard let index = p["stream_index"] as? Int, let pid = pidOfIndex[index] else { continue }
      let pts = (p["pts"] as? Int).map(Int64.init) ?? (p["pts"] as? NSNumber)?.int64Value
      let pos = (p["pos"] as? String).flatMap { Int64($0) }
      packets.append(
        Packet(pid: pid, pts: pts, pos: pos, key: (p["flags"] as? String ?? "").hasPrefix("K")))
    }
    return Probe(packets: packets, streams: streams)
  }

  /// The first packet on `pid` that begins a PES at or after `gate` (ffprobe reports `pos` only for
  /// the first frame of each PES). ffprobe does NOT drop PES before the first PAT (it reads the
  /// PAT/PMT while probing and seeks back), so the gate is applied here.
  static func firstPES(_ probe: Probe, pid: UInt16, gate: Int64, keyOnly: Bool = false) -> Packet? {
    probe.packets.first {
      $0.pid == pid && $0.pos != nil && ($0.pos ?? -1) >= gate && (!keyOnly || $0.key)
    }
  }

  /// A 33-bit value (ffprobe unwraps PTS past 2^33; the scanner reports the raw value).
  static func raw(_ pts: Int64?) -> UInt64? {
    pts.map { UInt64(bitPattern: $0) & ((1 << 33) - 1) }
  }

  struct Walk {
    var firstPATOffset: Int64?
    var pesBeforePAT = 0
    var patOffsets: [Int64] = []
    var pesStarts: [(offset: Int64, pid: UInt16)] = []
  }

  /// Walks packets of a known size from a packet-aligned start: PAT packets (PID 0 with
  /// payload_unit_start) and PES starts (payload_unit_start, payload begins 00 00 01).
  static func walk(_ data: [UInt8], unit: Int, start: Int = 0) -> Walk {
    var w = Walk()
    let sync = unit == 192 ? 4 : 0
    var o = start
    while o + unit <= data.count {
      let p = o + sync
      if data[p] == 0x47 {
        let pid = UInt16(data[p + 1] & 0x1F) << 8 | UInt16(data[p + 2])
        let pusi = data[p + 1] & 0x40 != 0
        let afc = data[p + 3] >> 4 & 3
        var payload = p + 4
        if afc & 2 != 0 { payload += 1 + Int(data[p + 4]) }
        if pusi && pid == 0 {
          w.patOffsets.append(Int64(o))
          if w.firstPATOffset == nil { w.firstPATOffset = Int64(o) }
        } else if pusi, afc & 1 != 0, pid >= 0x20, payload + 3 <= p + 188, data[payload] == 0,
          data[payload + 1] == 0, data[payload + 2] == 1
        {
          w.pesStarts.append((Int64(o), pid))
          if w.firstPATOffset == nil { w.pesBeforePAT += 1 }
        }
      }
      o += unit
    }
    return w
  }

  static func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  static func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// Scans a whole file through the library entry point.
  static func scan(_ path: String, window: Int64 = PESPreScanner.defaultWindow) throws
    -> PESScanReport
  {
    try PESPreScanner.scan(source: FileByteSource(path: path), window: window)
  }

  /// Scans bytes fed in chunks of `chunk` bytes (`fastPath`: the scanner's skipping of quiet
  /// payloads set so; `nil`: its default).
  static func scan(
    _ data: [UInt8], chunk: Int, fastPath: Bool? = nil, options: PESScanOptions = PESScanOptions()
  ) -> PESScanReport {
    var scanner = PESPreScanner(options: options)
    if let fastPath { scanner.skipsQuietPayloads = fastPath }
    data.withUnsafeBytes { raw in
      var i = 0
      while i < raw.count {
        let n = min(chunk, raw.count - i)
        scanner.feed(UnsafeRawBufferPointer(rebasing: raw[i..<i + n]))
        i += n
      }
    }
    return scanner.finish()
  }
}
