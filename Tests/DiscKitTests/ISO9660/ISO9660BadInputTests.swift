@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Damaged images: copies of generated images with bytes patched or cut. Each case gives a
/// typed error naming the structure and absolute offset (or the documented behaviour).
@Suite("ISO9660 bad input", .toolThreads)
struct ISO9660BadInputTests {
  /// A record found by walking a directory extent of the raw image.
  struct RawRecord {
    var offset: Int64
    var extent: UInt32
    var length: UInt32
  }

  static func plain() throws -> PatchedByteSource {
    let path = try ISO9660GeneratedImageTests.image("iso9660-plain.iso")
    return PatchedByteSource(
      MemoryByteSource([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
  }

  /// Walks the directory at (`extent`, `length`) of `source` and returns the record whose
  /// identifier is `identifier` (e.g. `README.TXT;1`).
  static func record(_ source: any ByteSource, extent: UInt32, length: UInt32, _ identifier: String)
    throws -> RawRecord
  {
    let start = Int64(extent) * 2048
    let bytes = try source.bytes(at: start, count: Int(length))
    var position = 0
    while position < bytes.count {
      let recordLength = Int(bytes[position])
      if recordLength == 0 {
        position = (position / 2048 + 1) * 2048
        continue
      }
      let nameLength = Int(bytes[position + 32])
      let name = String(decoding: bytes[position + 33..<position + 33 + nameLength], as: UTF8.self)
      if name == identifier {
        func le32(_ at: Int) -> UInt32 {
          (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[position + at + $1]) << (8 * UInt32($1)) }
        }
        return RawRecord(offset: start + Int64(position), extent: le32(2), length: le32(10))
      }
      position += recordLength
    }
    throw DiscKitError(.notFound, identifier, at: start, "record not found")
  }

  static func rootRecord(_ source: any ByteSource, _ identifier: String) throws -> RawRecord {
    let fs = try ISO9660FileSystem(source: source, names: .plain)
    let root = try #require(fs.primary.rootDirectory)
    return try record(source, extent: root.extentLocation, length: root.dataLength, identifier)
  }

  static func le32(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  @Test func truncatedInsidePrimaryVolumeDescriptor() throws {
    let source = PatchedByteSource(try Self.plain(), size: 32768 + 100)
    #expect(!(try ISO9660FileSystem.hasPrimaryVolumeDescriptor(source)))
    let error = try #require(throws: DiscKitError.self) { try ISO9660FileSystem(source: source) }
    #expect(error.code == .truncated)
    #expect(error.structure == "ISO9660 volume descriptor")
    #expect(error.offset == 32768)
  }

  @Test func truncatedInsideDirectory() throws {
    let full = try Self.plain()
    let many = try Self.rootRecord(full, "MANY")
    #expect(many.length > 4096)
    let source = PatchedByteSource(full, size: Int64(many.extent) * 2048 + 3000)
    let fs = try ISO9660FileSystem(source: source)
    #expect(try fs.contentsOfDirectory(atPath: "/").count == 6)
    let error = try #require(throws: DiscKitError.self) {
      try fs.contentsOfDirectory(atPath: "/MANY")
    }
    #expect(error.code == .truncated)
    #expect(error.structure == "ISO9660 directory record for /MANY")
    #expect(error.offset == many.offset)
  }

  @Test func directoryContainingItselfIsALoop() throws {
    var source = try Self.plain()
    let docs = try Self.rootRecord(source, "DOCS")
    let notes = try Self.record(source, extent: docs.extent, length: docs.length, "NOTES")
    source.patch(notes.offset + 2, Self.le32(docs.extent))  // /DOCS/NOTES -> extent of /DOCS
    let fs = try ISO9660FileSystem(source: source)
    #expect(try fs.contentsOfDirectory(atPath: "/DOCS").map(\.name) == ["NOTES"])
    let error = try #require(throws: DiscKitError.self) { try fs.recursiveContents() }
    #expect(error.code == .loop)
    #expect(error.structure == "ISO9660 directory record for /DOCS/NOTES")
    #expect(error.offset == notes.offset)
  }

  @Test func rootPointingAtItselfFromAChildIsALoop() throws {
    var source = try Self.plain()
    let fs0 = try ISO9660FileSystem(source: source)
    let root = try #require(fs0.primary.rootDirectory)
    let data = try Self.rootRecord(source, "DATA")
    source.patch(data.offset + 2, Self.le32(root.extentLocation))
    let fs = try ISO9660FileSystem(source: source)
    let error = try #require(throws: DiscKitError.self) {
      try fs.contentsOfDirectory(atPath: "/DATA")
    }
    #expect(error.code == .loop)
    #expect(error.offset == data.offset)
  }

  @Test func fileExtentPastTheEnd() throws {
    var source = try Self.plain()
    let readme = try Self.rootRecord(source, "README.TXT;1")
    source.patch(readme.offset + 2, Self.le32(0x00FF_FFFF))
    let fs = try ISO9660FileSystem(source: source)
    #expect(try fs.entry(atPath: "/README.TXT").size == 20)
    let error = try #require(throws: DiscKitError.self) { try fs.openFile(atPath: "/README.TXT") }
    #expect(error.code == .truncated)
    #expect(error.structure == "ISO9660 directory record for /README.TXT")
    #expect(error.offset == readme.offset)
  }

  @Test func directoryExtentPastTheEnd() throws {
    var source = try Self.plain()
    let data = try Self.rootRecord(source, "DATA")
    source.patch(data.offset + 2, Self.le32(0x7FFF_FFFF))
    let fs = try ISO9660FileSystem(source: source)
    let error = try #require(throws: DiscKitError.self) {
      try fs.contentsOfDirectory(atPath: "/DATA")
    }
    #expect(error.code == .truncated)
    #expect(error.offset == data.offset)
  }

