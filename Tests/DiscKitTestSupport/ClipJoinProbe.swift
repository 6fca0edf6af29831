@_spi(Formats) import DiscKit
import Foundation
import Testing

/// What the clip-join tests measure in a transport stream (continuity, PCR, ffmpeg's warnings,
/// decoded frames, audio PES times, a source clip's presentation), shared by the core join tests
/// and the oracle tests of multi-STC clips.
public enum ClipJoinProbe {
  /// The packets breaking the continuity-counter rule: a payload packet's counter is one more
  /// than the previous packet's of its PID, a packet without payload repeats it (null packets
  /// and packets with the discontinuity indicator excepted).
  public static func continuityBreaks(_ bytes: [UInt8], packetSize: Int) -> [String] {
    var last: [Int: Int] = [:]
    var breaks: [String] = []
    for p in stride(from: packetSize - 188, to: bytes.count - 187, by: packetSize) {
      guard bytes[p] == 0x47 else {
        breaks.append("no sync byte at \(p)")
        continue
      }
      let pid = Int(bytes[p + 1] & 0x1F) << 8 | Int(bytes[p + 2])
      guard pid != 0x1FFF else { continue }
      let control = Int(bytes[p + 3] >> 4) & 3
      let cc = Int(bytes[p + 3] & 0x0F)
      let discontinuity = control & 2 != 0 && bytes[p + 4] > 0 && bytes[p + 5] & 0x80 != 0
      if let previous = last[pid], !discontinuity {
        let expected = control & 1 != 0 ? (previous + 1) & 15 : previous
        if cc != expected {
          breaks.append("packet \(p / packetSize) PID \(pid): \(cc), expected \(expected)")
        }
      }
      last[pid] = cc
    }
    return breaks
  }

  /// The PCR bases (90 kHz) of the stream, in order.
  public static func pcrs(_ bytes: [UInt8], packetSize: Int) -> [Int64] {
    var result: [Int64] = []
    for p in stride(from: packetSize - 188, to: bytes.count - 187, by: packetSize)
    where bytes[p] == 0x47 && bytes[p + 3] & 0x20 != 0 && bytes[p + 4] >= 7
      && bytes[p + 5] & 0x10 != 0
    {
      let b = bytes[(p + 6)..<(p + 11)].map(Int64.init)
      result.append(b[0] << 25 | b[1] << 17 | b[2] << 9 | b[3] << 1 | b[4] >> 7)
    }
    return result
  }

  /// `ffmpeg -v warning -i path -f null -`'s complaints.
  public static func ffmpegWarnings(_ path: String) throws -> String {
    let run = try Tool.run(
      "ffmpeg", ["-nostdin", "-hide_banner", "-v", "warning", "-i", path, "-f", "null", "-"])
    #expect(run.status == 0)
    return run.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The frame hashes of one stream of `path` (decoded by ffmpeg, or the coded packets with
  /// `copy`), with their PTS (90 kHz, as in the file).
  public static func frames(_ path: String, _ map: String, copy: Bool = false) throws -> [(
    pts90k: Int64, hash: String
  )] {
    let run = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-v", "error", "-copyts", "-i", path, "-map", map,
      ] + (copy ? ["-c", "copy"] : []) + ["-f", "framemd5", "-fps_mode", "passthrough", "-"])
    #expect(run.status == 0, "\(run.stderr)")
    var base = (num: Int64(1), den: Int64(90_000))
    var result: [(Int64, String)] = []
    for line in run.text.split(separator: "\n") {
      if line.hasPrefix("#tb 0: ") {
        let parts = line.dropFirst(7).split(separator: "/").compactMap { Int64($0) }
        if parts.count == 2 { base = (parts[0], parts[1]) }
        continue
      }
      guard !line.hasPrefix("#") else { continue }
      let f = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard f.count >= 6, let pts = Int64(f[2]) else { continue }
      result.append((pts * 90_000 * base.num / base.den, f[5]))
    }
    return result
  }

  /// The PTS of every PES start of the first audio stream of a 188-byte transport stream file
  /// (the PID ffprobe names), in file order.
  public static func audioPESTimes(_ path: String) throws -> [Int64] {
    let probe = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=id", "-of", "csv=p=0",
        path,
      ])
    // ffprobe may list the stream twice (under its program too): the first line.
    let line = probe.text.split(separator: "\n").first { $0.hasPrefix("0x") } ?? ""
    let pid = try #require(Int(line.dropFirst(2).prefix { $0.isHexDigit }, radix: 16))
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var times: [Int64] = []
    for p in stride(from: 0, to: bytes.count - 187, by: 188) where bytes[p] == 0x47 {
      guard Int(bytes[p + 1] & 0x1F) << 8 | Int(bytes[p + 2]) == pid, bytes[p + 1] & 0x40 != 0
      else { continue }
      var q = p + 4
      if bytes[p + 3] & 0x20 != 0 { q += 1 + Int(bytes[p + 4]) }
      guard q + 14 <= p + 188, bytes[q] == 0, bytes[q + 1] == 0, bytes[q + 2] == 1,
        bytes[q + 7] & 0x80 != 0
      else { continue }
      let b = bytes[(q + 9)..<(q + 14)].map(Int64.init)
      times.append((b[0] >> 1 & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1)
    }
    return times
  }

  /// The presentation of a source clip as the builder authors it: the first video PTS to the
  /// end of the last frame (ffprobe).
  public static func presentation(_ path: String) throws -> Range<Int64> {
    let run = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,duration", "-of",
        "csv=p=0", path,
      ])
    let rows = run.text.split(separator: "\n").map {
      $0.split(separator: ",").compactMap { Int64($0) }
    }
    .filter { $0.count == 2 }
    let first = rows.map { $0[0] }.min() ?? 0
    let last = rows.max { $0[0] < $1[0] }.map { $0[0] + $0[1] } ?? 0
    return first..<last
  }

  /// Equal except for packets libbluray wiped (PID rewritten to 0x1FFF).
  public static func equalAfterNormalising(ours: [UInt8], libbluray: [UInt8]) -> Bool {
    guard ours.count == libbluray.count, ours.count % 192 == 0 else { return false }
    for p in stride(from: 0, to: ours.count, by: 192)
    where ours[p..<p + 192] != libbluray[p..<p + 192] {
      let wiped = libbluray[p + 5] & 0x1F == 0x1F && libbluray[p + 6] == 0xFF
      guard wiped else { return false }
      for k in 0..<192 where k != 5 && k != 6 && ours[p + k] != libbluray[p + k] { return false }
      guard ours[p + 5] & 0xE0 == libbluray[p + 5] & 0xE0 else { return false }
    }
    return true
  }
}
