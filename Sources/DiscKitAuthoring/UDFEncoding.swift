@_spi(Formats) import DiscKit

/// Low-level encoders for the ECMA-167 / OSTA UDF on-disc structures the writer records.
///
/// Everything is little-endian. Descriptors are built in a ``DescriptorBuffer`` and finished with
/// ``DescriptorBuffer/finishTag(identifier:location:length:)``, which fills in the descriptor CRC
/// (CRC-ITU-T, ECMA-167 3/7.2.6) and the tag checksum (3/7.2.3).
enum UDFConstants {
  /// The logical block and sector size (2048 bytes for optical media).
  static let blockSize = 2048
  /// The largest extent length an allocation descriptor may record that is a multiple of the
  /// block size: the length field has 30 bits (ECMA-167 4/14.14.1.1), so `2^30 - 2048`.
  static let maxExtentBytes: Int64 = (1 << 30) - 2048
  /// Blocks in one maximal extent.
  static let maxExtentBlocks: Int64 = maxExtentBytes / 2048
  /// Descriptor version for NSR03 (UDF 2.00 and later).
  static let descriptorVersion: UInt16 = 3
  /// Tag serial number recorded in every descriptor.
  static let tagSerialNumber: UInt16 = 1
}

/// Tag identifiers (ECMA-167 3/7.2.1 and 4/7.2.1).
enum UDFTag: UInt16 {
  case primaryVolume = 1
  case anchor = 2
  case implementationUseVolume = 4
  case partition = 5
  case logicalVolume = 6
  case unallocatedSpace = 7
  case terminating = 8
  case logicalVolumeIntegrity = 9
  case fileSet = 256
  case fileIdentifier = 257
  case allocationExtent = 258
  case extendedFileEntry = 266
}

/// A fixed-size byte buffer with little-endian field writers.
struct DescriptorBuffer {
  var bytes: [UInt8]

  init(size: Int = UDFConstants.blockSize) {
    bytes = [UInt8](repeating: 0, count: size)
  }

  mutating func u8(_ offset: Int, _ value: UInt8) { bytes[offset] = value }

  mutating func u16(_ offset: Int, _ value: UInt16) {
    bytes[offset] = UInt8(truncatingIfNeeded: value)
    bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
  }

  mutating func u32(_ offset: Int, _ value: UInt32) {
    for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
  }

  mutating func u64(_ offset: Int, _ value: UInt64) {
    for i in 0..<8 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
  }

  mutating func raw(_ offset: Int, _ value: [UInt8]) {
    bytes.replaceSubrange(offset..<(offset + value.count), with: value)
  }

  /// An ASCII string, unpadded (the rest of the field stays zero).
  mutating func ascii(_ offset: Int, _ value: String) {
    raw(offset, Array(value.utf8))
  }

  /// `extent_ad` (ECMA-167 3/7.1): length, location.
  mutating func extentAD(_ offset: Int, length: UInt32, location: UInt32) {
    u32(offset, length)
    u32(offset + 4, location)
  }

  /// `short_ad` (4/14.14.1): extent length with the type in the top two bits, position.
  mutating func shortAD(_ offset: Int, length: UInt32, type: UInt32 = 0, position: UInt32) {
    u32(offset, (type << 30) | length)
    u32(offset + 4, position)
  }

  /// `long_ad` (4/14.14.2) with an ADImpUse holding a UDF unique ID (UDF 2.3.4.3, 2.3.10.1).
  mutating func longAD(
    _ offset: Int, length: UInt32, type: UInt32 = 0, block: UInt32, partition: UInt16,
    uniqueID: UInt32 = 0
  ) {
    u32(offset, (type << 30) | length)
    u32(offset + 4, block)
    u16(offset + 8, partition)
    u16(offset + 10, 0)
    u32(offset + 12, uniqueID)
  }

  /// A `charspec` (1/7.2.1) naming CS0 "OSTA Compressed Unicode" (UDF 2.1.2).
  mutating func osta(_ offset: Int) {
    u8(offset, 0)
    ascii(offset + 1, "OSTA Compressed Unicode")
  }

  mutating func entity(_ offset: Int, _ entity: EntityIdentifier) {
    raw(offset, entity.bytes)
  }

  mutating func timestamp(_ offset: Int, _ time: UDFTimestamp) {
    raw(offset, time.bytes)
  }

  /// A `dstring` field of `size` bytes holding `encoded` (already CS0) with its length in the
  /// last byte (1/7.2.12). An empty string leaves the field all zero.
  mutating func dstring(_ offset: Int, size: Int, _ encoded: [UInt8]) {
    guard !encoded.isEmpty else { return }
    raw(offset, encoded)
    u8(offset + size - 1, UInt8(truncatingIfNeeded: encoded.count))
  }

