/// One ISO 9660 volume descriptor (ECMA-119 8): a 2048-byte sector from sector 16 on.
///
/// Primary (type 1) and supplementary (type 2) descriptors carry the volume identifiers, the
/// logical block size and the root directory record; the others are only classified.
@_spi(Formats)
public struct ISO9660VolumeDescriptor: Sendable {
  /// The descriptor type.
  public enum Kind: Sendable, Hashable {
    /// Type 0 (El Torito and other boot records).
    case bootRecord
    /// Type 1.
    case primary
    /// Type 2 (Joliet and other supplementary / enhanced descriptors).
    case supplementary
    /// Type 3.
    case partition
    /// Type 255: the end of the set.
    case terminator
    /// Any other type number.
    case other(UInt8)

    init(_ type: UInt8) {
      switch type {
      case 0: self = .bootRecord
      case 1: self = .primary
      case 2: self = .supplementary
      case 3: self = .partition
      case 255: self = .terminator
      default: self = .other(type)
      }
    }
  }

  /// The size of every volume descriptor (one 2048-byte logical sector).
  public static let size = 2048
  /// The standard identifier `CD001`.
  public static let standardIdentifier: [UInt8] = Array("CD001".utf8)

  /// The descriptor type.
  public let kind: Kind
  /// The descriptor version (1; 2 for ISO 9660:1999 enhanced descriptors).
  public let version: UInt8
  /// The absolute offset of the descriptor in the image.
  public let offset: Int64
  /// The Joliet level (1, 2 or 3 from the escape sequences `%/@`, `%/C`, `%/E`) of a
  /// supplementary descriptor, `nil` otherwise.
  public let jolietLevel: Int?
  /// The volume identifier, trailing spaces removed (UCS-2 decoded for Joliet).
  public let volumeIdentifier: String
  /// The system identifier, trailing spaces removed.
  public let systemIdentifier: String
  /// The volume set identifier, trailing spaces removed.
  public let volumeSetIdentifier: String
  /// The publisher identifier, trailing spaces removed.
  public let publisherIdentifier: String
  /// The data preparer identifier, trailing spaces removed.
  public let dataPreparerIdentifier: String
  /// The application identifier, trailing spaces removed.
  public let applicationIdentifier: String
  /// The volume space size in logical blocks.
  public let volumeSpaceSize: UInt32
  /// The logical block size in bytes (512, 1024 or 2048).
  public let logicalBlockSize: Int
  /// The root directory record (primary and supplementary descriptors only).
  public let rootDirectory: ISO9660DirectoryRecord?

  /// Parses one 2048-byte descriptor.
  ///
  /// - Throws: ``DiscKitError/Code/malformed`` when the standard identifier is not `CD001`, or a
  ///   primary/supplementary descriptor has an unsupported logical block size or a bad root
  ///   directory record.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    var sector = try reader.slice(Self.size, structure: "ISO9660 volume descriptor")
    offset = sector.absoluteOffset
    let type = try sector.readUInt8()
    let identifier = try sector.readBytes(5)
    guard identifier == Self.standardIdentifier else {
      throw DiscKitError.malformed(
        "ISO9660 volume descriptor", at: offset + 1,
        "standard identifier is not CD001 (the volume descriptor set ends without a terminator)")
    }
    kind = Kind(type)
    version = try sector.readUInt8()
    guard kind == .primary || kind == .supplementary else {
      jolietLevel = nil
      volumeIdentifier = ""
      systemIdentifier = ""
      volumeSetIdentifier = ""
      publisherIdentifier = ""
      dataPreparerIdentifier = ""
      applicationIdentifier = ""
      volumeSpaceSize = 0
      logicalBlockSize = 2048
      rootDirectory = nil
      return
    }
    let escapes = try sector.bytes(atRelative: 88, count: 32)
    var level: Int? = nil
    if kind == .supplementary, escapes.starts(with: [0x25, 0x2F]) {
      switch escapes.dropFirst(2).first {
      case 0x40: level = 1
      case 0x43: level = 2
      case 0x45: level = 3
      default: level = nil
      }
    }
    jolietLevel = level
    let joliet = level != nil
    func text(_ relative: Int, _ count: Int) throws(DiscKitError) -> String {
      let raw = try sector.bytes(atRelative: relative, count: count)
      return ISO9660Names.trimmed(
        joliet ? ISO9660Names.decodeUCS2(raw) : ISO9660Names.decodeBytes(raw))
    }
    systemIdentifier = try text(8, 32)
    volumeIdentifier = try text(40, 32)
    volumeSpaceSize = try sector.uint32LE(atRelative: 80)
    let blockSize = Int(try sector.uint16LE(atRelative: 128))
    guard blockSize == 512 || blockSize == 1024 || blockSize == 2048 else {
      throw DiscKitError.malformed(
        "ISO9660 volume descriptor", at: offset + 128,
        "logical block size \(blockSize) is not 512, 1024 or 2048")
    }
    logicalBlockSize = blockSize
    volumeSetIdentifier = try text(190, 128)
    publisherIdentifier = try text(318, 128)
    dataPreparerIdentifier = try text(446, 128)
    applicationIdentifier = try text(574, 128)
    var root = try sector.slice(
      atRelative: 156, count: 34, structure: "ISO9660 root directory record")
    let record = try ISO9660DirectoryRecord(parsing: &root)
    guard record.isDirectory else {
      throw DiscKitError.malformed(
        "ISO9660 root directory record", at: offset + 156,
        "the root directory record is not flagged as a directory")
    }
    rootDirectory = record
  }
}

/// Name decoding shared by the ISO9660 reader.
enum ISO9660Names {
  /// UTF-8 when the bytes are valid UTF-8, Latin-1 otherwise.
  static func decodeBytes<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    var scalars = String.UnicodeScalarView()
    for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
    return String(scalars)
  }

  /// Big-endian UCS-2 / UTF-16 (Joliet); an odd trailing byte is dropped.
  static func decodeUCS2<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2)
    var high: UInt8? = nil
    for byte in bytes {
      if let h = high {
        units.append(UInt16(h) << 8 | UInt16(byte))
        high = nil
      } else {
        high = byte
      }
    }
    return String(decoding: units, as: UTF16.self)
  }

  /// Removes trailing spaces and NULs (padding of descriptor text fields).
  static func trimmed(_ text: String) -> String {
    var result = Substring(text)
    while let last = result.last, last == " " || last == "\0" { result = result.dropLast() }
    return String(result)
  }

  /// Removes a `;N` version suffix.
  static func strippingVersion(_ name: String) -> String {
    guard let semicolon = name.lastIndex(of: ";") else { return name }
    let version = name[name.index(after: semicolon)...]
    guard version.allSatisfy({ $0.isASCII && $0.isNumber }) else { return name }
    return String(name[..<semicolon])
  }

  /// Makes a name usable as a path component: `/` and NUL become `_`; an empty name, `.` and
  /// `..` get a `_` prefix.
  static func sanitized(_ name: String) -> String {
    var result = name
    if result.contains(where: { $0 == "/" || $0 == "\0" }) {
      result = String(result.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
    }
    if result.isEmpty || result == "." || result == ".." { result = "_" + result }
    return result
  }
}
