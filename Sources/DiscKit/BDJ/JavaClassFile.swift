/// The strings of a Java class file's constant pool (JVM specification, chapter 4.4): enough to
/// read the playlist names a BD-J menu program carries, without running it.
///
/// Every constant tag is understood (Long and Double take two slots); `CONSTANT_Utf8` text is
/// decoded from Java's modified UTF-8 (NUL as `C0 80`, supplementary characters as surrogate
/// pairs), with U+FFFD for invalid sequences. Nothing after the constant pool but the class's
/// own name is read.
@_spi(Formats)
public struct JavaClassFile: Sendable, Hashable {
  /// The class file version (major, minor).
  public var majorVersion: UInt16
  /// The minor version.
  public var minorVersion: UInt16
  /// The class's binary name (`com/studio/Menu`), when the header after the pool is present.
  public var className: String?
  /// Every `CONSTANT_Utf8` text, in pool order (names, descriptors and literals alike).
  public var utf8: [String]
  /// The texts that `CONSTANT_String` entries refer to: the program's string literals.
  public var stringLiterals: [String]
  /// `CONSTANT_Integer` values.
  public var integers: [Int32]

  /// Parses a class file.
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` for a wrong magic number, an unknown constant tag
  ///   or a reference outside the pool; ``DiscKitError/Code/truncated`` when the pool runs past
  ///   the end.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    guard try reader.readUInt32BE() == 0xCAFE_BABE else {
      throw reader.malformed("not a class file (magic is not CAFEBABE)", atRelative: 0)
    }
    minorVersion = try reader.readUInt16BE()
    majorVersion = try reader.readUInt16BE()
    let count = Int(try reader.readUInt16BE())
    var texts = [String?](repeating: nil, count: max(count, 1))
    var stringRefs: [(index: Int, at: Int)] = []
    var classRefs: [Int: Int] = [:]
    var integers: [Int32] = []
    var utf8: [String] = []
    var slot = 1
    while slot < count {
      let at = reader.relativePosition
      let tag = try reader.readUInt8()
      switch tag {
      case 1:
        let length = Int(try reader.readUInt16BE())
        let text = Self.decodeModifiedUTF8(
          try reader.bytes(atRelative: reader.relativePosition, count: length))
        try reader.skip(length)
        texts[slot] = text
        utf8.append(text)
      case 3: integers.append(Int32(bitPattern: try reader.readUInt32BE()))
      case 4: try reader.skip(4)
      case 5, 6:
        try reader.skip(8)
        slot += 1
      case 7:
        classRefs[slot] = Int(try reader.readUInt16BE())
      case 8: stringRefs.append((Int(try reader.readUInt16BE()), at))
      case 16, 19, 20: try reader.skip(2)
      case 15: try reader.skip(3)
      case 9, 10, 11, 12, 17, 18: try reader.skip(4)
      default:
        throw reader.malformed("constant pool entry \(slot) has unknown tag \(tag)", atRelative: at)
      }
      slot += 1
    }
    var literals: [String] = []
    for ref in stringRefs {
      guard ref.index > 0, ref.index < count, let text = texts[ref.index] else {
        throw reader.malformed(
          "CONSTANT_String refers to entry \(ref.index), which is not a CONSTANT_Utf8",
          atRelative: ref.at)
      }
      literals.append(text)
    }
    stringLiterals = literals
    self.utf8 = utf8
    self.integers = integers
    className = nil
    if reader.remaining >= 4 {
      try reader.skip(2)
      let this = Int(try reader.readUInt16BE())
      if let name = classRefs[this], name < count { className = texts[name] }
    }
  }

  /// Parses a class file from its bytes.
  public init(bytes: [UInt8], name: String = "class file") throws(DiscKitError) {
    var reader = BinaryReader(bytes, structure: name)
    try self.init(parsing: &reader)
  }

  /// Decodes Java's modified UTF-8 (JVM specification 4.4.7).
  static func decodeModifiedUTF8(_ bytes: ArraySlice<UInt8>) -> String {
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count)
    var i = bytes.startIndex
    let end = bytes.endIndex
    while i < end {
      let a = bytes[i]
      if a & 0x80 == 0, a != 0 {
        units.append(UInt16(a))
        i += 1
      } else if a & 0xE0 == 0xC0, i + 1 < end, bytes[i + 1] & 0xC0 == 0x80 {
        units.append(UInt16(a & 0x1F) << 6 | UInt16(bytes[i + 1] & 0x3F))
        i += 2
      } else if a & 0xF0 == 0xE0, i + 2 < end, bytes[i + 1] & 0xC0 == 0x80,
        bytes[i + 2] & 0xC0 == 0x80
      {
        units.append(
          UInt16(a & 0x0F) << 12 | UInt16(bytes[i + 1] & 0x3F) << 6 | UInt16(bytes[i + 2] & 0x3F))
        i += 3
      } else {
        units.append(0xFFFD)
        i += 1
      }
    }
    // Surrogate pairs become one scalar; a lone surrogate becomes U+FFFD.
    return String(decoding: units, as: UTF16.self)
  }
}
