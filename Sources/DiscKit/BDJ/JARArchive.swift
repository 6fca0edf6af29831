/// A JAR (zip) file of a Blu-ray's BD-J applications (`BDMV/JAR/xxxxx.jar`): its central
/// directory, and each member's bytes on demand (stored or deflated, CRC-checked).
///
/// Reads the end-of-central-directory record (and the ZIP64 one when the classic record's fields
/// are saturated), then the central directory. Members are read through their local headers and
/// inflated with a bounded decoder (``ParsingLimits/maxInflatedEntryBytes``). Encrypted members
/// and compression methods other than stored (0) and deflate (8) are reported as
/// ``DiscKitError/Code/unsupported``.
@_spi(Formats)
public struct JARArchive: Sendable {
  /// One member listed by the central directory.
  public struct Entry: Sendable, Hashable {
    /// The member's path inside the archive (`com/studio/Menu.class`).
    public var path: String
    /// 0 stored, 8 deflated.
    public var method: UInt16
    /// General-purpose flags (bit 0: encrypted).
    public var flags: UInt16
    /// The CRC-32 of the uncompressed bytes.
    public var crc32: UInt32
    /// Bytes stored in the archive.
    public var compressedSize: Int64
    /// Bytes after decompression.
    public var uncompressedSize: Int64
    /// The offset of the member's local header in the archive.
    public var localHeaderOffset: Int64
    /// Whether the path names a directory.
    public var isDirectory: Bool { path.hasSuffix("/") }
  }

  /// The archive's bytes.
  public let source: any ByteSource
  /// The members, in central-directory order.
  public let entries: [Entry]
  /// The name used in errors (the JAR's path on the disc).
  public let name: String
  /// The limits the archive was opened with.
  public let limits: ParsingLimits

  /// Opens an archive held in memory.
  public init(bytes: [UInt8], name: String = "JAR", limits: ParsingLimits = .default)
    throws(DiscKitError)
  {
    try self.init(source: MemoryByteSource(bytes), name: name, limits: limits)
  }

  /// Opens an archive read from `source` (only the directory is read now).
  public init(source: any ByteSource, name: String = "JAR", limits: ParsingLimits = .default)
    throws(DiscKitError)
  {
    self.source = source
    self.name = name
    self.limits = limits
    let size = source.size
    let tailLength = Int(min(size, 22 + 0xFFFF))
    let tailStart = size - Int64(tailLength)
    let tail = try source.bytes(at: tailStart, count: tailLength, structure: name)
    var eocd: Int?
    var i = tailLength - 22
    while i >= 0 {
      if tail[i] == 0x50, tail[i + 1] == 0x4B, tail[i + 2] == 5, tail[i + 3] == 6 {
        eocd = i
        break
      }
      i -= 1
    }
    guard let eocd else {
      throw DiscKitError(
        .malformed, name + " end of central directory", at: tailStart,
        "no end-of-central-directory record in the last \(tailLength) bytes")
    }
    var r = BinaryReader(
      tail, baseOffset: tailStart, structure: name + " end of central directory")
    try r.seek(toRelative: eocd + 8)
    _ = try r.readUInt16LE()
    var count = Int64(try r.readUInt16LE())
    var directorySize = Int64(try r.readUInt32LE())
    var directoryOffset = Int64(try r.readUInt32LE())
    if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF,
      eocd >= 20, try r.uint32LE(atRelative: eocd - 20) == 0x0706_4B50
    {
      let zip64Offset = Int64(bitPattern: try r.uint64LE(atRelative: eocd - 12))
      guard zip64Offset >= 0, zip64Offset <= size - 56 else {
        throw r.malformed(
          "ZIP64 end-of-central-directory offset \(zip64Offset) lies outside the archive",
          atRelative: eocd - 12)
      }
      var z = try source.reader(
        at: zip64Offset, count: 56, structure: name + " ZIP64 end of central directory")
      guard try z.readUInt32LE() == 0x0606_4B50 else {
        throw z.malformed("bad ZIP64 end-of-central-directory signature", atRelative: 0)
      }
      try z.seek(toRelative: 32)
      count = Int64(bitPattern: try z.readUInt64LE())
      directorySize = Int64(bitPattern: try z.readUInt64LE())
      directoryOffset = Int64(bitPattern: try z.readUInt64LE())
    }
    guard count >= 0, count <= Int64(limits.maxArchiveEntries) else {
      throw DiscKitError.limit(
        name + " end of central directory", at: tailStart + Int64(eocd) + 10,
        "\(count) entries; the limit is \(limits.maxArchiveEntries)")
    }
    guard directoryOffset >= 0, directorySize >= 0, directorySize <= size,
      directoryOffset <= size - directorySize,
      directorySize <= Int64(limits.maxMetadataFileBytes)
    else {
      throw DiscKitError(
        .malformed, name + " end of central directory", at: tailStart + Int64(eocd) + 12,
        "central directory (\(directorySize) bytes at \(directoryOffset)) lies outside the "
          + "\(size)-byte archive")
    }
    var d = try source.reader(
      at: directoryOffset, count: Int(directorySize), structure: name + " central directory")
    var entries: [Entry] = []
    entries.reserveCapacity(Int(count))
    for _ in 0..<count {
      entries.append(try Self.centralEntry(&d, archiveSize: size))
    }
    self.entries = entries
  }

