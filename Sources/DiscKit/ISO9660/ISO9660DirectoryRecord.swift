/// One ISO 9660 directory record (ECMA-119 9.1): the entry of a file or directory in its
/// parent's directory extent.
///
/// Both-endian fields are read from their little-endian half (as Linux isofs does); a record
/// whose big-endian half disagrees is accepted. The System Use area (Rock Ridge / SUSP) is kept
/// as the offset range of the record's bytes after the (padded) file identifier.
@_spi(Formats)
public struct ISO9660DirectoryRecord: Sendable, Hashable {
  /// The record's length in bytes (`LEN_DR`, at least 34).
  public let length: Int
  /// The extended attribute record length in logical blocks; file data starts after it.
  public let extendedAttributeLength: UInt8
  /// The first logical block of the extent.
  public let extentLocation: UInt32
  /// The number of bytes in the extent.
  public let dataLength: UInt32
  /// The file flags (bit 0 hidden, 1 directory, 2 associated, 7 not the final extent).
  public let flags: UInt8
  /// The file unit size for interleaved files (0 when not interleaved).
  public let fileUnitSize: UInt8
  /// The interleave gap size (0 when not interleaved).
  public let interleaveGapSize: UInt8
  /// The raw file identifier (`[0]` is `.`, `[1]` is `..`).
  public let identifier: [UInt8]
  /// The absolute byte offset of the record in the image.
  public let offset: Int64
  /// Where the System Use area starts, relative to the record.
  public let systemUseStart: Int

  /// Hidden (existence) flag: listed by DiscKit, like isoinfo and xorriso do.
  public var isHidden: Bool { flags & 0x01 != 0 }
  /// The record describes a directory.
  public var isDirectory: Bool { flags & 0x02 != 0 }
  /// An associated file (a Macintosh resource fork and the like): skipped by DiscKit.
  public var isAssociated: Bool { flags & 0x04 != 0 }
  /// More extents of the same file follow (multi-extent files, ECMA-119 6.5.1).
  public var isMultiExtent: Bool { flags & 0x80 != 0 }
  /// The record is the `.` entry of a directory.
  public var isSelf: Bool { identifier == [0] }
  /// The record is the `..` entry of a directory.
  public var isParent: Bool { identifier == [1] }
  /// The file is recorded in interleaved mode.
  public var isInterleaved: Bool { fileUnitSize != 0 || interleaveGapSize != 0 }

  /// Parses the record at the reader's cursor and advances past it.
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` when the record length is below 34 or its file
  ///   identifier runs past the record; ``DiscKitError/Code/truncated`` when the record runs
  ///   past the reader's window.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    let start = reader.absoluteOffset
    let length = Int(try reader.uint8(atRelative: reader.relativePosition))
    guard length >= 34 else {
      throw DiscKitError.malformed(
        reader.structure, at: start,
        "directory record length \(length) is less than the minimum of 34")
    }
    guard length <= reader.remaining else {
      throw DiscKitError.malformed(
        reader.structure, at: start,
        "directory record of \(length) bytes runs past the end of its \(reader.count)-byte area")
    }
    var record = try reader.slice(length)
    try record.skip(1)
    extendedAttributeLength = try record.readUInt8()
    extentLocation = try record.readUInt32LE()
    try record.skip(4)
    dataLength = try record.readUInt32LE()
    try record.skip(4 + 7)  // big-endian half, recording date and time
    flags = try record.readUInt8()
    fileUnitSize = try record.readUInt8()
    interleaveGapSize = try record.readUInt8()
    try record.skip(4)  // volume sequence number (both-endian)
    let nameLength = Int(try record.readUInt8())
    guard nameLength >= 1, nameLength <= length - 33 else {
      throw DiscKitError.malformed(
        reader.structure, at: start + 32,
        "file identifier length \(nameLength) does not fit the \(length)-byte directory record")
    }
    identifier = try record.readBytes(nameLength)
    self.length = length
    self.offset = start
    self.systemUseStart = min(length, 33 + nameLength + (nameLength % 2 == 0 ? 1 : 0))
  }
}
