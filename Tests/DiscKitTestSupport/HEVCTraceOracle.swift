import Foundation

/// The RFC 6381 `hvc1` value of an HEVC stream as ffmpeg reads it: the first SPS's
/// profile_tier_level bits printed by the `trace_headers` bitstream filter (libavcodec's own
/// syntax tables), formatted as ISO/IEC 14496-15 E.3 says. An oracle for DiscKit's codec strings.
public enum HEVCTraceOracle {
  /// An oracle failure.
  public struct OracleError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
  }

  /// The `hvc1` value ISO/IEC 14496-15 E.3 gives for the SPS's profile_tier_level as ffmpeg's
  /// `trace_headers` reads it (the bits of general_profile_space to general_level_idc).
  public static func hvc1(_ clip: String) throws -> String {
    let run = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-v", "verbose", "-i", clip, "-map", "0:v", "-c", "copy", "-frames:v", "1",
        "-bsf:v", "trace_headers", "-f", "null", "-",
      ])
    let lines = run.stderr.split(separator: "\n").filter { $0.contains("[trace_headers") }
    let sps = lines.firstIndex { $0.contains("Sequence Parameter Set") }
    guard let sps else { throw OracleError("trace_headers printed no SPS for \(clip)") }
    var bits = ""
    var level = -1
    var inside = false
    for line in lines[sps...] {
      guard let close = line.firstIndex(of: "]") else { continue }
      let words = line[line.index(after: close)...].split(separator: " ")
      guard words.count >= 5, words[words.count - 2] == "=" else { continue }
      let name = words[1]
      if name == "general_profile_space" { inside = true }
      if name == "general_level_idc" {
        level = Int(words[words.count - 1]) ?? -1
        break
      }
      if inside { bits += words[words.count - 3] }
    }
    guard bits.count == 88, level >= 0 else {
      throw OracleError("trace_headers: \(bits.count) profile_tier_level bits in \(clip)")
    }
    let b = Array(bits).map { $0 == "1" ? 1 : 0 }
    func value(_ range: Range<Int>) -> Int { range.reduce(0) { $0 << 1 | b[$1] } }
    var compatibility = 0
    for j in 0..<32 where b[8 + j] == 1 { compatibility |= 1 << j }
    var constraints = (0..<6).map { value((40 + 8 * $0)..<(48 + 8 * $0)) }
    while constraints.last == 0 { constraints.removeLast() }
    return "hvc1." + ["", "A", "B", "C"][value(0..<2)] + "\(value(3..<8))."
      + String(compatibility, radix: 16, uppercase: true) + "." + (b[2] == 1 ? "H" : "L")
      + "\(level)" + constraints.map { "." + String($0, radix: 16, uppercase: true) }.joined()
  }

}
