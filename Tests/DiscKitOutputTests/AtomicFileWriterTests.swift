import DiscKit
import DiscKitOutput
import DiscKitTestSupport
import Foundation
import Testing

/// Crash-safe output: what a killed, interrupted or failing writer leaves behind (nothing), checked
/// on the file system itself (directory listings, `/proc/self/fd`), for both strategies.
@Suite("AtomicFileWriter", .toolThreads)
struct AtomicFileWriterTests {
  static let strategies: [AtomicFileWriter.Strategy] = [.automatic, .namedTemporaryFile]

  static func names(_ dir: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
  }

  static func contents(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  #if os(Linux)
    @Test(
      "on Linux the output is an unnamed O_TMPFILE file: the directory stays empty until commit")
    func unnamedUntilCommit() throws {
      let dir = try TemporaryDirectory()
      let out = dir.file("out.bin")
      let writer = try AtomicFileWriter(destination: out, overwrite: false)
      #expect(writer.mode == .unnamed(directory: dir.path))
      #expect(writer.temporaryPath == nil && writer.isRegularFile && !writer.isStreaming)
      try writer.write([UInt8](repeating: 7, count: 100_000))
      // A process killed now leaves nothing: no name refers to the bytes.
      #expect(try Self.names(dir) == [])
      // The kernel shows the descriptor as an unnamed file in the directory.
      let link = try FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/fd/\(writer.descriptor.rawValue)")
      #expect(link.hasPrefix(dir.path + "/#") || link.hasPrefix(dir.path + "/"))
      #expect(link.hasSuffix("(deleted)"))
      try writer.commit()
      #expect(try Self.names(dir) == ["out.bin"])
      #expect(try Self.contents(out) == [UInt8](repeating: 7, count: 100_000))
    }
  #endif

  @Test("the named fallback is recognisable, registered for signal cleanup, and gone after commit")
  func namedFallback() throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("title.m2ts")
    let writer = try AtomicFileWriter(
      destination: out, overwrite: false, strategy: .namedTemporaryFile)
    let temp = try #require(writer.temporaryPath)
    #expect(
      temp.hasPrefix(
        dir.path + "/.title.m2ts" + AtomicFileWriter.temporaryNameMarker + "\(getpid())-"))
    #expect(TemporaryFileCleanup.pending.contains(temp))
    try writer.write([1, 2, 3])
    #expect(try Self.names(dir) == [String(temp.split(separator: "/").last ?? "")])
    try writer.commit()
    #expect(try Self.names(dir) == ["title.m2ts"])
    #expect(try Self.contents(out) == [1, 2, 3])
    #expect(!TemporaryFileCleanup.pending.contains(temp))
  }

  @Test("an uncommitted writer (abort or deinit) leaves nothing", arguments: strategies)
  func uncommittedLeavesNothing(strategy: AtomicFileWriter.Strategy) throws {
    let dir = try TemporaryDirectory()
    do {
      let writer = try AtomicFileWriter(
        destination: dir.file("a"), overwrite: false, strategy: strategy)
      try writer.write([UInt8](repeating: 1, count: 4096))
    }
    let aborted = try AtomicFileWriter(
      destination: dir.file("b"), overwrite: false, strategy: strategy)
    try aborted.write([9])
    aborted.abort()
    #expect(try Self.names(dir) == [])
    #expect(!TemporaryFileCleanup.pending.contains { $0.hasPrefix(dir.path) })
  }

  @Test(
    "without overwrite, a file that appears meanwhile is kept and reported", arguments: strategies)
  func noClobberRace(strategy: AtomicFileWriter.Strategy) throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("out")
    let writer = try AtomicFileWriter(destination: out, overwrite: false, strategy: strategy)
    try writer.write([1, 1, 1])
    try Data([2, 2]).write(to: URL(fileURLWithPath: out))
    #expect {
      try writer.commit()
    } throws: { ($0 as? DiscKitError)?.code == .alreadyExists }
    #expect(try Self.contents(out) == [2, 2])
    #expect(try Self.names(dir) == ["out"])
  }

  @Test("overwrite replaces an existing file atomically", arguments: strategies)
  func overwriteReplaces(strategy: AtomicFileWriter.Strategy) throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("out")
    try Data([2, 2]).write(to: URL(fileURLWithPath: out))
    #expect {
      try AtomicFileWriter(destination: out, overwrite: false, strategy: strategy)
    } throws: { ($0 as? DiscKitError)?.code == .alreadyExists }
    let writer = try AtomicFileWriter(destination: out, overwrite: true, strategy: strategy)
    try writer.write([5, 6, 7])
    #expect(try Self.contents(out) == [2, 2], "the old file stands until commit")
    try writer.commit()
    #expect(try Self.contents(out) == [5, 6, 7])
    #expect(try Self.names(dir) == ["out"])
  }

  @Test(
    "an output directory that vanishes before commit: one clear error, nothing written",
    arguments: strategies)
  func vanishedDirectory(strategy: AtomicFileWriter.Strategy) throws {
    let dir = try TemporaryDirectory()
    let sub = dir.file("sub")
    try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: false)
    let writer = try AtomicFileWriter(
      destination: sub + "/out", overwrite: false, strategy: strategy)
    try writer.write([UInt8](repeating: 3, count: 10_000))
    try FileManager.default.removeItem(atPath: sub)
    #expect {
      try writer.commit()
    } throws: { error in
      let e = error as? DiscKitError
      return e?.code == .cannotCreate && e?.detail.contains("vanished") == true
        && e?.description.contains("\n") == false
    }
    #expect(try Self.names(dir) == [])
  }

  @Test("a missing output directory fails at creation, naming it", arguments: strategies)
  func missingDirectory(strategy: AtomicFileWriter.Strategy) throws {
    let dir = try TemporaryDirectory()
    #expect {
      try AtomicFileWriter(
        destination: dir.file("no/such/out"), overwrite: false, strategy: strategy)
    } throws: { error in
      let e = error as? DiscKitError
      return e?.code == .cannotCreate && e?.detail.contains("does not exist") == true
    }
  }

  /// A source that fails with an I/O error after `goodBytes` (a failing disc or NFS read).
  struct FailingSource: ByteSource {
    var size: Int64
    var goodBytes: Int64
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(DiscKitError)
      -> Int
    {
      guard offset + Int64(buffer.count) <= goodBytes else {
        throw DiscKitError(.io, "failing source", at: offset, "Input/output error")
      }
      for i in buffer.indices { buffer[i] = 0xAB }
      return buffer.count
    }
  }

  @Test("an I/O error mid-copy leaves nothing under the final name", arguments: strategies)
  func ioErrorMidCopy(strategy: AtomicFileWriter.Strategy) throws {
    let dir = try TemporaryDirectory()
    let out = dir.file("out")
    func run() throws(DiscKitError) {
      let writer = try AtomicFileWriter(destination: out, overwrite: false, strategy: strategy)
      try FailingSource(size: 3 << 20, goodBytes: 1 << 20).copy(to: writer, chunkSize: 1 << 18)
      try writer.commit()
    }
    #expect(throws: DiscKitError(.io, "failing source", at: 1 << 20, "")) { try run() }
    #expect(try Self.names(dir) == [])
  }

  @Test("writes to /dev/full fail with ENOSPC in plain words")
  func devFull() throws {
    try #require(FileManager.default.fileExists(atPath: "/dev/full"))
    let writer = try AtomicFileWriter(destination: "/dev/full", overwrite: false)
    #expect(writer.mode == .device)
    #expect {
      try writer.write([UInt8](repeating: 0, count: 1000))
    } throws: { error in
      let e = error as? DiscKitError
      return e?.code == .io && e?.detail.contains("no space left") == true
    }
    writer.abort()
  }
}
