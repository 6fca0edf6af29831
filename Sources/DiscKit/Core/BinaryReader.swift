/// A bounds-checked cursor over bytes read from a source.
///
/// Every read checks that the bytes exist and throws ``DiscKitError/Code/truncated`` naming the
/// ``structure`` and the absolute offset (``baseOffset`` + position) otherwise. Parsers take one
/// as `init(parsing reader: inout BinaryReader)`.
package struct BinaryReader: Sendable {
  /// The bytes being read.
  package let bytes: [UInt8]
  /// The absolute offset of `bytes[0]` in the image or file the bytes came from.
  package let baseOffset: Int64
  /// The name of the structure being read, used in errors.
  package var structure: String
  /// The cursor: an index into `bytes` within `lowerBound...upperBound`.
  package private(set) var position: Int
  /// The first index this reader may read.
  package let lowerBound: Int
  /// One past the last index this reader may read.
  package let upperBound: Int

  /// Creates a reader over all of `bytes`, which start at absolute offset `baseOffset`.
  package init(_ bytes: [UInt8], baseOffset: Int64 = 0, structure: String) {
    self.bytes = bytes
    self.baseOffset = baseOffset
    self.structure = structure
    self.position = 0
    self.lowerBound = 0
    self.upperBound = bytes.count
  }

  private init(bytes: [UInt8], baseOffset: Int64, structure: String, range: Range<Int>) {
    self.bytes = bytes
    self.baseOffset = baseOffset
    self.structure = structure
    self.position = range.lowerBound
    self.lowerBound = range.lowerBound
    self.upperBound = range.upperBound
  }

  /// Bytes left between the cursor and the end of this reader's window.
  package var remaining: Int { upperBound - position }
  /// The absolute offset of the cursor.
  package var absoluteOffset: Int64 { baseOffset + Int64(position) }
  /// The cursor relative to the start of this reader's window.
  package var relativePosition: Int { position - lowerBound }
  /// The window's length.
  package var count: Int { upperBound - lowerBound }

  /// The absolute offset of a position relative to this reader's window.
  package func absoluteOffset(ofRelative relative: Int) -> Int64 {
    baseOffset + Int64(lowerBound) + Int64(relative)
  }

  /// An error at the cursor (or at a relative position) of this reader's structure.
  package func error(_ code: DiscKitError.Code, _ detail: String, atRelative relative: Int? = nil)
    -> DiscKitError
  {
    let at = relative.map { absoluteOffset(ofRelative: $0) } ?? absoluteOffset
    return DiscKitError(code, structure, at: at, detail)
  }

  /// A malformed-field error at the cursor (or a relative position).
  package func malformed(_ detail: String, atRelative relative: Int? = nil) -> DiscKitError {
    error(.malformed, detail, atRelative: relative)
  }

  @inline(__always)
  private func require(_ n: Int) throws(DiscKitError) {
    guard n >= 0, n <= upperBound - position else {
      throw DiscKitError.truncated(structure, at: absoluteOffset, needed: Int64(n))
    }
  }

  // MARK: Moving the cursor

  /// Moves the cursor to a position relative to the start of this reader's window.
  package mutating func seek(toRelative relative: Int) throws(DiscKitError) {
    guard relative >= 0, relative <= count else {
      throw DiscKitError(
        .malformed, structure, at: absoluteOffset(ofRelative: 0),
        "offset \(relative) lies outside the \(count)-byte structure")
    }
    position = lowerBound + relative
  }

  /// Skips `n` bytes.
  package mutating func skip(_ n: Int) throws(DiscKitError) {
    try require(n)
    position += n
  }

  /// A reader over the next `n` bytes (a length-prefixed section), advancing past them.
  package mutating func slice(_ n: Int, structure: String? = nil) throws(DiscKitError)
    -> BinaryReader
  {
    try require(n)
    let sub = BinaryReader(
      bytes: bytes, baseOffset: baseOffset, structure: structure ?? self.structure,
      range: position..<position + n)
    position += n
    return sub
  }

  /// A reader over `n` bytes at a relative position, without moving the cursor.
  package func slice(atRelative relative: Int, count n: Int, structure: String? = nil)
    throws(DiscKitError) -> BinaryReader
  {
    guard relative >= 0, n >= 0, relative <= count, n <= count - relative else {
      throw DiscKitError(
        .malformed, structure ?? self.structure,
        at: absoluteOffset(ofRelative: max(0, min(relative, count))),
        "\(n) bytes at offset \(relative) lie outside the \(count)-byte structure")
    }
    return BinaryReader(
      bytes: bytes, baseOffset: baseOffset, structure: structure ?? self.structure,
      range: lowerBound + relative..<lowerBound + relative + n)
  }

  // MARK: Reading

  /// Reads `n` bytes.
  package mutating func readBytes(_ n: Int) throws(DiscKitError) -> [UInt8] {
    try require(n)
    defer { position += n }
    return Array(bytes[position..<position + n])
  }

  /// Reads one byte.
  package mutating func readUInt8() throws(DiscKitError) -> UInt8 {
    try require(1)
    defer { position += 1 }
    return bytes[position]
  }

  /// Reads a big-endian 16-bit integer.
  package mutating func readUInt16BE() throws(DiscKitError) -> UInt16 {
    try require(2)
    defer { position += 2 }
    return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
  }

  /// Reads a little-endian 16-bit integer.
  package mutating func readUInt16LE() throws(DiscKitError) -> UInt16 {
    try require(2)
    defer { position += 2 }
    return UInt16(bytes[position + 1]) << 8 | UInt16(bytes[position])
  }

  /// Reads a big-endian 24-bit integer.
  package mutating func readUInt24BE() throws(DiscKitError) -> UInt32 {
    try require(3)
    defer { position += 3 }
    return UInt32(bytes[position]) << 16 | UInt32(bytes[position + 1]) << 8
      | UInt32(bytes[position + 2])
  }

  /// Reads a big-endian 32-bit integer.
  package mutating func readUInt32BE() throws(DiscKitError) -> UInt32 {
    try require(4)
    defer { position += 4 }
    return Self.be32(bytes, position)
  }

  /// Reads `count` big-endian 32-bit integers (a table of sectors) with one bounds check: the
  /// values and errors of `count` ``readUInt32BE()`` calls (short of bytes, the error of the
  /// first integer that does not fit).
  package mutating func readUInt32BEArray(count: Int) throws(DiscKitError) -> [UInt32] {
    guard count > 0 else { return [] }
    let fit = (upperBound - position) / 4
    guard count <= fit else {
      throw DiscKitError.truncated(structure, at: absoluteOffset + Int64(fit * 4), needed: 4)
    }
    let start = position
    position += count * 4
    return bytes.withUnsafeBufferPointer { b in
      [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
        var p = start
        for i in 0..<count {
          out[i] =
            UInt32(b[p]) << 24 | UInt32(b[p + 1]) << 16 | UInt32(b[p + 2]) << 8
            | UInt32(b[p + 3])
          p += 4
        }
        initialized = count
      }
    }
  }

  /// Reads a little-endian 32-bit integer.
  package mutating func readUInt32LE() throws(DiscKitError) -> UInt32 {
    try require(4)
    defer { position += 4 }
    return Self.le32(bytes, position)
  }

  /// Reads a big-endian 64-bit integer.
  package mutating func readUInt64BE() throws(DiscKitError) -> UInt64 {
    try require(8)
    defer { position += 8 }
    return UInt64(Self.be32(bytes, position)) << 32 | UInt64(Self.be32(bytes, position + 4))
  }

  /// Reads a little-endian 64-bit integer.
  package mutating func readUInt64LE() throws(DiscKitError) -> UInt64 {
    try require(8)
    defer { position += 8 }
    return UInt64(Self.le32(bytes, position + 4)) << 32 | UInt64(Self.le32(bytes, position))
  }

  /// Reads `n` bytes as ASCII/Latin-1 text (no validation; for identifiers such as `"MPLS"`).
  package mutating func readASCII(_ n: Int) throws(DiscKitError) -> String {
    let raw = try readBytes(n)
    return String(decoding: raw.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
  }

  // MARK: Random access within the window (no cursor movement)

  /// The byte at a relative position.
  package func uint8(atRelative r: Int) throws(DiscKitError) -> UInt8 {
    try checkRelative(r, 1)
    return bytes[lowerBound + r]
  }

  /// A big-endian 16-bit integer at a relative position.
  package func uint16BE(atRelative r: Int) throws(DiscKitError) -> UInt16 {
    try checkRelative(r, 2)
    let p = lowerBound + r
    return UInt16(bytes[p]) << 8 | UInt16(bytes[p + 1])
  }

  /// A little-endian 16-bit integer at a relative position.
  package func uint16LE(atRelative r: Int) throws(DiscKitError) -> UInt16 {
    try checkRelative(r, 2)
    let p = lowerBound + r
    return UInt16(bytes[p + 1]) << 8 | UInt16(bytes[p])
  }

  /// A big-endian 32-bit integer at a relative position.
  package func uint32BE(atRelative r: Int) throws(DiscKitError) -> UInt32 {
    try checkRelative(r, 4)
    return Self.be32(bytes, lowerBound + r)
  }

  /// A little-endian 32-bit integer at a relative position.
  package func uint32LE(atRelative r: Int) throws(DiscKitError) -> UInt32 {
    try checkRelative(r, 4)
    return Self.le32(bytes, lowerBound + r)
  }

  /// A little-endian 64-bit integer at a relative position.
  package func uint64LE(atRelative r: Int) throws(DiscKitError) -> UInt64 {
    try checkRelative(r, 8)
    let p = lowerBound + r
    return UInt64(Self.le32(bytes, p + 4)) << 32 | UInt64(Self.le32(bytes, p))
  }

  /// `n` bytes at a relative position.
  package func bytes(atRelative r: Int, count n: Int) throws(DiscKitError) -> ArraySlice<UInt8> {
    try checkRelative(r, n)
    return bytes[lowerBound + r..<lowerBound + r + n]
  }

  /// The bytes of this reader's whole window.
  package var window: ArraySlice<UInt8> { bytes[lowerBound..<upperBound] }

  private func checkRelative(_ r: Int, _ n: Int) throws(DiscKitError) {
    guard r >= 0, n >= 0, r <= count, n <= count - r else {
      throw DiscKitError.truncated(
        structure, at: absoluteOffset(ofRelative: max(0, min(r, count))), needed: Int64(n))
    }
  }

  @inline(__always)
  static func be32(_ b: [UInt8], _ p: Int) -> UInt32 {
    UInt32(b[p]) << 24 | UInt32(b[p + 1]) << 16 | UInt32(b[p + 2]) << 8 | UInt32(b[p + 3])
  }

  @inline(__always)
  static func le32(_ b: [UInt8], _ p: Int) -> UInt32 {
    UInt32(b[p + 3]) << 24 | UInt32(b[p + 2]) << 16 | UInt32(b[p + 1]) << 8 | UInt32(b[p])
  }
}

extension ByteSource {
  /// Reads `count` bytes at `offset` into a ``BinaryReader`` for `structure`.
  package func reader(at offset: Int64, count: Int, structure: String) throws(DiscKitError)
    -> BinaryReader
  {
    BinaryReader(
      try bytes(at: offset, count: count, structure: structure), baseOffset: offset,
      structure: structure)
  }
}
