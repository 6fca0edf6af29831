/// One 8-byte DVD-Video navigation command (`vm_cmd_t`), kept as its raw big-endian value.
///
/// Bits are numbered as in libdvdnav's decoder: bit 63 is the most significant bit of the first
/// byte, bit 0 the least significant bit of the last byte.
@_spi(Formats)
public struct DVDCommand: Sendable, Hashable {
  /// The command's eight bytes as one big-endian number.
  public var raw: UInt64

  /// A command from its raw value.
  public init(raw: UInt64) { self.raw = raw }

  /// Reads 8 bytes.
  package init(parsing reader: inout BinaryReader) throws(DiscKitError) {
    raw = try reader.readUInt64BE()
  }

  /// `count` bits (at most 32) ending at bit `start` (inclusive), counted from bit 63 downwards.
  @inline(__always)
  func bits(_ start: Int, _ count: Int) -> UInt32 {
    guard count > 0, count <= 32, start <= 63, start - count >= -1 else { return 0 }
    let shifted = raw >> UInt64(start + 1 - count)
    return UInt32(truncatingIfNeeded: shifted & ((1 << UInt64(count)) - 1))
  }

  /// The command group (bits 63-61): 0 special, 1 link/jump, 2 set system, 3 set, 4-6 combined.
  public var group: Int { Int(bits(63, 3)) }
}
