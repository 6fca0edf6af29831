/// The parts of a transport packet's adaptation field that stream analysis needs
/// (ISO/IEC 13818-1 §2.4.3.4).
package struct AdaptationField: Sendable, Hashable {
  /// `adaptation_field_length`: the bytes after the length byte.
  package var length: Int
  /// `discontinuity_indicator`: the continuity counter (and time base) may jump here.
  package var discontinuity: Bool
  /// `random_access_indicator`: the next PES starting here begins at a random access point.
  package var randomAccess: Bool
  /// `elementary_stream_priority_indicator`.
  package var elementaryStreamPriority: Bool
  /// The program clock reference in 27 MHz units (`base * 300 + extension`), when present.
  package var pcr: UInt64?

  /// Parses an adaptation field at the reader's cursor (the `adaptation_field_length` byte).
  ///
  /// - Parameter maximumLength: the bytes left in the packet after the length byte (183 when
  ///   the packet also has payload, 183 without).
  /// - Throws: ``DiscKitError/Code/malformed`` when the declared length does not fit the packet
  ///   or the PCR flag is set in a field too short to hold one.
  package init(parsing reader: inout BinaryReader, maximumLength: Int = 183) throws(DiscKitError) {
    let start = reader.relativePosition
    let declared = Int(try reader.readUInt8())
    guard declared <= maximumLength, declared <= reader.remaining else {
      throw reader.malformed(
        "adaptation_field_length \(declared) exceeds the \(min(maximumLength, reader.remaining)) bytes left in the packet",
        atRelative: start)
    }
    length = declared
    discontinuity = false
    randomAccess = false
    elementaryStreamPriority = false
    pcr = nil
    guard declared > 0 else { return }
    var body = try reader.slice(declared)
    let flags = try body.readUInt8()
    discontinuity = flags & 0x80 != 0
    randomAccess = flags & 0x40 != 0
    elementaryStreamPriority = flags & 0x20 != 0
    if flags & 0x10 != 0 {
      guard body.remaining >= 6 else {
        throw body.malformed("PCR flag set but only \(body.remaining) bytes remain")
      }
      let high = UInt64(try body.readUInt32BE())
      let low = UInt64(try body.readUInt16BE())
      let base = high << 1 | low >> 15
      pcr = base &* 300 &+ (low & 0x1FF)
    }
  }
}
