import DiscKit
import Synchronization

/// Bytes read, by path: what a file system or image wrapped by ``CountingFileSystem`` or
/// ``CountingByteSource`` delivered.
public final class ReadCounter: Sendable {
  private let counts = Mutex<[String: Int64]>([:])

  public init() {}

  /// Adds `bytes` read from `path`.
  public func add(_ bytes: Int, path: String) {
    guard bytes > 0 else { return }
    counts.withLock { $0[path, default: 0] += Int64(bytes) }
  }

  /// Bytes read, by path.
  public var byPath: [String: Int64] { counts.withLock { $0 } }

  /// Every byte read.
  public var total: Int64 { byPath.values.reduce(0, +) }

  /// Bytes read from the files whose path (upper-cased) contains `fragment`, e.g. `/STREAM/`.
  public func total(matching fragment: String) -> Int64 {
    byPath.filter { $0.key.uppercased().contains(fragment.uppercased()) }.values.reduce(0, +)
  }
}

/// A byte source that counts what it delivers under one name.
public struct CountingByteSource: ByteSource {
  public let base: any ByteSource
  public let name: String
  public let counter: ReadCounter

  public init(_ base: any ByteSource, name: String, counter: ReadCounter) {
    self.base = base
    self.name = name
    self.counter = counter
  }

  public var size: Int64 { base.size }

  public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
    throws(DiscKitError) -> Int
  {
    let n = try base.read(at: offset, into: buffer)
    counter.add(n, path: name)
    return n
  }
}

/// A file system whose files count the bytes they deliver, by path.
public struct CountingFileSystem: DiscFileSystem {
  public let base: any DiscFileSystem
  public let counter: ReadCounter

  public init(_ base: any DiscFileSystem, counter: ReadCounter) {
    self.base = base
    self.counter = counter
  }

  public var kind: FileSystemKind { base.kind }
  public var revision: String? { base.revision }
  public var volumeLabel: String { base.volumeLabel }

  public func contentsOfDirectory(atPath path: String) throws(DiscKitError) -> [DiscFileEntry] {
    try base.contentsOfDirectory(atPath: path)
  }

  public func openFile(atPath path: String) throws(DiscKitError) -> any ByteSource {
    CountingByteSource(try base.openFile(atPath: path), name: path, counter: counter)
  }

  public func entry(atPath path: String) throws(DiscKitError) -> DiscFileEntry {
    try base.entry(atPath: path)
  }
}
