/// The version field of a BDMV file header (`MPLS0200`, `HDMV0300`, ...).
///
/// libbluray accepts exactly these four versions (`bdmv_parse_header`); DiscKit does too and
/// rejects anything else with ``DiscKitError/Code/unsupported``.
@_spi(Formats)
public enum BDMVVersion: String, Sendable, Hashable, Codable, CaseIterable {
  case v0100 = "0100"
  case v0200 = "0200"
  case v0240 = "0240"
  case v0300 = "0300"

  /// Reads the 8-byte header (`type` + version) at the start of `reader`'s window.
  static func readHeader(_ reader: inout BinaryReader, type: String) throws(DiscKitError)
    -> BDMVVersion
  {
    try reader.seek(toRelative: 0)
    let start = reader.absoluteOffset
    guard reader.count >= 8 else {
      throw DiscKitError.truncated(reader.structure, at: start, needed: 8)
    }
    let tag = try reader.readASCII(4)
    guard tag == type else {
      throw DiscKitError(
        .malformed, reader.structure, at: start,
        "type indicator is \"\(tag)\", expected \"\(type)\"")
    }
    let text = try reader.readASCII(4)
    guard let version = BDMVVersion(rawValue: text) else {
      throw DiscKitError(
        .unsupported, reader.structure, at: start + 4, "unknown version \"\(text)\"")
    }
    return version
  }
}

extension BinaryReader {
  /// Reads `n` bytes as an identifier (clip id, codec id, language), stopping at a NUL.
  mutating func readIdentifier(_ n: Int) throws(DiscKitError) -> String {
    let start = position
    try skip(n)
    // Straight from the bytes (clip ids, codec ids and language codes: thousands of them in a
    // playlist of many items, each read through two arrays before).
    return bytes.withUnsafeBufferPointer { all in
      var end = start
      while end < start + n && all[end] != 0 { end += 1 }
      let field = UnsafeBufferPointer(rebasing: all[start..<end])
      if field.allSatisfy({ $0 < 0x80 }) { return String(decoding: field, as: UTF8.self) }
      return String(decoding: field.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
  }
}
