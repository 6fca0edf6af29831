/// A parsed `Range` request header (RFC 9110 §14), for one resource of a known size.
///
/// Single ranges only: `bytes=a-b`, `bytes=a-`, `bytes=-n`. A header in another unit, or asking
/// for several ranges, is ignored (the whole resource is sent, as RFC 9110 allows); a malformed
/// byte range or one that starts at or after the end is unsatisfiable (416, as nginx answers).
public enum ByteRangeRequest: Sendable, Hashable {
  /// No usable Range header: send everything (200).
  case whole
  /// Send these bytes (206); never empty, always inside the resource.
  case partial(Range<Int64>)
  /// 416 with `Content-Range: bytes */size`.
  case unsatisfiable

  /// Parses `header` for a resource of `size` bytes.
  public init(header: String?, size: Int64) {
    guard let header else {
      self = .whole
      return
    }
    let trimmed = header.trimmingSpaces
    guard let equals = trimmed.firstIndex(of: "="),
      trimmed[..<equals].trimmingSpaces.lowercased() == "bytes"
    else {
      self = .whole
      return
    }
    let spec = trimmed[trimmed.index(after: equals)...].trimmingSpaces
    if spec.contains(",") {
      self = .whole
      return
    }
    guard let dash = spec.firstIndex(of: "-") else {
      self = .unsatisfiable
      return
    }
    let first = spec[..<dash].trimmingSpaces
    let last = spec[spec.index(after: dash)...].trimmingSpaces
    if first.isEmpty {
      // Suffix: the last n bytes.
      guard let n = Self.number(last), n > 0, size > 0 else {
        self = .unsatisfiable
        return
      }
      self = .partial(max(0, size - n)..<size)
      return
    }
    guard let start = Self.number(first) else {
      self = .unsatisfiable
      return
    }
    var end = size - 1
    if !last.isEmpty {
      guard let value = Self.number(last), value >= start else {
        self = .unsatisfiable
        return
      }
      end = min(end, value)
    }
    guard start < size else {
      self = .unsatisfiable
      return
    }
    self = .partial(start..<(end + 1))
  }

  /// Decimal digits as a count; values beyond `Int64` saturate; nil for anything else.
  static func number(_ text: Substring) -> Int64? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    var value: Int64 = 0
    for byte in text.utf8 {
      let (times, o1) = value.multipliedReportingOverflow(by: 10)
      let (plus, o2) = times.addingReportingOverflow(Int64(byte - 0x30))
      if o1 || o2 { return Int64.max }
      value = plus
    }
    return value
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  package var trimmingSpaces: Substring {
    let scalars = Substring(self)
    guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
      let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
    else { return "" }
    return scalars[start...end]
  }
}
