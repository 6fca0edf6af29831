import DiscKit
import DiscKitTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import DiscKitStreaming

/// A buffer that counts its storage allocations, copying on write like `Array` and `ByteBuffer`.
struct CountingBuffer: ByteChunkBuffer {
  final class Storage: @unchecked Sendable {
    var bytes: [UInt8]
    init(_ bytes: [UInt8]) {
      self.bytes = bytes
      CountingBuffer.allocations.add(1, ordering: .relaxed)
    }
  }

  static let allocations = Atomic<Int>(0)
  var storage: Storage?

  init() {}

  var bytes: [UInt8] { storage?.bytes ?? [] }

  mutating func overwrite(
    count: Int, with fill: (UnsafeMutableRawBufferPointer) throws(DiscKitError) -> Void
  ) throws(DiscKitError) {
    let storage: Storage
    if var held = self.storage.take(), isKnownUniquelyReferenced(&held) {
      storage = held
    } else {
      storage = Storage([])
    }
    self.storage = storage
    storage.bytes = [UInt8](repeating: 0, count: count)
    let outcome = storage.bytes.withUnsafeMutableBytes { raw in
      Result { () throws(DiscKitError) -> Void in try fill(raw) }
    }
    try outcome.get()
  }
}

/// A value shared by a source and its test.
final class Shared<Value: Sendable>: Sendable {
  let value: Mutex<Value>
  init(_ value: Value) { self.value = Mutex(value) }
  func get() -> Value { value.withLock { $0 } }
}

/// A source over bytes the test made that records every read (and can fail at an offset).
struct RecordingSource: ByteSource {
  let data: [UInt8]
  let failAt: Int64?
  let reads = Shared<[Int64]>([])
  var size: Int64 { Int64(data.count) }

  init(_ data: [UInt8], failAt: Int64? = nil) {
    self.data = data
    self.failAt = failAt
  }

  func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError)
    -> Int
  {
    reads.value.withLock { $0.append(offset) }
    if let failAt, offset <= failAt, failAt < offset + Int64(buffer.count) {
      throw DiscKitError(.io, "recording source", at: failAt, "injected failure")
    }
    guard offset < size else { return 0 }
    let count = min(buffer.count, data.count - Int(offset))
    data.withUnsafeBytes { raw in
      buffer.baseAddress!.copyMemory(from: raw.baseAddress! + Int(offset), byteCount: count)
    }
    return count
  }
}

/// A task executor running its jobs on one dispatch queue, which marks them.
final class QueueExecutor: TaskExecutor {
  static let key = DispatchSpecificKey<Bool>()
  let queue = DispatchQueue(label: "disckit.test.reads")
  init() { queue.setSpecific(key: Self.key, value: true) }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}

// Serialized: two tests count the allocations of one buffer type.
@Suite("ByteChunks: a title range as bounded, reused chunks", .serialized, .toolThreads)
struct ByteChunksTests {
  static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var random = SeededRandom(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
  }

  @Test(arguments: [(0..<10_000, 1000), (3..<9_999, 4096), (0..<1, 7), (5_000..<5_000, 64)])
  func theChunksAreTheRangeInOrder(range: Range<Int64>, chunkSize: Int) async throws {
    let data = Self.bytes(10_000, seed: 1)
    var joined: [UInt8] = []
    var sizes: [Int] = []
    for try await chunk in try ByteChunks<[UInt8]>(
      MemoryByteSource(data), range: range, chunkSize: chunkSize)
    {
      joined += chunk
      sizes.append(chunk.count)
    }
    #expect(joined == Array(data[Int(range.lowerBound)..<Int(range.upperBound)]))
    #expect(sizes.dropLast().allSatisfy { $0 == chunkSize })
    #expect((sizes.last ?? 1) >= 1 && (sizes.last ?? 0) <= chunkSize)
  }

