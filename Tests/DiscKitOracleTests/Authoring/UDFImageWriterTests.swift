import DiscKit
import DiscKitAuthoring
import DiscKitAuthoringTestSupport
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Images written by ``UDFImageWriter`` read back through libudfread (the reader libbluray uses).
/// `udfinfo` (udftools) and 7-Zip read them in DiscKitAuthoringTests' suite of the same name.
@Suite("UDF image writer", .toolThreads)
struct UDFImageWriterTests {
  static let revisions = UDFImageWriter.Revision.allCases

  /// libudfread lists the same paths, sizes and kinds as the folder, and reads identical bytes.
  @Test(arguments: revisions)
  func libudfreadReadsTheTreeBack(revision: UDFImageWriter.Revision) throws {
    let dir = try TemporaryDirectory()
    let source = dir.file("source")
    try AuthoringFixtures.makeMixedTree(at: source)
    let image = dir.file("out.iso")
    let writer = try UDFImageWriter(
      folder: source, options: .init(revision: revision, volumeLabel: "MIXED_TREE"))
    try writer.write(to: image)

    let expected = try AuthoringFixtures.folderListing(source)
    let udf = try Reference.UDFImage(path: image)
    let listed = udf.recursiveListing().sorted { $0.path < $1.path }
    #expect(listed.map(\.path) == expected.map(\.path))
    #expect(listed.map(\.size) == expected.map(\.size))
    #expect(listed.map(\.isDirectory) == expected.map(\.isDirectory))
    #expect(udf.volumeIdentifier == "MIXED_TREE")
    for entry in expected where !entry.isDirectory {
      let bytes = try udf.readFile(entry.path)
      let original = try Data(contentsOf: URL(fileURLWithPath: source + entry.path))
      #expect(Data(bytes) == original, "bytes of \(entry.path)")
    }
    let tags = try AuthoringFixtures.checkTags(image)
    #expect(tags.bad == "BAD none")
    // Two volume descriptor sequences, three anchors, one integrity descriptor, FSD + mirror,
    // one Extended File Entry per file, directory, metadata file and mirror, twice (mirror).
    #expect(
      tags.counts[1] == 2 && tags.counts[5] == 2 && tags.counts[6] == 2 && tags.counts[2] == 3)
    #expect(tags.counts[9] == 1 && tags.counts[256] == 2)
    #expect(tags.counts[266] == 2 * (expected.count + 1) + 2)
    #expect(writer.fileCount == expected.filter { !$0.isDirectory }.count)
    #expect(writer.directoryCount == expected.filter(\.isDirectory).count + 1)
  }

  /// A sparse file larger than 1 GiB is split into extents of at most 2^30 - 2048 bytes, its
  /// holes stay holes in the image, and libudfread reads its data at every extent boundary.
  @Test func largeSparseFileSpansSeveralExtents() throws {
    let dir = try TemporaryDirectory()
    let source = dir.file("source")
    try FileManager.default.createDirectory(
      atPath: source + "/BDMV/STREAM", withIntermediateDirectories: true)
    let big = source + "/BDMV/STREAM/00001.m2ts"
    let size: Int64 = 5 * (1 << 30) + 123
    let extent: Int64 = (1 << 30) - 2048
    let marks: [Int64] = [0, extent - 3000, 2 * extent - 10, 3 * (1 << 30), size - 5000]
    _ = FileManager.default.createFile(atPath: big, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
    for (i, mark) in marks.enumerated() {
      try handle.seek(toOffset: UInt64(mark))
      try handle.write(contentsOf: AuthoringFixtures.bytes(5000, seed: UInt64(500 + i)))
    }
    try handle.truncate(atOffset: UInt64(size))
    try handle.close()
    try AuthoringFixtures.write(AuthoringFixtures.bytes(4000, seed: 9), source + "/BDMV/index.bdmv")

    let image = dir.file("big.iso")
    let writer = try UDFImageWriter(folder: source)
    try writer.write(to: image)
    #expect(writer.imageSize > size)
    #expect(AuthoringFixtures.allocatedBytes(image) < 64 << 20, "the image should stay sparse")

    let listing = try Reference.UDFImage(path: image).recursiveListing()
    #expect(listing.first { $0.path == "/BDMV/STREAM/00001.m2ts" }?.size == size)
    let original = try FileHandle(forReadingFrom: URL(fileURLWithPath: big))
    defer { try? original.close() }
    // Every data mark, every extent boundary (+-4 KiB) and some hole bytes.
    var probes = marks.map { ($0, 5000) }
    var boundary = extent
    while boundary < size {
      probes.append((boundary - 4096, 8192))
      boundary += extent
    }
    probes.append((size - 100, 100))
    probes.append((2 * (1 << 30), 4096))
    for (offset, count) in probes {
      let want = Int(min(Int64(count), size - offset))
      try original.seek(toOffset: UInt64(offset))
      let expected = [UInt8](try original.read(upToCount: want) ?? Data())
      let got = AuthoringFixtures.libudfreadRead(
        image: image, path: "/BDMV/STREAM/00001.m2ts", offset: offset, count: want)
      #expect(got == expected, "bytes at \(offset)")
    }
    // Five full extents and a short one: consecutive extents are recorded back to back.
    let first = try #require(
      AuthoringFixtures.libudfreadBlock(image: image, path: "/BDMV/STREAM/00001.m2ts", block: 0))
    let blocksPerExtent = UInt32(extent / 2048)
    #expect(
      AuthoringFixtures.libudfreadBlock(
        image: image, path: "/BDMV/STREAM/00001.m2ts", block: 5 * blocksPerExtent)
        == first + 5 * blocksPerExtent)

    if Tool.has("7z") {
      let list = try Tool.run("7z", ["l", "-slt", image])
      #expect(list.status == 0)
      #expect(list.text.contains("Size = \(size)"))
    }
  }

  /// Fragmented files (extents out of order, with gaps) and allocation descriptors pushed
  /// into Allocation Extent Descriptor chains read back identically through libudfread.
  @Test(arguments: [(1, nil), (3, nil), (8, nil), (1, 2), (2, 3), (5, 4)] as [(Int, Int?)])
  func fragmentedFilesAndExtentChains(fragmentBlocks: Int, maxDescriptors: Int?) throws {
    let dir = try TemporaryDirectory()
    let source = dir.file("source")
    for (i, size) in [0, 100, 2048, 2049, 40_000, 300_000].enumerated() {
      try AuthoringFixtures.write(
        AuthoringFixtures.bytes(size, seed: UInt64(i) + 40), source + "/f\(i).bin")
    }
    try AuthoringFixtures.write(AuthoringFixtures.bytes(70_000, seed: 3), source + "/sub/g.bin")
    let image = dir.file("frag.iso")
    try UDFImageWriter(
      folder: source,
      options: .init(
        fragmentBlocks: fragmentBlocks, maxAllocationDescriptorsPerBlock: maxDescriptors)
    ).write(to: image)

    let udf = try Reference.UDFImage(path: image)
    let expected = try AuthoringFixtures.folderListing(source)
    let listed = udf.recursiveListing().sorted { $0.path < $1.path }
    #expect(listed.map(\.path) == expected.map(\.path))
    #expect(listed.map(\.size) == expected.map(\.size))
    for entry in expected where !entry.isDirectory {
      let bytes = try udf.readFile(entry.path)
      #expect(
        Data(bytes) == (try Data(contentsOf: URL(fileURLWithPath: source + entry.path))),
        "\(entry.path)")
    }
    // The extents really are out of order: the file's second fragment lies before its first.
    let first = try #require(
      AuthoringFixtures.libudfreadBlock(image: image, path: "/f5.bin", block: 0))
    let second = try #require(
      AuthoringFixtures.libudfreadBlock(
        image: image, path: "/f5.bin", block: UInt32(fragmentBlocks)))
    #expect(second < first)
    if Tool.has("udfinfo") {
      #expect(try AuthoringFixtures.udfinfo(image).status == 0)
    }
    let tags = try AuthoringFixtures.checkTags(image)
    #expect(tags.bad == "BAD none")
    #expect((tags.counts[258] ?? 0 > 0) == (maxDescriptors != nil || fragmentBlocks == 1))
    // 7-Zip reads fragmented files but does not follow Allocation Extent Descriptors, so it is
    // checked only on images without chains (a file needs one past 114 extents).
    let perEntry = min(114, maxDescriptors ?? 114)
    let chained = expected.contains {
      ($0.size + Int64(2048 * fragmentBlocks) - 1) / Int64(2048 * fragmentBlocks) > perEntry
    }
    if Tool.has("7z"), !chained {
      let out = dir.file("extracted")
      let extract = try Tool.run("7z", ["x", "-y", "-o" + out, image])
      #expect(extract.status == 0, "\(extract.text) \(extract.stderr)")
      for entry in expected where !entry.isDirectory {
        let a = try Data(contentsOf: URL(fileURLWithPath: source + entry.path))
        let b = try? Data(contentsOf: URL(fileURLWithPath: out + entry.path))
        #expect(a == b, "7z bytes of \(entry.path)")
      }
    }
  }

  /// Entries are recorded sorted by name by default, or in the folder's own order on request.
  @Test func entryOrder() throws {
    let dir = try TemporaryDirectory()
    let source = dir.file("source")
    for name in ["zeta", "alpha", "Mid", "beta", "00010.mpls", "00002.mpls"] {
      try AuthoringFixtures.write(Data([1]), source + "/" + name)
    }
    let sorted = dir.file("sorted.iso")
    try UDFImageWriter(folder: source).write(to: sorted)
    let names = try Reference.UDFImage(path: sorted).recursiveListing().map(\.name)
    #expect(names == ["00002.mpls", "00010.mpls", "Mid", "alpha", "beta", "zeta"])

    let listed = dir.file("listed.iso")
    try UDFImageWriter(folder: source, options: .init(entryOrder: .asListed)).write(to: listed)
    let readdirOrder = try FileManager.default.contentsOfDirectory(atPath: source)
    #expect(try Reference.UDFImage(path: listed).recursiveListing().map(\.name) == readdirOrder)
  }

  /// The anchors are where UDF 2.2.3 puts them, with valid tags; libudfread finds the volume
  /// through the last-sector anchor when sector 256 is destroyed.
  @Test(arguments: [true, false])
  func anchorsAtTheEnd(anchorBeforeEnd: Bool) throws {
    let dir = try TemporaryDirectory()
    let source = dir.file("source")
    try AuthoringFixtures.write(AuthoringFixtures.bytes(10_000, seed: 1), source + "/a.bin")
    let image = dir.file("a.iso")
    let writer = try UDFImageWriter(
      folder: source, options: .init(anchorBeforeEnd: anchorBeforeEnd))
    try writer.write(to: image)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: image))
    let blocks = bytes.count / 2048
    func tag(_ sector: Int) -> (id: UInt16, location: UInt32) {
      let base = sector * 2048
      let id = UInt16(bytes[base]) | UInt16(bytes[base + 1]) << 8
      var location: UInt32 = 0
      for i in 0..<4 { location |= UInt32(bytes[base + 12 + i]) << (8 * UInt32(i)) }
      return (id, location)
    }
    #expect(tag(256).id == 2)
    #expect(tag(blocks - 1) == (2, UInt32(blocks - 1)))
    if anchorBeforeEnd {
      #expect(tag(blocks - 257) == (2, UInt32(blocks - 257)))
    }
    // Destroy the anchor at 256: libudfread falls back to the last sector.
    var damaged = bytes
    damaged.replaceSubrange((256 * 2048)..<(257 * 2048), with: Data(count: 2048))
    let damagedPath = dir.file("damaged.iso")
    try damaged.write(to: URL(fileURLWithPath: damagedPath))
    #expect(
      try Reference.UDFImage(path: damagedPath).readFile("/a.bin")
        == [UInt8](AuthoringFixtures.bytes(10_000, seed: 1)))
  }

  /// libudfread falls back to the Metadata Mirror File when the Metadata File's entry is lost,
  /// so the mirror is a real copy.
  @Test func mirrorIsACopyOfTheMetadata() throws {
    let dir = try TemporaryDirectory()
    let source = dir.file("source")
    try AuthoringFixtures.makeMixedTree(at: source)
    let image = dir.file("m.iso")
    try UDFImageWriter(folder: source).write(to: image)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: image))
    // The Metadata File entry is the first block of the partition (sector 288 per the LVD map).
    let partitionStart = 288 * 2048
    #expect(bytes[partitionStart] == 0x0A && bytes[partitionStart + 1] == 0x01)  // EFE tag 266
    #expect(bytes[partitionStart + 16 + 11] == 250)
    bytes.replaceSubrange(partitionStart..<(partitionStart + 2048), with: Data(count: 2048))
    let damaged = dir.file("damaged.iso")
    try bytes.write(to: URL(fileURLWithPath: damaged))
    let udf = try Reference.UDFImage(path: damaged)
    #expect(
      udf.recursiveListing().map(\.path).sorted()
        == (try AuthoringFixtures.folderListing(source)).map(\.path))
    #expect(
      try udf.readFile("/a/b/c/d/e/deep.dat") == [UInt8](AuthoringFixtures.bytes(5000, seed: 77)))
  }
}
