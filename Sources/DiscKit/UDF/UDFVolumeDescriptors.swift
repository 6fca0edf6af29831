/// An `extent_ad` (ECMA-167 3/7.1): a run of sectors outside any partition.
struct UDFExtentAD: Sendable, Hashable {
  /// Length in bytes.
  var length: UInt32
  /// First sector.
  var location: UInt32

  init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    length = try reader.readUInt32LE()
    location = try reader.readUInt32LE()
  }
}

/// The Anchor Volume Descriptor Pointer (tag 2, ECMA-167 3/10.2).
struct UDFAnchor: Sendable {
  var mainSequence: UDFExtentAD
  var reserveSequence: UDFExtentAD

  /// Parses an AVDP whose tag was verified.
  init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    try reader.seek(toRelative: 16)
    mainSequence = try UDFExtentAD(parsing: &reader)
    reserveSequence = try UDFExtentAD(parsing: &reader)
  }
}

/// An entity identifier `regid` (ECMA-167 1/7.4): flags, a 23-byte identifier, an 8-byte suffix.
struct UDFEntityIdentifier: Sendable, Hashable {
  var identifier: [UInt8]
  var suffix: [UInt8]

  init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    try reader.skip(1)
    identifier = try reader.readBytes(23)
    suffix = try reader.readBytes(8)
  }

  /// The identifier as text, without trailing NULs.
  var text: String {
    String(decoding: identifier.prefix { $0 != 0 }.map { $0 < 0x80 ? $0 : 0x3F }, as: UTF8.self)
  }

  /// The UDF revision of a domain identifier suffix (`0x0250`), or `nil` when absent.
  var udfRevision: UInt16? {
    guard suffix.count >= 2 else { return nil }
    let value = UInt16(suffix[1]) << 8 | UInt16(suffix[0])
    return value == 0 ? nil : value
  }
}

/// The Primary Volume Descriptor (tag 1, ECMA-167 3/10.1): only what DiscKit uses.
struct UDFPrimaryVolumeDescriptor: Sendable {
  var sequenceNumber: UInt32
  var volumeIdentifier: String

  init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    sequenceNumber = try reader.uint32LE(atRelative: 16)
    volumeIdentifier = UDFCharacters.dstring(try reader.bytes(atRelative: 24, count: 32))
  }
}

/// A Partition Descriptor (tag 5, ECMA-167 3/10.5).
struct UDFPartitionDescriptor: Sendable {
  var sequenceNumber: UInt32
  var number: UInt16
  /// The first sector of the partition.
  var start: UInt32
  /// The partition length in sectors.
  var length: UInt32

  init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    sequenceNumber = try reader.uint32LE(atRelative: 16)
    number = try reader.uint16LE(atRelative: 22)
    start = try reader.uint32LE(atRelative: 188)
    length = try reader.uint32LE(atRelative: 192)
  }
}

/// A `long_ad` (ECMA-167 4/14.14.2) used outside file entries: FSD location, ICBs.
struct UDFLongAD: Sendable, Hashable {
  /// Length in bytes (30 bits) and extent type (2 bits).
  var rawLength: UInt32
  var block: UInt32
  var partition: UInt16

  init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    rawLength = try reader.readUInt32LE()
    block = try reader.readUInt32LE()
    partition = try reader.readUInt16LE()
    try reader.skip(6)
  }

  init(rawLength: UInt32, block: UInt32, partition: UInt16) {
    self.rawLength = rawLength
    self.block = block
    self.partition = partition
  }

  var length: UInt32 { rawLength & 0x3FFF_FFFF }
}

