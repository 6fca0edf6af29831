/// One allocation descriptor of a file (short, long or extended, ECMA-167 4/14.14).
struct UDFExtent: Sendable, Hashable {
  /// Extent type: 0 recorded, 1 allocated but not recorded, 2 not allocated, 3 next extent of ADs.
  var type: UInt8
  /// Length in bytes.
  var length: UInt32
  /// First logical block in `partition`.
  var block: UInt32
  /// The partition reference number (index into the logical volume's partition maps).
  var partition: UInt16
  /// The absolute byte offset of the descriptor itself (for errors).
  var descriptorOffset: Int64

  /// Whether the extent holds recorded data (others read as zeros).
  var isRecorded: Bool { type == 0 }
}

/// The allocation descriptor form of an ICB (flags bits 0-2).
enum UDFAllocationForm: Sendable {
  case short, long, extended, embedded

  /// The size of one descriptor.
  var size: Int {
    switch self {
    case .short: 8
    case .long: 16
    case .extended: 20
    case .embedded: 1
    }
  }
}

/// A list of allocation descriptors, ending at a zero length or at a pointer to the next
/// Allocation Extent Descriptor.
struct UDFAllocationList: Sendable {
  var extents: [UDFExtent] = []
  /// The next Allocation Extent Descriptor (an extent of type 3), if the list continues.
  var next: UDFExtent?

  /// An empty list.
  init() {}

  /// Parses the descriptors in `reader`'s window. Short descriptors lie in `partition`.
  init(parsing reader: inout BinaryReader, form: UDFAllocationForm, partition: UInt16)
    throws(DiscKitError)
  {
    while reader.remaining >= form.size {
      let at = reader.absoluteOffset
      let raw = try reader.readUInt32LE()
      var block: UInt32 = 0
      var part = partition
      switch form {
      case .short:
        block = try reader.readUInt32LE()
      case .long:
        block = try reader.readUInt32LE()
        part = try reader.readUInt16LE()
        try reader.skip(6)
      case .extended:
        try reader.skip(8)  // recorded length, information length
        block = try reader.readUInt32LE()
        part = try reader.readUInt16LE()
        try reader.skip(2)
      case .embedded:
        return
      }
      let length = raw & 0x3FFF_FFFF
      if length == 0 { return }
      let extent = UDFExtent(
        type: UInt8(raw >> 30), length: length, block: block, partition: part, descriptorOffset: at)
      if extent.type == 3 {
        next = extent
        return
      }
      extents.append(extent)
    }
  }
}

/// A File Entry (tag 261, ECMA-167 4/14.9) or Extended File Entry (tag 266, 4/14.17).
struct UDFFileEntry: Sendable {
  /// The ICB file type (4 directory, 5 regular file, 250/251 metadata files, ...).
  var fileType: UInt8
  /// The file size in bytes (64-bit information length).
  var informationLength: UInt64
  /// How the data is allocated.
  var form: UDFAllocationForm
  /// The allocation descriptors recorded in the entry itself (before any AED).
  var allocation: UDFAllocationList
  /// The data recorded in the entry itself, for ``UDFAllocationForm/embedded``.
  var embedded: [UInt8]
  /// The absolute offset of the entry.
  var offset: Int64

  /// Parses a verified (extended) file entry. Short descriptors lie in `partition`.
  init(parsing reader: inout BinaryReader, identifier: UInt16, partition: UInt16)
    throws(DiscKitError)
  {
    offset = reader.absoluteOffset(ofRelative: 0)
    let strategy = try reader.uint16LE(atRelative: 20)
    guard strategy == 4 else {
      throw DiscKitError(
        .unsupported, reader.structure, at: reader.absoluteOffset(ofRelative: 20),
        "ICB strategy type \(strategy) (only strategy 4 is supported)")
    }
    fileType = try reader.uint8(atRelative: 27)
    let flags = try reader.uint16LE(atRelative: 34)
    informationLength = try reader.uint64LE(atRelative: 56)
    let extended = identifier == UDFTagIdentifier.extendedFileEntry
    let lengthsAt = extended ? 208 : 168
    let header = extended ? 216 : 176
    let extendedAttributes = Int(try reader.uint32LE(atRelative: lengthsAt))
    let descriptors = Int(try reader.uint32LE(atRelative: lengthsAt + 4))
    guard extendedAttributes <= reader.count - header else {
      throw reader.malformed(
        "extended attribute length \(extendedAttributes) runs past the entry", atRelative: lengthsAt
      )
    }
    guard descriptors <= reader.count - header - extendedAttributes else {
      throw reader.malformed(
        "allocation descriptor length \(descriptors) runs past the entry", atRelative: lengthsAt + 4
      )
    }
    var ads = try reader.slice(atRelative: header + extendedAttributes, count: descriptors)
    switch flags & 7 {
    case 0: form = .short
    case 1: form = .long
    case 2: form = .extended
    case 3: form = .embedded
    default:
      throw reader.malformed(
        "allocation descriptor type \(flags & 7) is not defined", atRelative: 34)
    }
    if form == .embedded {
      guard informationLength <= UInt64(descriptors) else {
        throw reader.malformed(
          "embedded data of \(informationLength) bytes is longer than the \(descriptors) bytes recorded",
          atRelative: 56)
      }
      embedded = Array(
        try reader.bytes(atRelative: header + extendedAttributes, count: Int(informationLength)))
      allocation = UDFAllocationList()
    } else {
      guard descriptors % form.size == 0 else {
        throw reader.malformed(
          "allocation descriptor length \(descriptors) is not a multiple of \(form.size)",
          atRelative: lengthsAt + 4)
      }
      embedded = []
      allocation = try UDFAllocationList(parsing: &ads, form: form, partition: partition)
    }
  }

  /// Whether the entry describes a directory.
  var isDirectory: Bool { fileType == 4 }
}

/// A File Identifier Descriptor (tag 257, ECMA-167 4/14.4): one directory entry.
struct UDFFileIdentifier: Sendable {
  /// File characteristics: 0x02 directory, 0x04 deleted, 0x08 parent.
  var characteristics: UInt8
  /// The entry's ICB.
  var icb: UDFLongAD
  /// The raw CS0 identifier.
  var identifier: [UInt8]
  /// The descriptor's total length, padded to 4 bytes.
  var size: Int

  /// The fixed part (38 bytes) of the FID at the start of `reader`; the caller verifies the tag
  /// over ``size`` bytes.
  init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    characteristics = try reader.uint8(atRelative: 18)
    let identifierLength = Int(try reader.uint8(atRelative: 19))
    var icbReader = try reader.slice(atRelative: 20, count: 16)
    icb = try UDFLongAD(parsing: &icbReader)
    let implementationLength = Int(try reader.uint16LE(atRelative: 36))
    let unpadded = 38 + implementationLength + identifierLength
    size = (unpadded + 3) & ~3
    guard size <= reader.count else {
      throw DiscKitError.truncated(
        reader.structure, at: reader.absoluteOffset(ofRelative: 0), needed: Int64(size))
    }
    identifier = Array(
      try reader.bytes(atRelative: 38 + implementationLength, count: identifierLength))
  }

  var isDirectory: Bool { characteristics & 0x02 != 0 }
  var isDeleted: Bool { characteristics & 0x04 != 0 }
  var isParent: Bool { characteristics & 0x08 != 0 }
}
