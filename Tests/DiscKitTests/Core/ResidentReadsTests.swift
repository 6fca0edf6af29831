import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// `ResidentReads`: within its scope a file source returns only page-cached bytes, and a read
/// that would need the disk is `wouldBlock`. The page cache is the oracle: a file the test has
/// just read is in it; after `fsync` and `posix_fadvise(POSIX_FADV_DONTNEED)` its clean pages are
/// not, as `mincore` confirms (`PageCache`).
@Suite("Resident reads", .toolThreads)
struct ResidentReadsTests {
  #if os(Linux)
    @Test(.enabled(if: PageCache.canDrop, PageCache.cannotDrop))
    func cachedBytesAreReadAndTheDiskIsRefused() throws {
      let dir = try TemporaryDirectory("resident", in: PageCache.directory)
      let path = dir.file("data.bin")
      var random = SeededRandom(seed: 7)
      let bytes = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let source = try FileByteSource(path: path)
      // Read once: in the page cache.
      #expect(try source.bytes(at: 0, count: bytes.count) == bytes)
      let resident = try ResidentReads.$only.withValue(true) {
        try source.bytes(at: 4096, count: 512 << 10)
      }
      #expect(resident == Array(bytes[4096..<(4096 + (512 << 10))]))
      // Written back and dropped from the page cache: the resident read refuses.
      #expect(PageCache.residentPages(path) > 0)
      #expect(PageCache.drop(path) == 0)
      let error = #expect(throws: DiscKitError.self) {
        try ResidentReads.$only.withValue(true) { try source.bytes(at: 0, count: bytes.count) }
      }
      #expect(error?.code == .wouldBlock)
      #expect(error?.structure == path)
      // Outside the scope, reads wait for the disk as ever.
      #expect(try source.bytes(at: 0, count: bytes.count) == bytes)
      #expect(!ResidentReads.only)
    }
  #endif

  /// The scope is the task's: a child task sees it, an unrelated task does not.
  @Test func theScopeIsTheTasks() async {
    await ResidentReads.$only.withValue(true) {
      let child = await Task { ResidentReads.only }.value
      let detached = await Task.detached { ResidentReads.only }.value
      #expect(child && !detached)
    }
  }
}
