@_spi(Formats) import DiscKit

/// A BD-J object (BDMV/BDJO/xxxxx.bdjo).
enum BDJOHarness: FuzzHarnessBody {
  static let name = "bdjo"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? BDJObject(bytes: [UInt8](bytes))
  }
}

/// A JAR (zip) file and its members, inflated with a 1 MiB limit. Input not starting with `PK`
/// is taken as the DEFLATE data of a one-member archive, so the inflater sees the fuzzer's bytes
/// directly.
enum JARHarness: FuzzHarnessBody {
  static let name = "jar"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    var limits = ParsingLimits()
    limits.maxInflatedEntryBytes = 1 << 20
    let array = [UInt8](bytes)
    let archiveBytes = array.starts(with: [0x50, 0x4B]) ? array : deflatedMember(array)
    guard let archive = try? JARArchive(bytes: archiveBytes, limits: limits) else { return }
    for entry in archive.entries.prefix(64) { _ = try? archive.contents(of: entry) }
  }

  /// A zip holding `data` as the deflated member `x` (declared size 0, CRC 0).
  static func deflatedMember(_ data: [UInt8]) -> [UInt8] {
    func le(_ v: Int, _ n: Int) -> [UInt8] {
      (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
    }
    let local = [0x50, 0x4B, 3, 4] + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 12)
    let header = local + le(data.count, 4) + le(0, 4) + le(1, 2) + le(0, 2) + [0x78]
    let central =
      [0x50, 0x4B, 1, 2] + le(20, 2) + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 8)
      + le(data.count, 4) + le(0, 4) + le(1, 2) + le(0, 12) + le(0, 4) + [0x78]
    let end =
      [0x50, 0x4B, 5, 6] + le(0, 4) + le(1, 2) + le(1, 2) + le(central.count, 4)
      + le(header.count + data.count, 4) + le(0, 2)
    return header + data + central + end
  }
}

/// A Java class file's constant pool.
enum ClassHarness: FuzzHarnessBody {
  static let name = "class"
  static func run(_ bytes: UnsafeRawBufferPointer) {
    _ = try? JavaClassFile(bytes: [UInt8](bytes))
  }
}
