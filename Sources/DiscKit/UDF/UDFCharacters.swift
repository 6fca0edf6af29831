/// OSTA Compressed Unicode (CS0) strings (UDF 2.1.1 and 2.1.3).
enum UDFCharacters {
  /// Decodes a CS0 string: a compression id byte (8: one byte per character, 16: UTF-16BE)
  /// followed by the characters. Returns `nil` for any other compression id or an empty input.
  static func decode<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
    guard let compression = bytes.first else { return nil }
    let body = bytes.dropFirst()
    switch compression {
    case 8:
      var scalars = String.UnicodeScalarView()
      for byte in body { scalars.append(Unicode.Scalar(byte)) }
      return String(scalars)
    case 16:
      var units: [UInt16] = []
      units.reserveCapacity(body.count / 2)
      var iterator = body.makeIterator()
      while let high = iterator.next(), let low = iterator.next() {
        units.append(UInt16(high) << 8 | UInt16(low))
      }
      return String(decoding: units, as: UTF16.self)
    default:
      return nil
    }
  }

  /// Decodes a `dstring` field (ECMA-167 1/7.2.12): CS0 bytes whose used length is in the last
  /// byte of the field. Undecodable content yields an empty string.
  static func dstring(_ field: ArraySlice<UInt8>) -> String {
    guard let length = field.last, length > 0 else { return "" }
    let used = min(Int(length), field.count - 1)
    return decode(field.prefix(used)) ?? ""
  }
}
