import DiscKit
import Synchronization

/// Storage that ``ByteChunks`` reads into and hands out: `[UInt8]` here, and any buffer type a
/// server writes without copying (the Hummingbird adapter conforms NIO's `ByteBuffer`).
///
/// A conforming type must copy its storage on write while another value still shares it (as
/// `Array` and `ByteBuffer` do): ``ByteChunks`` refills the chunk it handed out two chunks
/// earlier, which reuses the memory when the consumer has let that chunk go and leaves the
/// consumer's bytes alone when it has not.
public protocol ByteChunkBuffer: Sendable {
  /// An empty buffer.
  init()

  /// Makes the buffer exactly `count` bytes long and lets `fill` write all of them (reusing the
  /// storage when nothing else shares it).
  mutating func overwrite(
    count: Int, with fill: (UnsafeMutableRawBufferPointer) throws(DiscKitError) -> Void
  ) throws(DiscKitError)
}

extension Array: ByteChunkBuffer where Element == UInt8 {
  /// Resizes the array to `count` bytes (keeping its capacity) and lets `fill` write them.
  public mutating func overwrite(
    count: Int, with fill: (UnsafeMutableRawBufferPointer) throws(DiscKitError) -> Void
  ) throws(DiscKitError) {
    if self.count > count {
      removeLast(self.count - count)
    } else if self.count < count {
      append(contentsOf: repeatElement(0, count: count - self.count))
    }
    let outcome = withUnsafeMutableBytes { raw in
      Result { () throws(DiscKitError) -> Void in try fill(raw) }
    }
    try outcome.get()
  }
}

/// The bytes of a range of a ``DiscKit/ByteSource`` (a title's bytes, ``TitleResource/source``)
/// as an asynchronous sequence of chunks, for any server to write to its clients.
///
/// Memory is bounded whatever the consumer's pace: the sequence reads one chunk ahead (the read
/// overlapping the consumer's write of the chunk before) and reads nothing more until the
/// consumer asks for the next chunk, so it holds at most two chunks of `chunkSize` bytes: the
/// one handed out and the one being read. It refills the chunk it handed out two chunks earlier,
/// so a consumer that lets each chunk go before asking for the next one (a `for try await` loop
/// that writes each chunk) makes the sequence reuse two buffers for the whole range.
///
/// ```swift
/// let resource = try TitleResource(disc: disc, key: "00800")
/// for try await chunk in try ByteChunks<[UInt8]>(resource.source, range: 0..<resource.length) {
///   try await client.write(chunk)  // waits for the client: backpressure
/// }
/// ```
///
/// Reads are blocking `pread` calls; give the sequence a `TaskExecutor` of your own threads to
/// keep them off the cooperative pool (the Hummingbird adapter runs them on NIO's thread pool).
public struct ByteChunks<Buffer: ByteChunkBuffer>: AsyncSequence, Sendable {
  /// Each chunk: `chunkSize` bytes, the last one possibly fewer.
  public typealias Element = Buffer
  /// A read failed (a damaged or vanished disc: the source's own error).
  public typealias Failure = DiscKitError

  let source: any ByteSource
  let range: Range<Int64>
  let chunkSize: Int
  let executor: (any TaskExecutor)?
  let inMemoryFirst: Bool
  let chunkSizeNow: (@Sendable () -> Int)?

  /// The chunks of `range` of `source` (default: all of it), `chunkSize` bytes each (the last
  /// one possibly fewer), read on `executor` (`nil`: the global concurrent executor).
  ///
  /// - Parameter inMemoryFirst: first try each read on the consumer's task under
  ///   ``DiscKit/ResidentReads`` (page-cached bytes only), and go to `executor` only for a read
  ///   that would wait for the disk: no hand-off per chunk while a disc is in memory. Only for
  ///   sources that honour `ResidentReads` (DiscKit's file-backed sources: images, clips,
  ///   titles); another source would block the consumer.
  /// - Parameter chunkSizeNow: asked before each read for the size of that chunk (instead of
  ///   `chunkSize`): a server shrinks the chunks of every stream when many run at once.
  /// - Throws: ``DiscKit/DiscKitError/Code/invalidArgument`` when `range` does not lie inside the
  ///   source.
  public init(
    _ source: any ByteSource, range: Range<Int64>? = nil, chunkSize: Int = 128 << 10,
    executor: (any TaskExecutor)? = nil, inMemoryFirst: Bool = false,
    chunkSizeNow: (@Sendable () -> Int)? = nil
  ) throws(DiscKitError) {
    let range = range ?? 0..<source.size
    guard range.lowerBound >= 0, range.upperBound <= source.size else {
      throw DiscKitError(
        .invalidArgument, "byte chunks", at: range.lowerBound,
        "range \(range) lies outside the \(source.size)-byte source")
    }
    self.source = source
    self.range = range
    self.chunkSize = Swift.max(1, chunkSize)
    self.executor = executor
    self.inMemoryFirst = inMemoryFirst
    self.chunkSizeNow = chunkSizeNow
  }

