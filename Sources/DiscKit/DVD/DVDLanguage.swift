/// Language codes as stored in DVD attributes.
@_spi(Formats)
public enum DVDLanguage {
  /// Two ASCII letters from a big-endian 16-bit code, or `nil` when either byte is not a letter.
  public static func code(_ raw: UInt16) -> String? {
    let a = UInt8(raw >> 8)
    let b = UInt8(raw & 0xff)
    func isLetter(_ c: UInt8) -> Bool { (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) }
    guard isLetter(a), isLetter(b) else { return nil }
    return String(decoding: [a, b], as: UTF8.self)
  }

  /// The code lsdvd prints: the two letters, or `xx` when either byte is not a letter.
  public static func lsdvdCode(_ raw: UInt16) -> String { code(raw) ?? "xx" }
}
