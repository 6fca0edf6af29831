/// What DiscKit reads from the System Use Sharing Protocol (SUSP, IEEE P1281) and Rock Ridge
/// (RRIP, IEEE P1282) entries of one directory record.
///
/// Only what naming and the directory tree need is decoded: `NM` (alternate name), `RE`
/// (relocated directory: hidden), `CL` (child link: where a relocated directory really is),
/// `SL` (symbolic link: recorded, listed as a file), `SP` (the SUSP indicator in the root's `.`
/// record) and `CE` (continuation areas, followed at most ``maxContinuations`` times).
struct ISO9660RockRidgeEntries: Sendable {
  /// The Rock Ridge name bytes (the `NM` components concatenated), if any.
  var name: [UInt8]? = nil
  /// An `NM` entry flagged the record as `.` or `..`.
  var namesCurrentOrParent = false
  /// The record has an `RE` entry (a relocated directory, reached through a `CL` elsewhere).
  var isRelocated = false
  /// The `CL` entry's logical block: the real location of a relocated directory.
  var childLink: UInt32? = nil
  /// The record has an `SL` entry (a symbolic link).
  var isSymbolicLink = false
  /// The `SP` entry's skip length (bytes to skip at the start of each System Use area), when
  /// the `SP` entry is present (root `.` record only).
  var susPSkip: Int? = nil

  /// Continuation areas followed per record at most.
  static let maxContinuations = 16
  /// The longest Rock Ridge name accepted.
  static let maxNameBytes = 4096

  /// Parses the System Use area `area` and every continuation area it chains to.
  ///
  /// - Parameters:
  ///   - source: the image, to read `CE` continuation areas from.
  ///   - blockSize: the logical block size.
  /// - Throws: ``DiscKitError/Code/malformed`` for an entry whose length does not fit its area,
  ///   ``DiscKitError/Code/truncated`` for a continuation area past the end of the image,
  ///   ``DiscKitError/Code/loop`` when continuation areas chain more than ``maxContinuations``
  ///   times.
  init(parsing area: BinaryReader, source: any ByteSource, blockSize: Int) throws(DiscKitError) {
    var reader = area
    var hops = 0
    var nameContinues = false
    while true {
      var continuation: (block: UInt32, offset: UInt32, length: UInt32, at: Int64)? = nil
      entries: while reader.remaining >= 4 {
        let entryOffset = reader.absoluteOffset
        let signature0 = try reader.uint8(atRelative: reader.relativePosition)
        let signature1 = try reader.uint8(atRelative: reader.relativePosition + 1)
        let length = Int(try reader.uint8(atRelative: reader.relativePosition + 2))
        if signature0 == 0 && signature1 == 0 { break entries }  // zero padding
        guard length >= 4, length <= reader.remaining else {
          throw DiscKitError.malformed(
            reader.structure, at: entryOffset,
            "SUSP entry length \(length) does not fit the \(reader.remaining) bytes left in the System Use area"
          )
        }
        var entry = try reader.slice(length)
        try entry.skip(4)
        switch (signature0, signature1) {
        case (0x53, 0x50):  // SP
          if length >= 7, try entry.readUInt8() == 0xBE, try entry.readUInt8() == 0xEF {
            susPSkip = Int(try entry.readUInt8())
          }
        case (0x53, 0x54):  // ST: end of the System Use entries
          break entries
        case (0x43, 0x45):  // CE
          guard length >= 28 else {
            throw DiscKitError.malformed(
              reader.structure, at: entryOffset, "CE entry of \(length) bytes is shorter than 28")
          }
          let block = try entry.readUInt32LE()
          try entry.skip(4)
          let offset = try entry.readUInt32LE()
          try entry.skip(4)
          let areaLength = try entry.readUInt32LE()
          continuation = (block, offset, areaLength, entryOffset)
        case (0x4E, 0x4D):  // NM
          guard length >= 5 else { break }
          let flags = try entry.readUInt8()
          if flags & 0x06 != 0 {
            namesCurrentOrParent = true
            break
          }
          let part = try entry.readBytes(entry.remaining)
          if name == nil || !nameContinues { name = part } else { name?.append(contentsOf: part) }
          guard (name?.count ?? 0) <= Self.maxNameBytes else {
            throw DiscKitError.limit(
              reader.structure, at: entryOffset,
              "Rock Ridge name longer than \(Self.maxNameBytes) bytes")
          }
          nameContinues = flags & 0x01 != 0
        case (0x52, 0x45):  // RE
          isRelocated = true
        case (0x43, 0x4C):  // CL
          if length >= 12 { childLink = try entry.readUInt32LE() }
        case (0x53, 0x4C):  // SL
          isSymbolicLink = true
        default:
          break
        }
      }
      guard let next = continuation else { return }
      hops += 1
      guard hops <= Self.maxContinuations else {
        throw DiscKitError(
          .loop, "Rock Ridge continuation area", at: next.at,
          "more than \(Self.maxContinuations) chained continuation areas")
      }
      let start = Int64(next.block) * Int64(blockSize) + Int64(next.offset)
      guard next.length <= 65536, start + Int64(next.length) <= source.size else {
        throw DiscKitError(
          .truncated, "Rock Ridge continuation area", at: next.at,
          "CE entry points at \(next.length) bytes at byte \(start), past the end of the \(source.size)-byte image"
        )
      }
      let bytes = try source.bytes(
        at: start, count: Int(next.length), structure: "Rock Ridge continuation area")
      reader = BinaryReader(bytes, baseOffset: start, structure: "Rock Ridge continuation area")
    }
  }
}