  /// An iterator from the start of the range.
  public func makeAsyncIterator() -> Iterator { Iterator(self) }

  /// Delivers the chunks in order, reading one ahead.
  public struct Iterator: AsyncIteratorProtocol {
    let chunks: ByteChunks
    /// The first byte not yet asked of the source.
    var position: Int64
    /// The read of the next chunk: done (in memory) or under way on the executor.
    var pending: Pending?

    /// A read done or under way.
    enum Pending {
      case done(Result<Buffer, DiscKitError>)
      /// The task fills the buffer in the slot and leaves it there: the task's own result holds
      /// no reference to it, so the buffer is the iterator's alone once taken (however long the
      /// finished task object lives on the executor's side), and it can be refilled in place.
      case reading(Task<Result<Void, DiscKitError>, Never>, Handoff<Buffer>)
    }
    /// The chunk handed out last; refilled by the read after next.
    var spare: Buffer?
    var started = false

    init(_ chunks: ByteChunks) {
      self.chunks = chunks
      self.position = chunks.range.lowerBound
    }

    /// The next chunk, or `nil` after the last one.
    public mutating func next() async throws(DiscKitError) -> Buffer? {
      if !started {
        started = true
        pending = startRead()
      }
      let chunk: Buffer
      switch pending {
      case nil: return nil
      case .done(let result): chunk = try result.get()
      case .reading(let task, let slot):
        try await task.value.get()
        guard let filled = slot.take() else {
          throw DiscKitError.truncated("byte chunks", at: position, needed: 1)
        }
        chunk = filled
      }
      pending = startRead()
      spare = chunk
      return chunk
    }

    /// Starts reading the chunk at ``position`` into the spare buffer; nil at the end.
    private mutating func startRead() -> Pending? {
      let upper = chunks.range.upperBound
      guard position < upper else { return nil }
      let offset = position
      let size = chunks.chunkSizeNow.map { Swift.max(1, $0()) } ?? chunks.chunkSize
      let count = Int(Swift.min(Int64(size), upper - offset))
      position += Int64(count)
      let source = chunks.source
      if chunks.inMemoryFirst {
        var buffer = spare.take() ?? Buffer()
        do {
          try ResidentReads.$only.withValue(true) {
            try Self.fill(&buffer, source, offset, count)
          }
          return .done(.success(buffer))
        } catch let error as DiscKitError where error.code != .wouldBlock {
          return .done(.failure(error))
        } catch {
          spare = buffer  // not in memory: the executor reads it
        }
      }
      // Moved, not copied, into the read: its storage is reused when no one else holds it.
      let slot = Handoff(spare.take())
      return .reading(
        Task(executorPreference: chunks.executor) {
          var buffer = slot.take() ?? Buffer()
          return Result { () throws(DiscKitError) -> Void in
            try Self.fill(&buffer, source, offset, count)
            slot.put(buffer)
          }
        }, slot)
    }

    /// Reads `count` bytes of `source` at `offset` into `buffer`.
    private static func fill(
      _ buffer: inout Buffer, _ source: any ByteSource, _ offset: Int64, _ count: Int
    ) throws(DiscKitError) {
      try buffer.overwrite(count: count) { raw throws(DiscKitError) in
        let got = try source.readFully(at: offset, into: raw)
        guard got == count else {
          throw DiscKitError.truncated(
            "byte chunks", at: offset + Int64(got), needed: Int64(count - got))
        }
      }
    }
  }
}

/// Moves one value into a task and back without a second reference staying behind.
final class Handoff<Value: Sendable>: Sendable {
  private let value: Mutex<Value?>

  init(_ value: consuming Value?) { self.value = Mutex(value) }

  func take() -> Value? { value.withLock { $0.take() } }

  func put(_ new: consuming Value) {
    let moved = Optional(new)
    value.withLock { $0 = moved }
  }
}
