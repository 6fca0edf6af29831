/// The few printf conversions of the text reports, written without C varargs: `String(cFormat:)`
/// boxes every argument as `any CVarArg` and casts it at run time, and each first cast of a type
/// scans the binary's protocol conformances (a measurable part of `disckit titles`' startup).
/// The results are byte-equal to glibc's `%*ld` and `%*.1f` (tested against `String(cFormat:)`).
package enum DecimalText {
  /// `%*ld`: `value` right-aligned in `width` columns.
  package static func integer(_ value: Int, width: Int = 0) -> String {
    padded(String(value), width: width)
  }

  /// `%*.1f` of `bytes / 2^20` (mebibytes with one decimal), rounded as glibc rounds: to nearest,
  /// ties to even, on the exact value (a power-of-two division is exact below 2^53 bytes).
  package static func mebibytes(_ bytes: Int64, width: Int) -> String {
    guard bytes >= 0, bytes < 1 << 53 else {
      return String(cFormat: "%*.1f", Int32(clamping: width), Double(bytes) / 1_048_576)
    }
    let tenths = bytes * 10  // < 2^57: no overflow
    var quotient = tenths >> 20
    let remainder = tenths & ((1 << 20) - 1)
    let half: Int64 = 1 << 19
    if remainder > half || (remainder == half && quotient & 1 == 1) { quotient += 1 }
    return padded("\(quotient / 10).\(quotient % 10)", width: width)
  }

  private static func padded(_ text: String, width: Int) -> String {
    let count = text.utf8.count
    return count >= width ? text : String(repeating: " ", count: width - count) + text
  }
}