  /// `chunkSizeNow` is asked before each read: the chunks follow it (a server shrinking every
  /// stream's chunks when many run), and together they are still the range.
  @Test func eachChunkIsAsLargeAsAskedBeforeItsRead() async throws {
    let data = Self.bytes(20_000, seed: 3)
    let asked = Shared<[Int]>([])
    let plan = [4096, 4096, 1000, 1000, 2048, 7]
    var joined: [UInt8] = []
    var sizes: [Int] = []
    for try await chunk in try ByteChunks<[UInt8]>(
      MemoryByteSource(data), range: 10..<19_000, chunkSize: 512,
      chunkSizeNow: {
        asked.value.withLock { a in
          a.append(plan[min(a.count, plan.count - 1)])
          return a[a.count - 1]
        }
      })
    {
      joined += chunk
      sizes.append(chunk.count)
    }
    #expect(joined == Array(data[10..<19_000]))
    let answers = asked.get()
    #expect(answers.count == sizes.count)
    #expect(sizes.dropLast() == answers.dropLast()[...])
    #expect((sizes.last ?? 0) <= (answers.last ?? 0) && (sizes.last ?? 0) > 0)
  }

  @Test func aConsumerThatLetsEachChunkGoReusesTwoBuffers() async throws {
    let data = Self.bytes(64 * 1024, seed: 2)
    let before = CountingBuffer.allocations.load(ordering: .relaxed)
    var joined: [UInt8] = []
    var count = 0
    for try await chunk in try ByteChunks<CountingBuffer>(MemoryByteSource(data), chunkSize: 4096) {
      joined += chunk.bytes
      count += 1
    }
    let allocated = CountingBuffer.allocations.load(ordering: .relaxed) - before
    #expect(joined == data)
    #expect(count == 16)
    #expect(allocated == 2)
  }

  @Test func chunksAConsumerKeepsAreNeverOverwritten() async throws {
    let data = Self.bytes(40_000, seed: 3)
    let before = CountingBuffer.allocations.load(ordering: .relaxed)
    var kept: [CountingBuffer] = []
    for try await chunk in try ByteChunks<CountingBuffer>(MemoryByteSource(data), chunkSize: 4000) {
      kept.append(chunk)
    }
    #expect(CountingBuffer.allocations.load(ordering: .relaxed) - before == 10)
    #expect(kept.flatMap(\.bytes) == data)
    // The same with arrays, the buffer type a consumer without NIO uses.
    var arrays: [[UInt8]] = []
    for try await chunk in try ByteChunks<[UInt8]>(MemoryByteSource(data), chunkSize: 4000) {
      arrays.append(chunk)
    }
    #expect(arrays.flatMap { $0 } == data)
  }

  /// Backpressure: nothing beyond the chunk after the one handed out is read until the consumer
  /// asks for more, however long it takes.
  @Test func readsStayOneChunkAheadOfTheConsumer() async throws {
    let source = RecordingSource(Self.bytes(100_000, seed: 4))
    var iterator = try ByteChunks<[UInt8]>(source, chunkSize: 10_000).makeAsyncIterator()
    var delivered = 0
    while let chunk = try await iterator.next() {
      delivered += 1
      #expect(chunk.count == 10_000)
      // The consumer dawdles: other tasks run, the sequence must not read on.
      for _ in 0..<20 { await Task.yield() }
      let reads = source.reads.get()
      #expect(reads.count <= delivered + 1)
      #expect(reads.allSatisfy { $0 < Int64(delivered + 1) * 10_000 })
    }
    #expect(delivered == 10)
  }

