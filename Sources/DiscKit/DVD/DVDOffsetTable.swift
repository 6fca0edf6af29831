/// The header shared by DVD tables that list their entries through 32-bit offsets (VTS_ATRT,
/// VTS_TMAPT): a 16-bit entry count, 2 reserved bytes, the table's last byte (32 bits), then one
/// offset per entry, relative to the table's start.
enum DVDOffsetTable {
  /// Reads the header and the offsets, checking that `count` offsets fit in the table.
  ///
  /// - Returns: the entries' offsets relative to the start of `reader`'s window.
  static func entryOffsets(_ reader: inout BinaryReader) throws(DiscKitError) -> [Int] {
    let count = Int(try reader.readUInt16BE())
    try reader.skip(2)
    _ = try reader.readUInt32BE()
    guard count * 4 <= reader.remaining else {
      throw DiscKitError.truncated(
        reader.structure, at: reader.absoluteOffset, needed: Int64(count * 4))
    }
    var offsets: [Int] = []
    offsets.reserveCapacity(count)
    for _ in 0..<count { offsets.append(Int(try reader.readUInt32BE())) }
    return offsets
  }
}