  private static func centralEntry(_ d: inout BinaryReader, archiveSize: Int64)
    throws(DiscKitError) -> Entry
  {
    let start = d.relativePosition
    guard try d.readUInt32LE() == 0x0201_4B50 else {
      throw d.malformed("bad central directory header signature", atRelative: start)
    }
    try d.skip(4)
    let flags = try d.readUInt16LE()
    let method = try d.readUInt16LE()
    try d.skip(4)
    let crc = try d.readUInt32LE()
    var compressed = Int64(try d.readUInt32LE())
    var uncompressed = Int64(try d.readUInt32LE())
    let nameLength = Int(try d.readUInt16LE())
    let extraLength = Int(try d.readUInt16LE())
    let commentLength = Int(try d.readUInt16LE())
    try d.skip(8)
    var local = Int64(try d.readUInt32LE())
    let path = String(decoding: try d.readBytes(nameLength), as: UTF8.self)
    var extra = try d.slice(extraLength)
    try d.skip(commentLength)
    // ZIP64 extended information: the saturated fields, in this order.
    while extra.remaining >= 4 {
      let id = try extra.readUInt16LE()
      let length = Int(try extra.readUInt16LE())
      var field = try extra.slice(min(length, extra.remaining))
      guard id == 1 else { continue }
      if uncompressed == 0xFFFF_FFFF, field.remaining >= 8 {
        uncompressed = Int64(bitPattern: try field.readUInt64LE())
      }
      if compressed == 0xFFFF_FFFF, field.remaining >= 8 {
        compressed = Int64(bitPattern: try field.readUInt64LE())
      }
      if local == 0xFFFF_FFFF, field.remaining >= 8 {
        local = Int64(bitPattern: try field.readUInt64LE())
      }
    }
    guard compressed >= 0, uncompressed >= 0, local >= 0, local < archiveSize else {
      throw d.malformed(
        "member \(path): sizes \(compressed)/\(uncompressed) or local header offset \(local) "
          + "out of range", atRelative: start)
    }
    return Entry(
      path: path, method: method, flags: flags, crc32: crc, compressedSize: compressed,
      uncompressedSize: uncompressed, localHeaderOffset: local)
  }

  /// The member at `path` (exact match), if listed.
  public func entry(_ path: String) -> Entry? { entries.first { $0.path == path } }