  @Test func aFailingReadEndsTheSequenceWithTheSourcesError() async throws {
    let source = RecordingSource(Self.bytes(50_000, seed: 5), failAt: 25_000)
    var delivered = 0
    let error = await #expect(throws: DiscKitError.self) {
      for try await _ in try ByteChunks<[UInt8]>(source, chunkSize: 10_000) { delivered += 1 }
    }
    #expect(error?.code == .io)
    #expect(error?.offset == 25_000)
    #expect(delivered == 2)
  }

  @Test func aSourceEndingEarlyIsTruncated() async throws {
    // A source that claims 1000 bytes more than it has.
    struct Short: ByteSource {
      let base = MemoryByteSource([UInt8](repeating: 7, count: 3000))
      var size: Int64 { 4000 }
      func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError)
        -> Int
      { try base.read(at: offset, into: buffer) }
    }
    let error = await #expect(throws: DiscKitError.self) {
      for try await _ in try ByteChunks<[UInt8]>(Short(), chunkSize: 1024) {}
    }
    #expect(error?.code == .truncated)
  }

  @Test func aRangeOutsideTheSourceIsRefused() {
    let source = MemoryByteSource([1, 2, 3])
    #expect(throws: DiscKitError.self) { try ByteChunks<[UInt8]>(source, range: 0..<4) }
    #expect(throws: DiscKitError.self) { try ByteChunks<[UInt8]>(source, range: -1..<2) }
  }

  @Test func readsRunOnTheGivenExecutor() async throws {
    struct Marking: ByteSource {
      let seen = Shared<[Bool]>([])
      var size: Int64 { 8192 }
      func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError)
        -> Int
      {
        seen.value.withLock { $0.append(DispatchQueue.getSpecific(key: QueueExecutor.key) == true) }
        let count = min(buffer.count, Int(size - offset))
        buffer.baseAddress!.initializeMemory(as: UInt8.self, repeating: 1, count: count)
        return count
      }
    }
    let source = Marking()
    var total = 0
    for try await chunk in try ByteChunks<[UInt8]>(
      source, chunkSize: 1024, executor: QueueExecutor())
    {
      total += chunk.count
    }
    #expect(total == 8192)
    let seen = source.seen.get()
    #expect(seen.count == 8 && seen.allSatisfy { $0 })
  }

  #if os(Linux)
    /// `inMemoryFirst`: chunks of a file in the page cache are read on the consumer's task (no
    /// hand-off to the executor); once its pages are dropped (fsync, `POSIX_FADV_DONTNEED`), each
    /// read the consumer's attempt refuses (`wouldBlock`) runs on the executor. Same bytes both ways.
    @Test(.enabled(if: PageCache.canDrop, PageCache.cannotDrop))
    func inMemoryFirstReadsCachedChunksInPlace() async throws {
      struct Marking: ByteSource {
        let file: FileByteSource
        let seen = Shared<[Bool]>([])
        var size: Int64 { file.size }
        func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
          throws(DiscKitError) -> Int
        {
          seen.value.withLock {
            $0.append(DispatchQueue.getSpecific(key: QueueExecutor.key) == true)
          }
          return try file.read(at: offset, into: buffer)
        }
      }
      let dir = try TemporaryDirectory("chunks-in-memory", in: PageCache.directory)
      let path = dir.file("data.bin")
      let bytes = Self.bytes(256 << 10, seed: 9)
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let file = try FileByteSource(path: path)
      _ = try file.bytes(at: 0, count: bytes.count)  // in the page cache now
      func run(_ source: Marking) async throws -> [UInt8] {
        var all: [UInt8] = []
        for try await chunk in try ByteChunks<[UInt8]>(
          source, chunkSize: 32 << 10, executor: QueueExecutor(), inMemoryFirst: true)
        {
          all += chunk
        }
        return all
      }
      let warm = Marking(file: file)
      #expect(try await run(warm) == bytes)
      #expect(warm.seen.get().count == 8 && warm.seen.get().allSatisfy { !$0 })
      #expect(PageCache.drop(path) == 0)
      let cold = Marking(file: file)
      #expect(try await run(cold) == bytes)
      #expect(cold.seen.get().contains(true), "a read went to the executor")
    }
  #endif
}