  /// Fills in the 16-byte descriptor tag at offset 0 for a descriptor of `length` bytes
  /// recorded at logical block `location`: CRC over bytes 16..<length, then the checksum.
  mutating func finishTag(identifier: UDFTag, location: UInt32, length: Int) {
    u16(0, identifier.rawValue)
    u16(2, UDFConstants.descriptorVersion)
    u8(4, 0)
    u8(5, 0)
    u16(6, UDFConstants.tagSerialNumber)
    let crcLength = length - 16
    let crc = bytes.withUnsafeBytes { raw in
      UDFCRC.compute(UnsafeRawBufferPointer(rebasing: raw[16..<length]))
    }
    u16(8, crc)
    u16(10, UInt16(truncatingIfNeeded: crcLength))
    u32(12, location)
    var sum: UInt8 = 0
    for i in 0..<16 where i != 4 { sum = sum &+ bytes[i] }
    u8(4, sum)
  }
}

/// A `regid` entity identifier (ECMA-167 1/7.4, UDF 2.1.5).
struct EntityIdentifier {
  var bytes: [UInt8]

  /// The identifier with an 8-byte suffix.
  init(_ identifier: String, suffix: [UInt8]) {
    bytes = [UInt8](repeating: 0, count: 32)
    let id = Array(identifier.utf8.prefix(23))
    bytes.replaceSubrange(1..<(1 + id.count), with: id)
    let tail = Array(suffix.prefix(8))
    bytes.replaceSubrange(24..<(24 + tail.count), with: tail)
  }

  /// A domain identifier suffix (UDF 2.1.5.3): revision, domain flags (none).
  static func domain(_ identifier: String, revision: UInt16) -> EntityIdentifier {
    EntityIdentifier(
      identifier, suffix: [UInt8(truncatingIfNeeded: revision), UInt8(revision >> 8), 0])
  }

  /// A UDF identifier suffix (UDF 2.1.5.3): revision, OS class 4 (UNIX), OS identifier 5 (Linux).
  static func udf(_ identifier: String, revision: UInt16) -> EntityIdentifier {
    EntityIdentifier(
      identifier, suffix: [UInt8(truncatingIfNeeded: revision), UInt8(revision >> 8), 4, 5])
  }

  /// An implementation identifier suffix (UDF 2.1.5.3): OS class, OS identifier.
  static let implementation = EntityIdentifier("*DiscKit", suffix: [4, 5])

  /// An application identifier (PVD).
  static let application = EntityIdentifier("*DiscKit", suffix: [])
}

/// A `timestamp` (ECMA-167 1/7.3) in UTC.
struct UDFTimestamp: Sendable, Hashable {
  var seconds: Int64
  var nanoseconds: Int64

  init(seconds: Int64, nanoseconds: Int64 = 0) {
    self.seconds = seconds
    self.nanoseconds = min(max(nanoseconds, 0), 999_999_999)
  }

  /// The 12 recorded bytes: type 1 (local time) with offset 0, year, month, day, hour, minute,
  /// second, centiseconds, hundreds of microseconds, microseconds.
  var bytes: [UInt8] {
    // Days since 1970-01-01 to a civil date (proleptic Gregorian calendar).
    let clamped = min(max(seconds, -62_135_596_800), 253_402_300_799)  // years 1 ... 9999
    var days = clamped / 86_400
    var rest = clamped % 86_400
    if rest < 0 {
      rest += 86_400
      days -= 1
    }
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    let micros = nanoseconds / 1000
    var out = [UInt8](repeating: 0, count: 12)
    let typeAndZone: UInt16 = 0x1000  // type 1, offset 0 minutes
    out[0] = UInt8(truncatingIfNeeded: typeAndZone)
    out[1] = UInt8(truncatingIfNeeded: typeAndZone >> 8)
    out[2] = UInt8(truncatingIfNeeded: year)
    out[3] = UInt8(truncatingIfNeeded: year >> 8)
    out[4] = UInt8(truncatingIfNeeded: month)
    out[5] = UInt8(truncatingIfNeeded: day)
    out[6] = UInt8(truncatingIfNeeded: rest / 3600)
    out[7] = UInt8(truncatingIfNeeded: (rest / 60) % 60)
    out[8] = UInt8(truncatingIfNeeded: rest % 60)
    out[9] = UInt8(truncatingIfNeeded: micros / 10_000)
    out[10] = UInt8(truncatingIfNeeded: (micros / 100) % 100)
    out[11] = UInt8(truncatingIfNeeded: micros % 100)
    return out
  }
}

/// OSTA Compressed Unicode (UDF 2.1.1): compression ID 8 (one byte per character) when every
/// character is below U+0100, otherwise 16 (UTF-16 big-endian).
enum OSTACompressedUnicode {
  /// Encodes `text`; characters above U+FFFF become surrogate pairs.
  static func encode(_ text: String) -> [UInt8] {
    if text.isEmpty { return [] }
    if text.unicodeScalars.allSatisfy({ $0.value < 0x100 }) {
      return [8] + text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    }
    var out: [UInt8] = [16]
    for unit in text.utf16 {
      out.append(UInt8(truncatingIfNeeded: unit >> 8))
      out.append(UInt8(truncatingIfNeeded: unit))
    }
    return out
  }

  /// Encodes the longest prefix of `text` (whole characters) that fits in `maxBytes` bytes.
  static func encodeTruncating(_ text: String, maxBytes: Int) -> [UInt8] {
    var prefix = Substring(text)
    while !prefix.isEmpty {
      let encoded = encode(String(prefix))
      if encoded.count <= maxBytes { return encoded }
      prefix = prefix.dropLast()
    }
    return []
  }
}
