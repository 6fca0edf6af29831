/// A program chain information table (`pgcit_t`, VTS_PGCIT): the PGCs of a title set.
///
/// Like libdvdread, a PGC that cannot be read (an offset outside the file, a truncated table)
/// does not fail the table: its entry holds the error instead ("E-One releases provide bogus
/// PGCs"). Entries with the same start byte share one parsed PGC.
@_spi(Formats)
public struct DVDProgramChainTable: Sendable {
  /// One search pointer of the table.
  public struct Entry: Sendable {
    /// The raw entry id (bit 7: entry PGC of a title; bits 0-6: title number in the set).
    public var entryID: UInt8
    /// Parental id mask.
    public var parentalMask: UInt16
    /// The PGC's start, relative to the start of the table.
    public var startByte: UInt32
    /// The parsed PGC, or why it could not be read.
    public var programChain: Result<DVDProgramChain, DiscKitError>

    /// Whether this is the entry PGC of a title.
    public var isTitleEntry: Bool { entryID & 0x80 != 0 }
  }

  /// `last_byte`: the table's declared end, relative to its start.
  public var lastByte: UInt32
  /// The entries, in on-disc order (PGC number = index + 1).
  public var entries: [Entry]

  /// Reads the table; `reader`'s window starts at the table and extends to the end of the file.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let base = reader
    let count = Int(try reader.readUInt16BE())
    try reader.skip(2)
    lastByte = try reader.readUInt32BE()
    guard count * 8 <= reader.remaining else {
      throw DiscKitError.truncated(
        base.structure, at: reader.absoluteOffset, needed: Int64(count * 8))
    }
    var raw: [(UInt8, UInt16, UInt32)] = []
    raw.reserveCapacity(count)
    for _ in 0..<count {
      let id = try reader.readUInt8()
      try reader.skip(1)
      let mask = try reader.readUInt16BE()
      let start = try reader.readUInt32BE()
      raw.append((id, mask, start))
    }
    var parsed: [UInt32: Result<DVDProgramChain, DiscKitError>] = [:]
    var result: [Entry] = []
    result.reserveCapacity(count)
    for (index, (id, mask, start)) in raw.enumerated() {
      let pgc: Result<DVDProgramChain, DiscKitError>
      if let known = parsed[start] {
        pgc = known
      } else {
        pgc = Result { () throws(DiscKitError) -> DVDProgramChain in
          guard Int64(start) < Int64(base.count) else {
            throw DiscKitError.malformed(
              base.structure, at: base.absoluteOffset(ofRelative: 8 + index * 8 + 4),
              "PGC \(index + 1) starts at byte \(start) of the table, past the end of the file")
          }
          var pgcReader = try base.slice(
            atRelative: Int(start), count: base.count - Int(start),
            structure: base.structure + " PGC \(index + 1)")
          return try DVDProgramChain(parsing: &pgcReader)
        }
        parsed[start] = pgc
      }
      result.append(Entry(entryID: id, parentalMask: mask, startByte: start, programChain: pgc))
    }
    entries = result
  }

  /// The PGC with 1-based number `number`.
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` when there is no such entry, or the entry's parse error.
  public func programChain(_ number: Int) throws(DiscKitError) -> DVDProgramChain {
    guard number >= 1, number <= entries.count else {
      throw DiscKitError(
        .notFound, "VTS_PGCIT", at: nil,
        "PGC \(number) does not exist (the table has \(entries.count))")
    }
    return try entries[number - 1].programChain.get()
  }
}