/// One entry of the Logical Volume Descriptor's partition map table (ECMA-167 3/10.7, UDF 2.2.8-2.2.10).
enum UDFPartitionMapEntry: Sendable {
  /// Type 1: a physical partition, by partition number.
  case physical(partitionNumber: UInt16)
  /// Type 2 `*UDF Metadata Partition` (UDF 2.50+).
  case metadata(partitionNumber: UInt16, metadataFile: UInt32, mirrorFile: UInt32, duplicated: Bool)
  /// Type 2 `*UDF Sparable Partition` (UDF 1.50+, rewritable media).
  case sparable(partitionNumber: UInt16, packetLength: UInt16, tables: [UInt32], tableSize: UInt32)
  /// Type 2 `*UDF Virtual Partition` (UDF 1.50+, write-once media with a VAT).
  case virtual(partitionNumber: UInt16)
  /// Any other type 2 map.
  case other(identifier: String)
}

/// The Logical Volume Descriptor (tag 6, ECMA-167 3/10.6).
struct UDFLogicalVolumeDescriptor: Sendable {
  /// The absolute offset of the descriptor.
  var offset: Int64
  var sequenceNumber: UInt32
  var identifier: String
  var blockSize: UInt32
  var domain: UDFEntityIdentifier
  /// Where the File Set Descriptor is (logical volume contents use).
  var fileSetLocation: UDFLongAD
  var maps: [UDFPartitionMapEntry]

  init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    offset = reader.absoluteOffset(ofRelative: 0)
    sequenceNumber = try reader.uint32LE(atRelative: 16)
    identifier = UDFCharacters.dstring(try reader.bytes(atRelative: 84, count: 128))
    blockSize = try reader.uint32LE(atRelative: 212)
    var domainReader = try reader.slice(atRelative: 216, count: 32)
    domain = try UDFEntityIdentifier(parsing: &domainReader)
    var fsdReader = try reader.slice(atRelative: 248, count: 16)
    fileSetLocation = try UDFLongAD(parsing: &fsdReader)
    let tableLength = Int(try reader.uint32LE(atRelative: 264))
    let count = Int(try reader.uint32LE(atRelative: 268))
    guard tableLength <= reader.count - 440 else {
      throw reader.malformed(
        "partition map table of \(tableLength) bytes runs past the descriptor", atRelative: 264)
    }
    guard count <= tableLength / 6 else {
      throw reader.malformed(
        "\(count) partition maps cannot fit in \(tableLength) bytes", atRelative: 268)
    }
    var table = try reader.slice(atRelative: 440, count: tableLength)
    var maps: [UDFPartitionMapEntry] = []
    for _ in 0..<count {
      let type = try table.readUInt8()
      let length = Int(try table.readUInt8())
      guard length >= 2 else { throw table.malformed("partition map of length \(length)") }
      var body = try table.slice(length - 2)
      switch (type, length) {
      case (1, 6):
        try body.skip(2)
        maps.append(.physical(partitionNumber: try body.readUInt16LE()))
      case (2, 64):
        try body.skip(2)
        let id = try UDFEntityIdentifier(parsing: &body).text
        try body.skip(2)
        let number = try body.readUInt16LE()
        switch id {
        case "*UDF Metadata Partition":
          let file = try body.readUInt32LE()
          let mirror = try body.readUInt32LE()
          try body.seek(toRelative: 56)
          let flags = try body.readUInt8()
          maps.append(
            .metadata(
              partitionNumber: number, metadataFile: file, mirrorFile: mirror,
              duplicated: flags & 1 != 0))
        case "*UDF Sparable Partition":
          let packet = try body.readUInt16LE()
          let tableCount = Int(try body.readUInt8())
          try body.skip(1)
          let size = try body.readUInt32LE()
          guard tableCount <= 4 else {
            throw body.malformed("\(tableCount) sparing tables (at most 4)")
          }
          var tables: [UInt32] = []
          for _ in 0..<tableCount { tables.append(try body.readUInt32LE()) }
          maps.append(
            .sparable(
              partitionNumber: number, packetLength: packet, tables: tables, tableSize: size))
        case "*UDF Virtual Partition":
          maps.append(.virtual(partitionNumber: number))
        default:
          maps.append(.other(identifier: id))
        }
      default:
        throw table.malformed(
          "partition map of type \(type) and length \(length) is not a valid type 1 or type 2 map")
      }
    }
    self.maps = maps
  }
}
