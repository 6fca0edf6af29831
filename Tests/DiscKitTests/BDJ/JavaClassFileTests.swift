@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Class files compiled by javac from sources the test writes: the constant pool's string
/// literals must be exactly the literals of the source.
@Suite("Java class files", .enabled(if: Javac.available, "javac is not installed"), .toolThreads)
struct JavaClassFileTests {
  static let literals = [
    "bd://0.PLAYLIST:00800", "00801.mpls", "plain ASCII", "", "NUL\u{0}inside", "é ß ñ",
    "\u{1F3AC} clapper (supplementary)", "中文", String(repeating: "x", count: 3000),
  ]

  @Test func stringLiteralsComeBackExactly() throws {
    let dir = try TemporaryDirectory("disckit-javac")
    let classes = try Javac.compile(
      className: "Menu", package: "com.studio", literals: Self.literals,
      extra: "static final long L = 1234567890123L; static final double D = 2.5e300; "
        + "static final int I = 800800; static final float F = 1.5f;", in: dir)
    let file = try JavaClassFile(bytes: try #require(classes["com/studio/Menu.class"]))
    #expect(file.className == "com/studio/Menu")
    #expect(Set(file.stringLiterals) == Set(Self.literals))
    #expect(file.integers.contains(800800))
    #expect(file.majorVersion >= 45)
  }

  @Test func absurdCountsAndBadTagsAreTypedErrors() throws {
    // 65535 constants declared, 3 bytes of pool.
    let absurd: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0xFF, 0xFF, 1, 0, 5]
    #expect(throws: DiscKitError(.truncated, "class file", at: 13, "")) {
      try JavaClassFile(bytes: absurd)
    }
    // A Utf8 constant claiming 65535 bytes.
    let long: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0, 2, 1, 0xFF, 0xFF, 0x41]
    #expect(throws: DiscKitError.self) { try JavaClassFile(bytes: long) }
    // Tag 2 does not exist.
    let badTag: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0, 2, 2, 0, 0]
    #expect(throws: DiscKitError(.malformed, "class file", at: 10, "")) {
      try JavaClassFile(bytes: badTag)
    }
    // A String constant pointing at a Long's second slot.
    let badRef: [UInt8] =
      [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0, 4, 5] + [UInt8](repeating: 0, count: 8) + [8, 0, 2]
    #expect(throws: DiscKitError(.malformed, "class file", at: 19, "")) {
      try JavaClassFile(bytes: badRef)
    }
    #expect(throws: DiscKitError(.malformed, "class file", at: 0, "")) {
      try JavaClassFile(bytes: [0xCA, 0xFE, 0xBA, 0xBF, 0, 0, 0, 0, 0, 0])
    }
  }

  @Test func truncationsAndByteFlipsAreTypedErrors() throws {
    let dir = try TemporaryDirectory("disckit-javac-flip")
    let classes = try Javac.compile(
      className: "Flip", package: "x", literals: Array(Self.literals.prefix(7)), extra: "",
      in: dir)
    let bytes = try #require(classes["x/Flip.class"])
    for cut in 0..<min(bytes.count, 600) {
      _ = try? JavaClassFile(bytes: Array(bytes.prefix(cut)))
    }
    var random = SeededRandom(seed: 0xCAFE)
    for _ in 0..<2000 {
      var copy = bytes
      copy[Int.random(in: 0..<copy.count, using: &random)] = UInt8.random(
        in: 0...255, using: &random)
      _ = try? JavaClassFile(bytes: copy)
    }
  }
}
