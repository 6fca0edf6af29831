/// The part-of-title search pointer table of a title set (`vts_ptt_srpt_t`, VTS_PTT_SRPT): for
/// each title of the set, its chapters as (PGC number, program number) pairs.
///
/// Follows libdvdread: a zero `last_byte` is computed from the count; titles whose offset points
/// past the table end the list; each title's chapter count comes from the distance to the next
/// title's offset (or the table end).
@_spi(Formats)
public struct DVDPartOfTitleTable: Sendable, Hashable {
  /// One chapter (part of title).
  public struct Part: Sendable, Hashable {
    /// 1-based PGC number within the title set.
    public var programChain: Int
    /// 1-based program number within that PGC.
    public var program: Int
  }

  /// `last_byte` as used (computed when the disc stores zero).
  public var lastByte: UInt32
  /// For each title of the set (index = title-in-set − 1), its parts.
  public var titles: [[Part]]

  /// Reads the table; `reader`'s window starts at the table and extends to the end of the file.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let base = reader
    var count = Int(try reader.readUInt16BE())
    try reader.skip(2)
    var last = try reader.readUInt32BE()
    guard count > 0 else {
      throw base.malformed("the part-of-title table has no titles", atRelative: 0)
    }
    if last == 0 { last = UInt32(count * 4 - 1 + 8) }
    guard last >= 8 else {
      throw base.malformed("last byte \(last) lies inside the table header", atRelative: 4)
    }
    let tableLength = Int(last) + 1
    guard tableLength <= base.count else {
      throw DiscKitError.truncated(
        base.structure, at: base.absoluteOffset, needed: Int64(tableLength))
    }
    let table = try base.slice(atRelative: 0, count: tableLength)
    guard count <= (tableLength - 8) / 4 else {
      throw base.malformed(
        "\(count) titles do not fit in a \(tableLength)-byte table", atRelative: 0)
    }
    var offsets: [Int] = []
    for i in 0..<count {
      let start = Int(try table.uint32BE(atRelative: 8 + i * 4))
      if start + 4 > tableLength {
        count = i
        break
      }
      offsets.append(start)
    }
    var result: [[Part]] = []
    result.reserveCapacity(count)
    for i in 0..<count {
      let start = offsets[i]
      let end = i + 1 < count ? offsets[i + 1] : tableLength
      let n = max(0, end - start) / 4
      var parts: [Part] = []
      parts.reserveCapacity(n)
      for j in 0..<n {
        let at = start + 4 * j
        let pgcn = Int(try table.uint16BE(atRelative: at))
        let pgn = Int(try table.uint16BE(atRelative: at + 2))
        parts.append(Part(programChain: pgcn, program: pgn))
      }
      result.append(parts)
    }
    lastByte = last
    titles = result
  }
}
