import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitStreaming

@Suite("Streaming core parts", .toolThreads)
struct StreamingUnitTests {
  /// RFC 9110 §14.1.2's examples on a 10000-byte representation.
  @Test func byteRangesFollowRFC9110() {
    let size: Int64 = 10_000
    #expect(ByteRangeRequest(header: "bytes=0-499", size: size) == .partial(0..<500))
    #expect(ByteRangeRequest(header: "bytes=500-999", size: size) == .partial(500..<1000))
    #expect(ByteRangeRequest(header: "bytes=-500", size: size) == .partial(9500..<10_000))
    #expect(ByteRangeRequest(header: "bytes=9500-", size: size) == .partial(9500..<10_000))
    #expect(ByteRangeRequest(header: "bytes=0-0", size: size) == .partial(0..<1))
    #expect(ByteRangeRequest(header: "bytes=-1", size: size) == .partial(9999..<10_000))
    // A last position past the end is the end; a suffix longer than the representation is all of it.
    #expect(ByteRangeRequest(header: "bytes=9000-99999", size: size) == .partial(9000..<10_000))
    #expect(ByteRangeRequest(header: "bytes=-20000", size: size) == .partial(0..<10_000))
    #expect(ByteRangeRequest(header: " Bytes = 1-2 ", size: size) == .partial(1..<3))
    // Unsatisfiable: starts at or after the end, empty suffix, empty representation.
    #expect(ByteRangeRequest(header: "bytes=10000-", size: size) == .unsatisfiable)
    #expect(ByteRangeRequest(header: "bytes=-0", size: size) == .unsatisfiable)
    #expect(ByteRangeRequest(header: "bytes=0-1", size: 0) == .unsatisfiable)
    #expect(
      ByteRangeRequest(header: "bytes=99999999999999999999999999-", size: size) == .unsatisfiable)
    // Malformed byte ranges are refused like nginx does (416).
    for bad in ["bytes=5-1", "bytes=a-b", "bytes=", "bytes=1", "bytes=--5", "bytes=1-2-3"] {
      #expect(ByteRangeRequest(header: bad, size: size) == .unsatisfiable, "\(bad)")
    }
    // Other units and range lists are ignored (RFC 9110 allows serving the whole representation).
    #expect(ByteRangeRequest(header: "items=0-5", size: size) == .whole)
    #expect(ByteRangeRequest(header: "bytes=0-1,4-5", size: size) == .whole)
    #expect(ByteRangeRequest(header: nil, size: size) == .whole)
  }

  @Test func ifNoneMatchListsUseWeakComparison() {
    #expect(TitleResponse.matches("\"a\"", "\"a\""))
    #expect(TitleResponse.matches("W/\"a\"", "\"a\""))
    #expect(TitleResponse.matches("\"x\", \"a\"", "\"a\""))
    #expect(TitleResponse.matches("*", "\"a\""))
    #expect(!TitleResponse.matches("\"b\"", "\"a\""))
    #expect(!TitleResponse.matches("", "\"a\""))
  }

  @Test(.enabled(if: Tool.has("python3"), "needs python3"))
  func lastModifiedIsAnIMFFixdateAsPythonFormatsIt() throws {
    let times: [Int64] = [0, 784_111_777, 1_700_000_000, 951_782_400, 4_102_444_799]
    let script =
      "import email.utils,sys\nfor t in sys.argv[1:]: print(email.utils.formatdate(int(t), usegmt=True))"
    let result = try Tool.run("python3", ["-c", script] + times.map(String.init))
    let expected = result.text.split(separator: "\n").map(String.init)
    #expect(times.map { HTTPDate.format(secondsSince1970: $0) } == expected)
  }

  @Test func titleKeysAndIDs() {
    #expect(TitleKey.number("00800") == 800)
    #expect(TitleKey.number("800") == 800)
    #expect(TitleKey.number("00800.mpls") == 800)
    #expect(TitleKey.number("4") == 4)
    for bad in ["", "abc", "-1", "123456", "1.5", "..", "%00"] {
      #expect(TitleKey.number(bad) == nil, "\(bad)")
    }
    #expect(TitleKey.playlistKey(800) == "00800")
    // FNV-1a 64 reference values (the algorithm's published test vectors).
    #expect(DiscEntry.id(forRelativePath: "") == "cbf29ce484222325")
    #expect(DiscEntry.id(forRelativePath: "a") == "af63dc4c8601ec8c")
    #expect(DiscEntry.id(forRelativePath: "foobar") == "85944171f73967e8")
    #expect(DiscEntry.isWellFormedID("85944171f73967e8"))
    #expect(!DiscEntry.isWellFormedID("85944171F73967E8"))
    #expect(!DiscEntry.isWellFormedID("../../etc/passwd"))
  }

  /// Many streams share the chunk memory: each stream's chunks are the configured size while
  /// three of them for every active stream fit in `streamMemory`, otherwise the largest power
  /// of two that fits (at least 32 KiB), never more than the configured size.
  @Test func streamsShareTheChunkMemory() {
    for memory in [4 << 20, 16 << 20, 64 << 20] {
      for configured in [64 << 10, 128 << 10, 512 << 10] {
        var configuration = DiscServerConfiguration(chunkSize: configured)
        configuration.streamMemory = memory
        var previous = Int.max
        for active in 1...256 {
          let size = configuration.chunkSize(forActiveStreams: active)
          let label = "memory \(memory), chunks \(configured), \(active) streams: \(size)"
          #expect(size <= previous, "\(label): more streams never get larger chunks")
          previous = size
          if 3 * active * configured <= memory {
            #expect(size == configured, "\(label)")
            continue
          }
          #expect(size >= 32 << 10 && size <= configured, "\(label)")
          #expect(size & (size - 1) == 0, "\(label): a power of two")
          #expect(size == 32 << 10 || 3 * active * size <= memory, "\(label): fits")
          #expect(size * 2 > configured || 3 * active * size * 2 > memory, "\(label): largest")
        }
      }
    }
  }

  @Test func theLimiterReleasesASlotWhenItsTicketIsDropped() {
    let limiter = StreamLimiter(maximum: 2)
    var first = limiter.acquire()
    let second = limiter.acquire()
    #expect(first != nil && second != nil)
    #expect(limiter.acquire() == nil)
    #expect(limiter.active == 2)
    first = nil
    #expect(limiter.active == 1)
    #expect(limiter.acquire() != nil)  // acquired and dropped at once
    #expect(limiter.active == 1)
    #expect(limiter.served == 3)
    withExtendedLifetime(second) {}
  }

  @Test func discoveryStaysInsideTheRoot() throws {
    let root = try TemporaryDirectory("disckit-discovery")
    let outside = try TemporaryDirectory("disckit-discovery-outside")
    let fm = FileManager.default
    try fm.createDirectory(atPath: root.path + "/a/DISC/BDMV", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: root.path + "/b/VIDEO_TS", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: outside.path + "/ELSE/BDMV", withIntermediateDirectories: true)
    try Data().write(to: URL(fileURLWithPath: root.path + "/a/x.ISO"))
    try Data().write(to: URL(fileURLWithPath: root.path + "/a/notes.txt"))
    try Data().write(to: URL(fileURLWithPath: outside.path + "/secret.iso"))
    try fm.createSymbolicLink(
      atPath: root.path + "/link.iso", withDestinationPath: outside.path + "/secret.iso")
    try fm.createSymbolicLink(atPath: root.path + "/linkdir", withDestinationPath: outside.path)
    try fm.createSymbolicLink(atPath: root.path + "/loop", withDestinationPath: root.path)
    // A disc folder whose stream folder links outside the root is refused.
    try fm.createDirectory(atPath: root.path + "/c/BDMV", withIntermediateDirectories: true)
    try fm.createSymbolicLink(
      atPath: root.path + "/c/BDMV/STREAM", withDestinationPath: outside.path)
    let found = try DiscDiscovery(root: root.path).discover()
    #expect(found.map(\.path) == ["a/DISC", "a/x.ISO", "b"])
    #expect(found.allSatisfy { $0.id == DiscEntry.id(forRelativePath: $0.path) })
    // One image as the root.
    let single = try DiscDiscovery(root: root.path + "/a/x.ISO").discover()
    #expect(single.map(\.path) == ["x.ISO"])
    #expect(throws: DiscKitError.self) { try DiscDiscovery(root: root.path + "/missing") }
  }

  /// A PSI prefix sent before a non-seamless clip gets the clip's timestamp shift on the
  /// continuous timeline: a PCR packet's base moves by the shift's delta (mod 2^33).
  @Test func thePrefixPCRMovesWithItsClip() throws {
    // One 192-byte source packet on PID 0x1001 with an adaptation field carrying PCR base 1000.
    var packet = [UInt8](repeating: 0xFF, count: 192)
    packet[0...3] = [0, 0, 0, 0]
    packet[4...7] = [0x47, 0x10, 0x01, 0x20]  // adaptation field only
    packet[8] = 183
    packet[9] = 0x10  // PCR flag
    let base: Int64 = 1000
    packet[10] = UInt8((base >> 25) & 0xFF)
    packet[11] = UInt8((base >> 17) & 0xFF)
    packet[12] = UInt8((base >> 9) & 0xFF)
    packet[13] = UInt8((base >> 1) & 0xFF)
    packet[14] = UInt8((base & 1) << 7) | 0x7E
    packet[15] = 0
    let delta: UInt64 = (1 << 33) - 400  // wraps: 1000 + delta = 600 mod 2^33
    let moved = try DiscTitle.prefixSource(packet, delta90k: delta).bytes(at: 0, count: 192)
    let pcr =
      Int64(moved[10]) << 25 | Int64(moved[11]) << 17 | Int64(moved[12]) << 9
      | Int64(moved[13]) << 1 | Int64(moved[14] >> 7)
    #expect(pcr == 600)
    #expect(Array(moved[0..<10]) == Array(packet[0..<10]))
    // Unmoved (the original timeline, or a clip the continuous timeline leaves alone), the
    // prefix is sent as it is.
    let plain = try DiscTitle.prefixSource(packet, delta90k: 0)
    #expect(try plain.bytes(at: 0, count: 192) == packet)
  }
}