  /// The uncompressed bytes of `entry`, CRC-checked.
  ///
  /// - Parameter limit: the most bytes the member may inflate to (default
  ///   ``ParsingLimits/maxInflatedEntryBytes``).
  /// - Throws: ``DiscKitError/Code/limitExceeded`` for a member larger than the limit (declared
  ///   or actual), ``DiscKitError/Code/checksumMismatch`` when the CRC-32 differs,
  ///   ``DiscKitError/Code/unsupported`` for encryption or another method.
  public func contents(of entry: Entry, limit: Int? = nil) throws(DiscKitError) -> [UInt8] {
    let limit = min(limit ?? limits.maxInflatedEntryBytes, limits.maxInflatedEntryBytes)
    let structure = "\(name)!/\(entry.path)"
    var header = try source.reader(
      at: entry.localHeaderOffset, count: 30, structure: structure + " local header")
    guard try header.readUInt32LE() == 0x0403_4B50 else {
      throw header.malformed("bad local header signature", atRelative: 0)
    }
    try header.seek(toRelative: 26)
    let dataOffset =
      entry.localHeaderOffset + 30 + Int64(try header.readUInt16LE())
      + Int64(try header.readUInt16LE())
    guard entry.flags & 1 == 0 else {
      throw DiscKitError(.unsupported, structure, at: entry.localHeaderOffset, "encrypted member")
    }
    guard entry.uncompressedSize <= Int64(limit) else {
      throw DiscKitError.limit(
        structure, at: entry.localHeaderOffset,
        "declares \(entry.uncompressedSize) bytes; the limit is \(limit)")
    }
    // DEFLATE expands incompressible data by a few bytes per 64 KiB block at most: more stored
    // bytes than that cannot inflate within the limit.
    guard entry.compressedSize <= Int64(limit) + Int64(limit >> 8) + 4096 else {
      throw DiscKitError.limit(
        structure, at: entry.localHeaderOffset,
        "stores \(entry.compressedSize) bytes; more than a member within \(limit) bytes needs")
    }
    guard entry.compressedSize <= source.size - dataOffset else {
      throw DiscKitError.truncated(structure, at: dataOffset, needed: entry.compressedSize)
    }
    let stored = try source.bytes(
      at: dataOffset, count: Int(entry.compressedSize), structure: structure)
    let data: [UInt8]
    switch entry.method {
    case 0:
      data = stored
      guard Int64(data.count) == entry.uncompressedSize else {
        throw DiscKitError.malformed(
          structure, at: dataOffset,
          "stored member of \(data.count) bytes declares \(entry.uncompressedSize)")
      }
    case 8:
      data = try Inflater.inflate(
        stored, baseOffset: dataOffset, expectedSize: Int(entry.uncompressedSize), limit: limit,
        structure: structure)
    default:
      throw DiscKitError(
        .unsupported, structure, at: entry.localHeaderOffset,
        "compression method \(entry.method)")
    }
    let crc = CRC32.checksum(data)
    guard crc == entry.crc32 else {
      throw DiscKitError(
        .checksumMismatch, structure, at: dataOffset,
        "CRC-32 0x\(String(crc, radix: 16)) differs from the declared "
          + "0x\(String(entry.crc32, radix: 16))")
    }
    return data
  }
}

/// CRC-32 (ISO 3309, the zip and PNG polynomial 0xEDB88320, reflected), eight bytes a step
/// ("slicing by 8": table k holds the CRC of a byte followed by k zero bytes).
enum CRC32 {
  private static let tables: [[UInt32]] = {
    var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
    for n in 0..<256 {
      var c = UInt32(n)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
      tables[0][n] = c
    }
    for n in 0..<256 {
      var c = tables[0][n]
      for k in 1..<8 {
        c = tables[0][Int(c & 0xFF)] ^ (c >> 8)
        tables[k][n] = c
      }
    }
    return tables
  }()

  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    let t = tables
    let (t0, t1, t2, t3, t4, t5, t6, t7) = (t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7])
    var c: UInt32 = 0xFFFF_FFFF
    var i = 0
    let n = bytes.count
    while i + 8 <= n {
      let a =
        c
        ^ (UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16
          | UInt32(bytes[i + 3]) << 24)
      let b =
        UInt32(bytes[i + 4]) | UInt32(bytes[i + 5]) << 8 | UInt32(bytes[i + 6]) << 16
        | UInt32(bytes[i + 7]) << 24
      c =
        t7[Int(a & 0xFF)] ^ t6[Int((a >> 8) & 0xFF)] ^ t5[Int((a >> 16) & 0xFF)]
        ^ t4[Int(a >> 24)] ^ t3[Int(b & 0xFF)] ^ t2[Int((b >> 8) & 0xFF)]
        ^ t1[Int((b >> 16) & 0xFF)] ^ t0[Int(b >> 24)]
      i += 8
    }
    while i < n {
      c = t0[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8)
      i += 1
    }
    return c ^ 0xFFFF_FFFF
  }
}
