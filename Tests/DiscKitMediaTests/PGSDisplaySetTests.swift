import DiscKitTestSupport
import Testing

@testable import DiscKitMedia

/// How PGS segments are gathered into display sets: a set ends with its END segment; bytes whose
/// segments do not parse end the set at once (passed on as they are, never held).
@Suite("PGS display sets", .toolThreads)
struct PGSDisplaySetTests {
  static func ends(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { PGSDisplaySet.ends($0) }
  }

  @Test func endSegmentEndsTheSet() {
    // PCS (type 0x16, 2 payload bytes), END (0x80, empty).
    #expect(Self.ends([0x16, 0x00, 0x02, 0xAA, 0xBB, 0x80, 0x00, 0x00]))
    #expect(Self.ends([0x80, 0x00, 0x00]))
  }

  @Test func otherSegmentsDoNot() {
    #expect(!Self.ends([0x16, 0x00, 0x02, 0xAA, 0xBB]))
    #expect(!Self.ends([0x15, 0x00, 0x00, 0x14, 0x00, 0x01, 0x00]))
    #expect(!Self.ends([]))
  }

  @Test func malformedSegmentsArePassedOn() {
    // A length past the packet's end, a header cut short.
    #expect(Self.ends([0x16, 0xFF, 0xFF, 0x00]))
    #expect(Self.ends([0x16, 0x00, 0x00, 0x80, 0x00]))
  }
}
