/// CRC-32/MPEG-2 (polynomial 0x04C11DB7, initial value 0xFFFFFFFF, no reflection, no final XOR),
/// the checksum of PSI sections. Over a whole section including its `CRC_32` field the result is 0.
package enum MPEGCRC32 {
  static let table: [UInt32] = (0..<256).map { i -> UInt32 in
    var c = UInt32(i) << 24
    for _ in 0..<8 { c = c & 0x8000_0000 != 0 ? (c << 1) ^ 0x04C1_1DB7 : c << 1 }
    return c
  }

  /// The CRC of `bytes`.
  package static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
    var crc: UInt32 = 0xFFFF_FFFF
    table.withUnsafeBufferPointer { t in
      for b in bytes {
        crc = (crc << 8) ^ t[Int((crc >> 24) ^ UInt32(b)) & 0xFF]
      }
    }
    return crc
  }
}
