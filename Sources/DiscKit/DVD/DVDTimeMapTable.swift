/// The time map table of a title set (`vts_tmapt_t`, VTS_TMAPT): for each title PGC, the VOBU
/// sector reached every `timeUnit` seconds.
@_spi(Formats)
public struct DVDTimeMapTable: Sendable, Hashable {
  /// One time map.
  public struct Map: Sendable, Hashable {
    /// Seconds between entries.
    public var timeUnit: Int
    /// Entry sectors (bit 31 marks a discontinuity).
    public var entries: [UInt32]
  }

  /// One map per title PGC.
  public var maps: [Map]

  /// Reads the table; `reader`'s window starts at the table and extends to the end of the file.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let base = reader
    let offsets = try DVDOffsetTable.entryOffsets(&reader)
    var result: [Map] = []
    result.reserveCapacity(offsets.count)
    for (i, offset) in offsets.enumerated() {
      var map = try base.slice(
        atRelative: offset, count: max(0, base.count - offset),
        structure: base.structure + " map \(i + 1)")
      let unit = Int(try map.readUInt8())
      try map.skip(1)
      let n = Int(try map.readUInt16BE())
      guard n * 4 <= map.remaining else {
        throw DiscKitError.truncated(map.structure, at: map.absoluteOffset, needed: Int64(n * 4))
      }
      result.append(Map(timeUnit: unit, entries: try map.readUInt32BEArray(count: n)))
    }
    maps = result
  }
}