  /// A record length of 0 in the middle of a sector means "padding to the end of the sector"
  /// (ECMA-119 6.8.1.1): the records after it in that sector are not read.
  @Test func zeroRecordLengthSkipsToTheNextSector() throws {
    var source = try Self.plain()
    let noext = try Self.rootRecord(source, "NOEXT.;1")
    source.patch(noext.offset, [0])
    let fs = try ISO9660FileSystem(source: source)
    #expect(
      try fs.contentsOfDirectory(atPath: "/").map(\.name) == ["DATA", "DOCS", "EMPTYDIR", "MANY"])
    // The 300-entry directory spans sectors whose ends are zero-padded: all entries are there.
    #expect(try fs.contentsOfDirectory(atPath: "/MANY").count == 300)
  }

  @Test func recordLengthBelowTheMinimum() throws {
    var source = try Self.plain()
    let readme = try Self.rootRecord(source, "README.TXT;1")
    source.patch(readme.offset, [20])
    let fs = try ISO9660FileSystem(source: source)
    let error = try #require(throws: DiscKitError.self) { try fs.contentsOfDirectory(atPath: "/") }
    #expect(error.code == .malformed)
    #expect(error.structure == "ISO9660 directory /")
    #expect(error.offset == readme.offset)
  }

  @Test func nameLengthPastTheRecord() throws {
    var source = try Self.plain()
    let readme = try Self.rootRecord(source, "README.TXT;1")
    source.patch(readme.offset + 32, [200])
    let fs = try ISO9660FileSystem(source: source)
    let error = try #require(throws: DiscKitError.self) { try fs.contentsOfDirectory(atPath: "/") }
    #expect(error.code == .malformed)
    #expect(error.offset == readme.offset + 32)
  }

  @Test func recordPastTheEndOfTheDirectory() throws {
    var source = try Self.plain()
    let fs = try ISO9660FileSystem(source: source)
    let root = try #require(fs.primary.rootDirectory)
    let readme = try Self.rootRecord(source, "README.TXT;1")
    // Shrink the root directory so that it ends inside README.TXT's record.
    let cut = UInt32(readme.offset - Int64(root.extentLocation) * 2048 + 10)
    source.patch(fs.primary.offset + 156 + 10, Self.le32(cut))
    let damaged = try ISO9660FileSystem(source: source)
    let error = try #require(throws: DiscKitError.self) {
      try damaged.contentsOfDirectory(atPath: "/")
    }
    #expect(error.code == .malformed)
    #expect(error.offset == readme.offset)
  }

  @Test func descriptorSetWithoutTerminator() throws {
    var source = try Self.plain()
    let fs = try ISO9660FileSystem(source: source)
    let terminator = try #require(fs.descriptors.last)
    #expect(terminator.kind == .terminator)
    source.patch(terminator.offset + 1, Array("XXXXX".utf8))
    let error = try #require(throws: DiscKitError.self) { try ISO9660FileSystem(source: source) }
    #expect(error.code == .malformed)
    #expect(error.offset == terminator.offset + 1)

    var limits = ParsingLimits()
    limits.maxVolumeDescriptors = 1
    let limited = try #require(throws: DiscKitError.self) {
      try ISO9660FileSystem(source: try Self.plain(), limits: limits)
    }
    #expect(limited.code == .limitExceeded)
    #expect(limited.offset == 32768)
  }

  @Test func unsupportedLogicalBlockSize() throws {
    var source = try Self.plain()
    source.patch(32768 + 128, [0x00, 0x03])  // 768
    let error = try #require(throws: DiscKitError.self) { try ISO9660FileSystem(source: source) }
    #expect(error.code == .malformed)
    let blockSizeField: Int64 = 32768 + 128
    #expect(error.offset == blockSizeField)
  }

  // MARK: Multi-extent chains (the > 4 GiB image: BIG.BIN in two records, then SMALL.TXT)

  static func multiExtent() throws -> (PatchedByteSource, RawRecord, RawRecord, RawRecord) {
    let path = try ISO9660GeneratedImageTests.image("iso9660-multiextent.iso")
    let source = PatchedByteSource(try FileByteSource(path: path))
    let fs = try ISO9660FileSystem(source: source, names: .plain)
    let root = try #require(fs.primary.rootDirectory)
    let start = Int64(root.extentLocation) * 2048
    let bytes = try source.bytes(at: start, count: Int(root.dataLength))
    // The two BIG.BIN records share an identifier; find both by walking the records.
    var big: [RawRecord] = []
    var small: RawRecord? = nil
    var position = 0
    while position < bytes.count, bytes[position] != 0 {
      let nameLength = Int(bytes[position + 32])
      let name = String(decoding: bytes[position + 33..<position + 33 + nameLength], as: UTF8.self)
      let record = RawRecord(offset: start + Int64(position), extent: 0, length: 0)
      if name.hasPrefix("BIG.BIN") { big.append(record) }
      if name.hasPrefix("SMALL.TXT") { small = record }
      position += Int(bytes[position])
    }
    try #require(big.count == 2)
    #expect(try source.bytes(at: big[0].offset + 25, count: 1) == [0x80])
    #expect(try source.bytes(at: big[1].offset + 25, count: 1) == [0x00])
    return (source, big[0], big[1], try #require(small))
  }

  @Test func multiExtentChainInterruptedByAnotherName() throws {
    var (source, _, second, _) = try Self.multiExtent()
    let nameStart = second.offset + 33
    let first = try source.bytes(at: nameStart, count: 1)
    source.patch(nameStart, [first[0] &+ 1])  // "BIG.BIN" -> "CIG.BIN"
    let fs = try ISO9660FileSystem(source: source)
    let error = try #require(throws: DiscKitError.self) { try fs.contentsOfDirectory(atPath: "/") }
    #expect(error.code == .malformed)
    #expect(error.offset == second.offset)
    #expect(error.detail.contains("incomplete multi-extent chain"))
  }

  @Test func multiExtentChainWhoseLastRecordStillSaysMore() throws {
    var (source, _, second, small) = try Self.multiExtent()
    source.patch(second.offset + 25, [0x80])
    let fs = try ISO9660FileSystem(source: source)
    let error = try #require(throws: DiscKitError.self) { try fs.recursiveContents() }
    #expect(error.code == .malformed)
    #expect(error.offset == small.offset)
    #expect(error.detail.contains("incomplete multi-extent chain"))
  }

  @Test func multiExtentChainCutByTheEndOfTheDirectory() throws {
    var (source, _, _, small) = try Self.multiExtent()
    source.patch(small.offset + 25, [0x80])
    let fs = try ISO9660FileSystem(source: source)
    let error = try #require(throws: DiscKitError.self) { try fs.openFile(atPath: "/big.bin") }
    #expect(error.code == .malformed)
    #expect(error.offset == small.offset)
  }

  // MARK: Fuzz

  typealias SplitMix64 = SeededRandom

  /// Random byte flips in the descriptors and directories of the plain, Joliet and Rock Ridge
  /// images: every outcome is a listing or a DiscKitError (typed throws), never a trap or hang.
  @Test(arguments: ["iso9660-plain.iso", "iso9660-joliet.iso", "iso9660-rockridge.iso"])
  func randomByteFlips(image: String) throws {
    let path = try ISO9660GeneratedImageTests.image(image)
    let base = MemoryByteSource([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    let metadataEnd = min(base.size, 32768 + 24 * 2048)
    var rng = SplitMix64(seed: 0xD15C_0001 &+ UInt64(image.utf8.count))
    var successes = 0
    var failures: [String: Int] = [:]
    for _ in 0..<400 {
      var source = PatchedByteSource(base)
      for _ in 0..<Int.random(in: 1...6, using: &rng) {
        let offset = Int64.random(in: 32768..<metadataEnd, using: &rng)
        source.patch(offset, [UInt8.random(in: 0...255, using: &rng)])
      }
      do throws(DiscKitError) {
        let fs = try ISO9660FileSystem(source: source)
        for entry in try fs.recursiveContents() where !entry.isDirectory {
          let file = try fs.openFile(atPath: entry.path)
          _ = try file.bytes(at: 0, count: Int(min(file.size, 4096)))
        }
        successes += 1
      } catch {
        failures[error.code.description, default: 0] += 1
        #expect(!error.structure.isEmpty)
      }
    }
    #expect(successes > 0)
    #expect(!failures.isEmpty)
  }
}
