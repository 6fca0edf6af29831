@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// DiscKit's UDF reader on images of Debian tools (pycdlib, mkudffs; udfinfo as the oracle) and on
/// built images read under other layouts (split metadata, sparing table), chunkings and tasks.
/// The comparisons with libudfread are in `DiscKitOracleTests` (`UDFReferenceTests`).
@Suite("UDF reader", .toolThreads)
struct UDFReaderTests {
  typealias B = UDFTestImageBuilder

  @Test("the pycdlib image has what make-udf.sh put in it")
  func pycdlibContents() throws {
    let fs = try UDFFileSystem(
      source: try FileByteSource(path: UDFTesting.generated("udf-pycdlib-260.iso")))
    // pycdlib's "2.60" volume records UDF revision 1.02 in its domain identifiers (udfinfo agrees).
    #expect(
      fs.revision == (try UDFTesting.udfinfo(UDFTesting.generated("udf-pycdlib-260.iso")))["udfrev"]
    )
    let paths = try fs.recursiveContents().map(\.path)
    #expect(paths.contains("/Ünïcødé ж/Fé Θ 日本.txt"))
    #expect(try fs.entry(atPath: "/big.bin").size == 1536 * 1024 + 123)
  }

  @Test("mkudffs BD-R image with a virtual partition (VAT) is reported as unsupported")
  func virtualPartition() throws {
    let path = UDFTesting.generated("udf-mkudffs-250-bdr.img")
    let error = UDFTesting.error { () throws(DiscKitError) in
      _ = try UDFFileSystem(source: try FileByteSource(path: path))
    }
    #expect(error?.code == .unsupported)
  }

  @Test("metadata file split in two extents (libudfread maps only the first)")
  func splitMetadata() throws {
    let dir = try TemporaryDirectory()
    let whole = B()
    whole.build(B.sampleTree())
    let split = B(B.Config(splitMetadata: true))
    split.build(B.sampleTree())
    let reference = try UDFTesting.write(whole, in: dir, name: "whole.udf")
    let splitPath = try UDFTesting.write(split, in: dir, name: "split.udf")
    let a = try UDFFileSystem(source: try FileByteSource(path: reference))
    let b = try UDFFileSystem(source: try FileByteSource(path: splitPath))
    // Same tree as the unsplit image, which itself matches libudfread (test above).
    #expect(try a.recursiveContents() == b.recursiveContents())
    for (file, bytes) in split.expected { #expect(try b.readFile(atPath: file) == bytes) }
  }

  @Test("sparable partition with relocated packets is read through the sparing table")
  func sparingTable() throws {
    let plain = B(B.Config(revision: 0x0201, metadata: false))
    plain.build(B.sampleTree(form: .short))
    let sparable = B(
      B.Config(
        revision: 0x0201, metadata: false, sparable: true,
        relocate: ["/BDMV/STREAM/00002.m2ts", "/Ünïcødé ж 日本/Fé.txt"]))
    sparable.build(B.sampleTree(form: .short))
    #expect(sparable.relocations.count == 3)
    let expected = try UDFFileSystem(source: MemoryByteSource(plain.imageBytes()))
      .recursiveContents()
    let fs = try UDFFileSystem(source: MemoryByteSource(sparable.imageBytes()))
    #expect(try fs.recursiveContents() == expected)
    for (file, bytes) in sparable.expected {
      #expect(try fs.readFile(atPath: file) == bytes, "\(file)")
    }
  }

  @Test("concurrent listings and reads agree")
  func concurrentUse() async throws {
    let builder = B()
    builder.build(B.sampleTree())
    let fs = try UDFFileSystem(source: MemoryByteSource(builder.imageBytes()))
    let expected = builder.expected
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          _ = try fs.recursiveContents()
          for (file, bytes) in expected { #expect(try fs.readFile(atPath: file) == bytes) }
        }
      }
      try await group.waitForAll()
    }
  }

  @Test(
    "file reads under several chunkings equal the whole file", arguments: [1, 7, 2048, 4095, 65536])
  func chunkings(chunk: Int) throws {
    let builder = B()
    builder.build(B.sampleTree())
    let fs = try UDFFileSystem(source: MemoryByteSource(builder.imageBytes()))
    let path = "/BDMV/STREAM/holes.bin"
    let file = try fs.openFile(atPath: path)
    var collected: [UInt8] = []
    var offset: Int64 = 0
    var buffer = [UInt8](repeating: 0, count: chunk)
    while true {
      let got = try buffer.withUnsafeMutableBytes { raw throws(DiscKitError) in
        try file.read(at: offset, into: raw)
      }
      if got == 0 { break }
      collected += buffer[0..<got]
      offset += Int64(got)
    }
    #expect(collected == builder.expected[path])
  }

  @Test("descriptor CRC is CRC-ITU-T (check value of \"123456789\" is 0x31C3)")
  func crcCheckValue() {
    #expect(UDFTestImageBuilder.crc(ArraySlice(Array("123456789".utf8))) == 0x31C3)
  }

  @Test("case-insensitive lookup and not-found errors")
  func lookups() throws {
    let builder = B()
    builder.build(B.sampleTree())
    let fs = try UDFFileSystem(source: MemoryByteSource(builder.imageBytes()))
    #expect(
      try fs.readFile(atPath: "/bdmv/stream/00001.M2TS")
        == builder.expected["/BDMV/STREAM/00001.m2ts"])
    #expect(
      UDFTesting.error { () throws(DiscKitError) in _ = try fs.openFile(atPath: "/nope") }?.code
        == .notFound)
    #expect(
      UDFTesting.error { () throws(DiscKitError) in _ = try fs.openFile(atPath: "/BDMV") }?.code
        == .invalidArgument)
  }
}
