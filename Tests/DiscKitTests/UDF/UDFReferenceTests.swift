@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// DiscKit's UDF reader against libudfread (listing, sizes, bytes) and udfinfo (label, revision).
@Suite("UDF reader vs libudfread")
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

  @Test("mkudffs BD-R image with a virtual partition (VAT) is reported as unsupported")
  func virtualPartition() throws {
    let path = UDFTesting.generated("udf-mkudffs-250-bdr.img")
    let error = UDFTesting.error { () throws(DiscKitError) in
      _ = try UDFFileSystem(source: try FileByteSource(path: path))
    }
    #expect(error?.code == .unsupported)
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

  static func sampleTree(form: B.Form = .long, useFileEntry: Bool = false) -> [B.Node] {
    [
      .file(
        B.File(
          name: "index.bdmv", content: .bytes(.random(count: 278, seed: 1)), form: form,
          useFileEntry: useFileEntry)),
      .directory(
        B.Directory(
          name: "BDMV",
          children: [
            .directory(
              B.Directory(
                name: "STREAM",
                children: [
                  .file(
                    B.File(
                      name: "00001.m2ts", content: .bytes(.random(count: 300_000, seed: 2)),
                      form: form,
                      useFileEntry: useFileEntry, extentLimit: 16384)),
                  .file(
                    B.File(
                      name: "00002.m2ts", content: .bytes(.random(count: 70_000, seed: 3)),
                      form: form,
                      extentLimit: 8192, adsPerDescriptor: 2)),
                  .file(
                    B.File(
                      name: "holes.bin", content: .bytes(.random(count: 50_000, seed: 4)),
                      form: form,
                      extentLimit: 6144, holeEvery: 3)),
                ])),
            .directory(B.Directory(name: "PLAYLIST", children: [], embedded: true)),
            .file(
              B.File(
                name: "inline.txt", content: .bytes(Array("small inline file".utf8)),
                form: .embedded)),
            .file(B.File(name: "empty", content: .bytes([]), form: form)),
          ])),
      .directory(
        B.Directory(
          name: "Ünïcødé ж 日本",
          children: [
            .file(
              B.File(name: "Fé.txt", content: .bytes(.random(count: 5000, seed: 5)), form: form))
          ])),
    ]
  }

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
    builder.build(Self.sampleTree(form: form))
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

  @Test("metadata file split in two extents (libudfread maps only the first)")
  func splitMetadata() throws {
    let dir = try TemporaryDirectory()
    let whole = B()
    whole.build(Self.sampleTree())
    let split = B(B.Config(splitMetadata: true))
    split.build(Self.sampleTree())
    let reference = try UDFTesting.write(whole, in: dir, name: "whole.udf")
    let splitPath = try UDFTesting.write(split, in: dir, name: "split.udf")
    let a = try UDFFileSystem(source: try FileByteSource(path: reference))
    let b = try UDFFileSystem(source: try FileByteSource(path: splitPath))
    // Same tree as the unsplit image, which itself matches libudfread (test above).
    #expect(try a.recursiveContents() == b.recursiveContents())
    for (file, bytes) in split.expected { #expect(try b.readFile(atPath: file) == bytes) }
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
    good.build(Self.sampleTree())
    let bad = B(B.Config(corruptMainMetadataFile: true))
    bad.build(Self.sampleTree())
    let badBlock = B(B.Config(corruptMainCopyOfBlock: 1))  // the root directory's entry
    badBlock.build(Self.sampleTree())
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

  @Test("sparable partition with relocated packets is read through the sparing table")
  func sparingTable() throws {
    let plain = B(B.Config(revision: 0x0201, metadata: false))
    plain.build(Self.sampleTree(form: .short))
    let sparable = B(
      B.Config(
        revision: 0x0201, metadata: false, sparable: true,
        relocate: ["/BDMV/STREAM/00002.m2ts", "/Ünïcødé ж 日本/Fé.txt"]))
    sparable.build(Self.sampleTree(form: .short))
    #expect(sparable.relocations.count == 3)
    let expected = try UDFFileSystem(source: MemoryByteSource(plain.imageBytes()))
      .recursiveContents()
    let fs = try UDFFileSystem(source: MemoryByteSource(sparable.imageBytes()))
    #expect(try fs.recursiveContents() == expected)
    for (file, bytes) in sparable.expected {
      #expect(try fs.readFile(atPath: file) == bytes, "\(file)")
    }
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

  @Test("concurrent listings and reads agree")
  func concurrentUse() async throws {
    let builder = B()
    builder.build(Self.sampleTree())
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
    builder.build(Self.sampleTree())
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
    builder.build(Self.sampleTree())
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
