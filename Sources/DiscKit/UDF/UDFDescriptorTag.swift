/// The 16-byte tag that starts every UDF descriptor (ECMA-167 3/7.2 and 4/7.2).
///
/// DiscKit verifies all three integrity fields of a tag: the 8-bit tag checksum, the tag
/// location (the sector or logical block the descriptor claims to live in) and the 16-bit CRC
/// over the descriptor body. A descriptor that fails any check is "bad": the volume reader then
/// uses the redundant copy when the format has one (the next anchor, the reserve volume
/// descriptor sequence, the metadata mirror file) and otherwise throws.
struct UDFDescriptorTag: Sendable, Hashable {
  /// The tag identifier (``UDFTagIdentifier``).
  var identifier: UInt16
  /// The descriptor version (2 for NSR02, 3 for NSR03).
  var version: UInt16
  /// The tag checksum as recorded.
  var checksum: UInt8
  /// The tag serial number.
  var serialNumber: UInt16
  /// The descriptor CRC as recorded.
  var crc: UInt16
  /// The number of bytes after the tag that the CRC covers.
  var crcLength: UInt16
  /// The sector (volume structures) or partition logical block (file structures) of the descriptor.
  var location: UInt32

  /// Parses the 16 bytes of a tag without checking it.
  init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    identifier = try reader.readUInt16LE()
    version = try reader.readUInt16LE()
    checksum = try reader.readUInt8()
    try reader.skip(1)
    serialNumber = try reader.readUInt16LE()
    crc = try reader.readUInt16LE()
    crcLength = try reader.readUInt16LE()
    location = try reader.readUInt32LE()
  }

  /// Reads and verifies the tag at the start of `descriptor` (whose window is the whole
  /// descriptor as read from the image).
  ///
  /// - Parameters:
  ///   - expected: the tag identifiers allowed here.
  ///   - location: the location the tag must record, or `nil` not to check it.
  /// - Throws: ``DiscKitError/Code/checksumMismatch`` for a bad tag checksum or CRC,
  ///   ``DiscKitError/Code/malformed`` for an unexpected identifier, a wrong location or a CRC
  ///   length past the descriptor.
  static func verified(_ descriptor: BinaryReader, expected: [UInt16], location: UInt32?)
    throws(DiscKitError) -> UDFDescriptorTag
  {
    var reader = descriptor
    try reader.seek(toRelative: 0)
    let head = try reader.bytes(atRelative: 0, count: 16)
    var sum: UInt8 = 0
    for (index, byte) in head.enumerated() where index != 4 { sum &+= byte }
    let tag = try UDFDescriptorTag(parsing: &reader)
    guard sum == tag.checksum else {
      throw descriptor.error(
        .checksumMismatch,
        "descriptor tag checksum mismatch (declared 0x\(String(tag.checksum, radix: 16)), computed 0x\(String(sum, radix: 16)))",
        atRelative: 0)
    }
    guard expected.contains(tag.identifier) else {
      let list = expected.map(String.init).joined(separator: " or ")
      throw descriptor.malformed(
        "expected descriptor tag \(list), found tag \(tag.identifier)", atRelative: 0)
    }
    if let location, tag.location != location {
      throw descriptor.malformed(
        "tag records location \(tag.location), but it was read from \(location)", atRelative: 12)
    }
    let crcBytes = Int(tag.crcLength)
    guard crcBytes <= descriptor.count - 16 else {
      throw descriptor.malformed(
        "descriptor CRC length \(crcBytes) runs past the \(descriptor.count)-byte descriptor",
        atRelative: 10)
    }
    let computed = UDFCRC.compute(try descriptor.bytes(atRelative: 16, count: crcBytes))
    guard computed == tag.crc else {
      throw descriptor.error(
        .checksumMismatch,
        "descriptor CRC mismatch (declared 0x\(String(tag.crc, radix: 16)), computed 0x\(String(computed, radix: 16)))",
        atRelative: 8)
    }
    return tag
  }
}

/// Tag identifiers of the UDF descriptors DiscKit reads (ECMA-167 3/7.2.1 and 4/7.2.1).
enum UDFTagIdentifier {
  static let primaryVolume: UInt16 = 1
  static let anchor: UInt16 = 2
  static let volumePointer: UInt16 = 3
  static let implementationUse: UInt16 = 4
  static let partition: UInt16 = 5
  static let logicalVolume: UInt16 = 6
  static let unallocatedSpace: UInt16 = 7
  static let terminating: UInt16 = 8
  static let logicalVolumeIntegrity: UInt16 = 9
  static let fileSet: UInt16 = 256
  static let fileIdentifier: UInt16 = 257
  static let allocationExtent: UInt16 = 258
  static let fileEntry: UInt16 = 261
  static let extendedFileEntry: UInt16 = 266
}

/// The descriptor CRC: CRC-16/CCITT (polynomial 0x1021, initial value 0, not reflected), as
/// ECMA-167 1/7.2.6 defines it. Used by the reader and by DiscKitAuthoring's writer.
@_spi(Formats)
public enum UDFCRC {
  static let table: [UInt16] = (0..<256).map { index -> UInt16 in
    var crc = UInt16(index) << 8
    for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
    return crc
  }

  /// The CRC of `bytes`.
  public static func compute<C: Collection>(_ bytes: C) -> UInt16 where C.Element == UInt8 {
    var crc: UInt16 = 0
    table.withUnsafeBufferPointer { t in
      for byte in bytes { crc = (crc << 8) ^ t[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)] }
    }
    return crc
  }
}
