import DiscKit
import DiscKitTestSupport
import Foundation
import SystemPackage
import Testing

@Suite("Byte sources", .toolThreads)
struct ByteSourceTests {
  let pattern: [UInt8] = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }

  @Test func memoryReadsAndShortReadAtEnd() throws {
    let source = MemoryByteSource(pattern)
    #expect(try source.bytes(at: 100, count: 5) == Array(pattern[100..<105]))
    var buffer = [UInt8](repeating: 0, count: 50)
    let n = try buffer.withUnsafeMutableBytes { try source.read(at: 9_980, into: $0) }
    #expect(n == 20)
    #expect(Array(buffer[0..<20]) == Array(pattern[9_980...]))
    let past = try buffer.withUnsafeMutableBytes { try source.read(at: 20_000, into: $0) }
    #expect(past == 0)
    #expect(throws: DiscKitError.truncated("data", at: 9_990, needed: 20)) {
      try source.bytes(at: 9_990, count: 20)
    }
  }

  @Test func negativeOffsetIsAnError() {
    let source = MemoryByteSource(pattern)
    #expect(throws: DiscKitError.self) { try source.bytes(at: -1, count: 1) }
  }

  @Test func subrangeStaysInsideItsWindow() throws {
    let sub = try SubrangeByteSource(MemoryByteSource(pattern), offset: 1_000, length: 100)
    #expect(sub.size == 100)
    #expect(try sub.bytes(at: 0, count: 100) == Array(pattern[1_000..<1_100]))
    #expect(throws: DiscKitError.self) { try sub.bytes(at: 90, count: 20) }
    #expect(throws: DiscKitError.self) {
      try SubrangeByteSource(MemoryByteSource(pattern), offset: 9_999, length: 2)
    }
  }

  @Test(arguments: [1, 7, 100, 333, 4_096, 20_000])
  func concatenationMatchesNaiveConcatenation(chunk: Int) throws {
    let base = MemoryByteSource(pattern)
    let ranges: [(Int, Int)] = [
      (5_000, 1_000), (0, 0), (10, 3), (9_000, 1_000), (0, 2_500), (7_777, 1),
    ]
    let concat = try ConcatenatedByteSource(
      ranges.map { .init(source: base, offset: Int64($0.0), length: Int64($0.1)) })
    let expected = ranges.flatMap { pattern[$0.0..<$0.0 + $0.1] }
    #expect(concat.size == Int64(expected.count))
    #expect(concat.extents.count == 5)  // the empty extent is dropped
    var got: [UInt8] = []
    var offset: Int64 = 0
    while offset < concat.size {
      let piece = try concat.bytes(at: offset, count: Int(min(Int64(chunk), concat.size - offset)))
      got += piece
      offset += Int64(piece.count)
    }
    #expect(got == expected)
  }

  @Test func concatenationRejectsExtentsOutsideTheirSource() {
    let base = MemoryByteSource(pattern)
    #expect(throws: DiscKitError.self) {
      try ConcatenatedByteSource([.init(source: base, offset: 9_000, length: 2_000)])
    }
  }

  @Test func zeroSourceReadsZeros() throws {
    let zeros = ZeroByteSource(size: 1 << 40)
    #expect(try zeros.bytes(at: (1 << 40) - 4, count: 4) == [0, 0, 0, 0])
  }

  @Test func fileSourceHandlesOffsetsPastFourGiB() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("sparse.bin")
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    let far: UInt64 = 5 << 30
    try handle.seek(toOffset: far)
    try handle.write(contentsOf: Data([1, 2, 3, 4]))
    try handle.close()
    let file = try FileByteSource(path: path)
    #expect(file.size == Int64(far) + 4)
    #expect(try file.bytes(at: Int64(far) - 2, count: 6) == [0, 0, 1, 2, 3, 4])
  }

  @Test func fileSourceServesConcurrentReaders() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("pattern.bin")
    _ = FileManager.default.createFile(atPath: path, contents: Data(pattern))
    let file = try FileByteSource(path: path)
    let pattern = self.pattern
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for task in 0..<16 {
        group.addTask {
          for i in 0..<200 {
            let offset = (task * 613 + i * 37) % 9_000
            if try file.bytes(at: Int64(offset), count: 1_000)
              != Array(pattern[offset..<offset + 1_000])
            {
              return false
            }
          }
          return true
        }
      }
      for try await ok in group { #expect(ok) }
    }
  }

  @Test func missingFileCannotBeOpened() {
    #expect(throws: DiscKitError.self) { try FileByteSource(path: "/nonexistent/disckit") }
  }
}

@Suite("Binary reader", .toolThreads)
struct BinaryReaderTests {
  @Test func readsIntegersInBothByteOrders() throws {
    var reader = BinaryReader([1, 2, 3, 4, 5, 6, 7, 8, 9], baseOffset: 1_000, structure: "test")
    #expect(try reader.readUInt16BE() == 0x0102)
    #expect(try reader.readUInt16LE() == 0x0403)
    #expect(try reader.readUInt32BE() == 0x0506_0708)
    #expect(reader.absoluteOffset == 1_008)
    #expect(throws: DiscKitError.truncated("test", at: 1_008, needed: 2)) {
      try reader.readUInt16BE()
    }
  }

  @Test func slicesAreBoundedAndReportAbsoluteOffsets() throws {
    var reader = BinaryReader(Array(0..<32), baseOffset: 4_096, structure: "outer")
    try reader.skip(8)
    var inner = try reader.slice(4, structure: "inner")
    #expect(try inner.readUInt32BE() == 0x0809_0A0B)
    #expect(throws: DiscKitError.truncated("inner", at: 4_108, needed: 1)) { try inner.readUInt8() }
    #expect(reader.relativePosition == 12)
    #expect(throws: DiscKitError.self) { try reader.slice(atRelative: 30, count: 4) }
    let window = try reader.slice(atRelative: 16, count: 4)
    #expect(try window.uint32LE(atRelative: 0) == 0x1312_1110)
  }

  /// A table read at once gives what reading its integers one by one gives: the values and the
  /// position after them, or (short of bytes) the error of the first integer that does not fit.
  @Test(arguments: [0, 1, 3, 6, 7, 9])
  func tableReadsAsIntegersOneByOne(count: Int) throws {
    let bytes: [UInt8] = (0..<27).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    var whole = BinaryReader(bytes, baseOffset: 512, structure: "table")
    var single = whole
    try whole.skip(1)
    try single.skip(1)
    var oneByOne: Result<[UInt32], DiscKitError> = .success([])
    do {
      var values: [UInt32] = []
      for _ in 0..<count { values.append(try single.readUInt32BE()) }
      oneByOne = .success(values)
    } catch {
      oneByOne = .failure(error)
    }
    let atOnce = Result { () throws(DiscKitError) in try whole.readUInt32BEArray(count: count) }
    #expect(atOnce == oneByOne)
    if case .success = oneByOne { #expect(whole.absoluteOffset == single.absoluteOffset) }
  }
}

@Suite("Errors", .toolThreads)
struct ErrorTests {
  @Test func descriptionNamesStructureAndOffset() {
    let error = DiscKitError.malformed("UDF File Entry", at: 0x8f800, "bad")
    #expect(error.description == "UDF File Entry at byte 0x8f800 (587776): bad")
  }

  @Test func operatingSystemFailuresKeepTheirErrno() {
    #expect {
      _ = try FileByteSource(path: "/nonexistent/disckit-test")
    } throws: { error in
      (error as? DiscKitError)?.errno == .noSuchFileOrDirectory
        && (error as? DiscKitError)?.code == .cannotOpen
    }
  }
}
