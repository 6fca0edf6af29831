/// Writes ISO base media file format boxes (ISO/IEC 14496-12): big-endian fields and boxes
/// whose 32-bit size is filled in when their body is done.
package struct MP4BoxWriter: Sendable {
  /// The bytes written so far.
  package private(set) var bytes: [UInt8] = []

  package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

  package mutating func u8(_ value: UInt8) { bytes.append(value) }
  package mutating func u16(_ value: UInt16) {
    bytes.append(UInt8(value >> 8))
    bytes.append(UInt8(truncatingIfNeeded: value))
  }
  package mutating func u24(_ value: UInt32) {
    bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    u16(UInt16(truncatingIfNeeded: value))
  }
  package mutating func u32(_ value: UInt32) {
    u16(UInt16(value >> 16))
    u16(UInt16(truncatingIfNeeded: value))
  }
  package mutating func u64(_ value: UInt64) {
    u32(UInt32(value >> 32))
    u32(UInt32(truncatingIfNeeded: value))
  }
  package mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
  package mutating func zeros(_ count: Int) {
    bytes.append(contentsOf: repeatElement(0, count: count))
  }
  package mutating func append<C: Collection>(_ data: C) where C.Element == UInt8 {
    bytes.append(contentsOf: data)
  }
  /// A four-character code (ASCII).
  package mutating func fourCC(_ code: String) {
    var count = 0
    for byte in code.utf8.prefix(4) {
      bytes.append(byte)
      count += 1
    }
    zeros(4 - count)
  }

  /// The current size (where the next byte goes).
  package var count: Int { bytes.count }

  /// Overwrites 4 bytes at `offset` with `value`.
  package mutating func patch32(at offset: Int, _ value: UInt32) {
    bytes[offset] = UInt8(value >> 24)
    bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 16)
    bytes[offset + 2] = UInt8(truncatingIfNeeded: value >> 8)
    bytes[offset + 3] = UInt8(truncatingIfNeeded: value)
  }

  /// A box: its size (filled in after `body`), type and body.
  package mutating func box(_ type: String, _ body: (inout MP4BoxWriter) -> Void) {
    let start = bytes.count
    u32(0)
    fourCC(type)
    body(&self)
    patch32(at: start, UInt32(truncatingIfNeeded: bytes.count - start))
  }

  /// A full box: a box whose body starts with a version byte and 24 bits of flags.
  package mutating func fullBox(
    _ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ body: (inout MP4BoxWriter) -> Void
  ) {
    box(type) { w in
      w.u8(version)
      w.u24(flags)
      body(&w)
    }
  }
}
