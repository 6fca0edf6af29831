@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// DiscKit's UDF reader against libudfread (listing, sizes, bytes) and udfinfo (label, revision).
@Suite("UDF reader vs libudfread", .toolThreads)
struct UDFReferenceTests {
  typealias B = UDFTestImageBuilder

  // MARK: Images made by Debian tools

  @Test(
    "images from genisoimage, pycdlib and mkudffs",
    arguments: [
      "udf-genisoimage.iso", "udf-pycdlib-260.iso", "udf-mkudffs-102-hd.img",
      "udf-mkudffs-201-hd.img",
      "udf-mkudffs-201-hd-noefe.img",
    ])
  func toolImages(name: String) throws {
    let path = UDFTesting.generated(name)
    try UDFTesting.expectMatchesLibudfread(path)
    let fs = try UDFFileSystem(source: try FileByteSource(path: path))
    let info = try UDFTesting.udfinfo(path)
    #expect(fs.volumeLabel == info["lvid"])
    #expect(fs.revision == info["udfrev"])
    #expect(fs.volumeIdentifier == (try Reference.UDFImage(path: path).volumeIdentifier))
    #expect(try DiscImage.open(path: path).fileSystem.kind == .udf)
  }

  @Test("mkudffs CD-RW image with a sparable partition (libudfread cannot open it): udfinfo agrees")
  func sparablePartition() throws {
    let path = UDFTesting.generated("udf-mkudffs-201-cdrw.img")
    let fs = try UDFFileSystem(source: try FileByteSource(path: path))
    let info = try UDFTesting.udfinfo(path)
    #expect(fs.volumeLabel == info["lvid"])
    #expect(fs.revision == info["udfrev"])
    #expect(try fs.recursiveContents().isEmpty)
    #expect(throws: DiscKitError.self) { try Reference.UDFImage(path: path) }
  }

  // MARK: Real images

  @Test(
    "real libcdio images",
    .enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)))
  func realImages() throws {
    for name in ["udf/libcdio_udf102.iso", "udf/libcdio_test-udf1.iso"] {
      let path = Fixtures.real(name)
      try UDFTesting.expectMatchesLibudfread(path)
      let fs = try UDFFileSystem(source: try FileByteSource(path: path))
      let info = try UDFTesting.udfinfo(path)
      #expect(fs.volumeLabel == info["lvid"])
      #expect(fs.revision == info["udfrev"])
    }
    // libcdio test/testudf.c: logical volume id "FéжΘvrier", root file "FéжΘvrier" of 10 bytes.
    let fs = try UDFFileSystem(
      source: try FileByteSource(path: Fixtures.real("udf/libcdio_udf102.iso")))
    #expect(fs.volumeLabel == "FéжΘvrier")
    #expect(try fs.entry(atPath: "/FéжΘvrier").size == 10)
  }

  // MARK: Synthetic UDF 2.50 metadata-partition images

  @Test(
    "synthetic images: metadata partition, ADs, AEDs, holes, inline data",
    arguments: [
      (B.Config(), B.Form.long), (B.Config(), .extended),
      (B.Config(revision: 0x0260, metadata: true, useEFE: false), .long),
      (B.Config(revision: 0x0201, metadata: false), .short),
      (B.Config(revision: 0x0102, metadata: false, useEFE: false), .short),
      (B.Config(revision: 0x0201, metadata: false), .long),
    ])
  func synthetic(config: B.Config, form: B.Form) throws {
    let dir = try TemporaryDirectory()
    let builder = B(config)
    builder.build(B.sampleTree(form: form))
    let path = try UDFTesting.write(builder, in: dir)
    try UDFTesting.expectMatchesLibudfread(path)
    // And against the builder's own expectations.
    let fs = try UDFFileSystem(source: try FileByteSource(path: path))
    #expect(
      fs.revision == String(config.revision >> 8, radix: 16) + "."
        + String(format: "%02x", config.revision & 0xFF))
    #expect(fs.volumeLabel == config.label)
    for (file, bytes) in builder.expected {
      #expect(try fs.readFile(atPath: file) == bytes, "\(file)")
    }
  }

  @Test("fragmented directories are read whole, deleted entries skipped")
  func fragmentedAndDeleted() throws {
    let dir = try TemporaryDirectory()
    let many = (0..<120).map {
      B.Node.file(B.File(name: "file number \($0).txt", content: .bytes([UInt8($0)])))
    }
    let builder = B()
    builder.build([
      .directory(B.Directory(name: "big", children: many, fragmented: true, deletedEntries: 3))
    ])
    let path = try UDFTesting.write(builder, in: dir)
    let fs = try UDFFileSystem(source: try FileByteSource(path: path))
    let names = try fs.contentsOfDirectory(atPath: "/big").map(\.name)
    #expect(names == (0..<120).map { "file number \($0).txt" })
    for index in [0, 57, 119] {
      #expect(try fs.readFile(atPath: "/big/file number \(index).txt") == [UInt8(index)])
    }
    // libudfread lists the deleted entries and reads only the first extent of the directory.
    let reference = try Reference.UDFImage(path: path).recursiveListing().map(\.name)
    #expect(reference.contains("deleted 0"))
    #expect(reference.count < names.count + 1)
  }

  @Test("metadata mirror is used when the main metadata file entry is bad")
  func mirrorFallback() throws {
    let dir = try TemporaryDirectory()
    let good = B()
    good.build(B.sampleTree())
    let bad = B(B.Config(corruptMainMetadataFile: true))
    bad.build(B.sampleTree())
    let badBlock = B(B.Config(corruptMainCopyOfBlock: 1))  // the root directory's entry
    badBlock.build(B.sampleTree())
    let goodPath = try UDFTesting.write(good, in: dir, name: "good.udf")
    let expected = try UDFFileSystem(source: try FileByteSource(path: goodPath)).recursiveContents()
    for builder in [bad, badBlock] {
      let path = try UDFTesting.write(builder, in: dir, name: "bad.udf")
      let fs = try UDFFileSystem(source: try FileByteSource(path: path))
      #expect(try fs.recursiveContents() == expected)
      for (file, bytes) in builder.expected { #expect(try fs.readFile(atPath: file) == bytes) }
    }
    // libudfread also falls back to the mirror when the metadata file entry is bad.
    try UDFTesting.expectMatchesLibudfread(try UDFTesting.write(bad, in: dir, name: "bad2.udf"))
  }

  @Test("a file over 4 GiB (sparse image) has the same size and bytes as libudfread reads")
  func largeFile() throws {
    let dir = try TemporaryDirectory()
    let size: Int64 = (5 << 30) + 12345
    let builder = B()
    builder.build([
      .directory(
        B.Directory(
          name: "STREAM",
          children: [.file(B.File(name: "00000.m2ts", content: .sparse(size), adsPerDescriptor: 2))]
        ))
    ])
    let path = try UDFTesting.write(builder, in: dir)
    try UDFTesting.expectMatchesLibudfread(path)
    let fs = try UDFFileSystem(source: try FileByteSource(path: path))
    let file = try fs.openFile(atPath: "/STREAM/00000.m2ts")
    #expect(file.size == size)
    #expect(try Reference.UDFImage(path: path).fileSize("/STREAM/00000.m2ts") == size)
    // The last block of the first extent carries the builder's pattern.
    let tail = try file.bytes(at: 0x3FFF_F800 - 2048, count: 2048)
    #expect(tail == builder.pattern(0, first: false))
    #expect(try fs.extents(ofFileAtPath: "/STREAM/00000.m2ts").reduce(0) { $0 + $1.length } == size)
  }

}
