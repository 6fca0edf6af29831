import DiscKitTestSupport
import Testing

@testable import DiscKitCLI

/// ``DecimalText`` against the C library's printf (`String(cFormat:)`, vsnprintf), its oracle.
@Suite("Decimal text vs printf", .toolThreads)
struct DecimalTextTests {
  @Test func integersMatchPrintf() {
    var random = SeededRandom(seed: 3)
    var values = [0, 1, -1, 9, 10, 99, 100, 999, 1000, -99, -100, Int.max, Int.min]
    for _ in 0..<2000 { values.append(Int(truncatingIfNeeded: random.next()) >> Int(random.next() % 64)) }
    for value in values {
      for width in [0, 1, 3, 8] {
        #expect(
          DecimalText.integer(value, width: width)
            == String(cFormat: "%*ld", Int32(width), value), "\(value) width \(width)")
      }
    }
  }

  @Test func mebibytesMatchPrintf() {
    var random = SeededRandom(seed: 4)
    var sizes: [Int64] = [0, 1, 52_428, 52_429, 104_857, 104_858, 1 << 20, (1 << 53) - 1, 1 << 53, -1]
    // Exact ties (bytes * 10 / 2^20 ends in one half): glibc rounds them to even.
    for k: Int64 in stride(from: 2, to: 200, by: 5) { sizes.append((k << 20 + 1 << 19) / 10) }
    for _ in 0..<5000 { sizes.append(Int64(random.next() >> UInt64(11 + random.next() % 50))) }
    for size in sizes {
      #expect(
        DecimalText.mebibytes(size, width: 8)
          == String(cFormat: "%8.1f", Double(size) / 1_048_576), "\(size)")
    }
  }
}
