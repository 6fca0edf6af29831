@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Malformed UDF images: each gives a typed error naming the structure and absolute offset.
@Suite("UDF bad input", .toolThreads)
struct UDFBadInputTests {
  typealias B = UDFTestImageBuilder

  func failure(_ image: [UInt8]) -> DiscKitError? {
    UDFTesting.error { () throws(DiscKitError) in try UDFTesting.readEverything(image) }
  }

  @Test("truncated image: no anchor")
  func truncatedAnchor() {
    let image = B.small().imageBytes()
    let error = failure(Array(image.prefix(200 * 2048)))
    #expect(error?.code == .truncated)
    #expect(error?.structure == "UDF Anchor Volume Descriptor Pointer")
    #expect(error?.offset == Int64(256 * 2048))
  }

  @Test("truncated image at every 4 KiB boundary: typed error with an offset, or success")
  func truncatedEverywhere() {
    let builder = B.small(B.Config(metadata: false))
    let image = builder.imageBytes()
    var failures = 0
    for length in stride(from: 0, to: image.count, by: 4096) {
      if let error = failure(Array(image.prefix(length))) {
        failures += 1
        #expect(error.offset != nil, "\(error) at length \(length)")
      }
    }
    #expect(failures > 0)
    // Cut inside the file data: the anchor at 256 and the descriptors are present.
    let fileOffset = Int(builder.entryOffset("/a.bin"))
    let cut = Array(image.prefix(fileOffset + 2048))
    let error = failure(cut)
    #expect(error?.code == .malformed)
    #expect(error?.structure == "UDF allocation descriptor")
  }

  @Test("volume descriptor pointer pointing to its own sequence")
  func descriptorPointerLoop() {
    let error = failure(B.small(B.Config(vdpLoop: true)).imageBytes())
    #expect(error?.code == .loop)
    #expect(error?.structure == "UDF Volume Descriptor Pointer")
    #expect(error?.offset == Int64(33 * 2048))
  }

  @Test("allocation extent descriptor pointing to itself")
  func allocationExtentLoop() throws {
    let builder = B.small(
      B.Config(),
      [
        .file(
          B.File(
            name: "loop.bin", content: .bytes(.random(count: 8192, seed: 1)), extentLimit: 4096,
            adsPerDescriptor: 1, aedLoop: true))
      ])
    let image = builder.imageBytes()
    let fs = try UDFFileSystem(source: MemoryByteSource(image))
    #expect(try fs.entry(atPath: "/loop.bin").size == 8192)
    let error = UDFTesting.error { () throws(DiscKitError) in
      _ = try fs.openFile(atPath: "/loop.bin")
    }
    #expect(error?.code == .loop)
    #expect(error?.structure == "UDF Allocation Extent Descriptor")
    // The AED follows the file entry; its pointer is its second long_ad.
    let aed = builder.absoluteOffset(ofMetaBlock: (builder.entryBlocks["/loop.bin"] ?? 0) + 1)
    #expect(error?.offset == aed + 24 + 16)
  }

  @Test("directory that contains itself, in a recursive listing")
  func directoryLoop() throws {
    let builder = B.small(
      B.Config(), [.directory(B.Directory(name: "A", children: [], selfLoop: true))])
    let fs = try UDFFileSystem(source: MemoryByteSource(builder.imageBytes()))
    let error = UDFTesting.error { () throws(DiscKitError) in _ = try fs.recursiveContents() }
    #expect(error?.code == .loop)
    #expect(error?.structure == "UDF File Identifier Descriptor")
    let data = builder.absoluteOffset(ofMetaBlock: (builder.entryBlocks["/A"] ?? 0) + 1)
    #expect(error?.offset == data + 40)
  }

  @Test("extent past the end of the image")
  func extentPastEnd() throws {
    let builder = B.small(
      B.Config(), [.file(B.File(name: "far.bin", content: .bytes([1, 2, 3]), extentPastEnd: true))])
    let fs = try UDFFileSystem(source: MemoryByteSource(builder.imageBytes()))
    let error = UDFTesting.error { () throws(DiscKitError) in
      _ = try fs.openFile(atPath: "/far.bin")
    }
    #expect(error?.code == .malformed)
    #expect(error?.structure == "UDF allocation descriptor")
    #expect(error?.offset == builder.entryOffset("/far.bin") + 216)
  }

  /// Patches a little-endian field of the file entry of `path` and fixes its tag.
  func patched(_ builder: B, _ path: String, field: Int, value: UInt64, width: Int) -> [UInt8] {
    var image = builder.imageBytes()
    let entry = Int(builder.entryOffset(path))
    for index in 0..<width {
      image[entry + field + index] = UInt8((value >> (8 * UInt64(index))) & 0xFF)
    }
    UDFTesting.retag(&image, at: entry)
    return image
  }

  @Test("absurd L_AD, L_EA and information lengths")
  func absurdLengths() {
    let builder = B.small()
    let entry = builder.entryOffset("/a.bin")
    let lad = failure(patched(builder, "/a.bin", field: 212, value: 0x7FFF_FFF0, width: 4))
    #expect(lad?.code == .malformed)
    #expect(lad?.structure == "UDF File Entry")
    #expect(lad?.offset == entry + 212)
    let lea = failure(patched(builder, "/a.bin", field: 208, value: 0xFFFF_FFFF, width: 4))
    #expect(lea?.code == .malformed)
    #expect(lea?.offset == entry + 208)
    let info = failure(patched(builder, "/a.bin", field: 56, value: 1 << 50, width: 8))
    #expect(info?.code == .malformed)
    #expect(info?.offset == entry + 56)
    let dirInfo = failure(patched(builder, "/dir", field: 56, value: 1 << 40, width: 8))
    #expect(dirInfo?.code == .limitExceeded)
    #expect(dirInfo?.offset == builder.entryOffset("/dir") + 56)
    let strategy = failure(patched(builder, "/a.bin", field: 20, value: 4096, width: 2))
    #expect(strategy?.code == .unsupported)
    #expect(strategy?.offset == entry + 20)
  }

  @Test("bad tag checksum and bad CRC without a mirror copy")
  func badChecksum() {
    let builder = B.small(B.Config(metadata: false))
    let entry = Int(builder.entryOffset("/dir"))
    var image = builder.imageBytes()
    image[entry + 4] &+= 1
    let checksum = failure(image)
    #expect(checksum?.code == .checksumMismatch)
    #expect(checksum?.structure == "UDF File Entry")
    #expect(checksum?.offset == Int64(entry))
    image = builder.imageBytes()
    image[entry + 100] &+= 1  // inside the CRC-covered body
    let crc = failure(image)
    #expect(crc?.code == .checksumMismatch)
    #expect(crc?.offset == Int64(entry + 8))
    // A wrong tag location.
    image = builder.imageBytes()
    image[entry + 12] &+= 1
    UDFTesting.retag(&image, at: entry)
    let location = failure(image)
    #expect(location?.code == .malformed)
    #expect(location?.offset == Int64(entry + 12))
  }

  @Test("a bad main volume descriptor sequence falls back to the reserve sequence")
  func reserveSequence() throws {
    let builder = B.small()
    var image = builder.imageBytes()
    image[35 * 2048 + 4] &+= 1  // the main LVD's checksum
    let entries = try UDFTesting.readEverything(image)
    #expect(entries.count == 3)
    image[51 * 2048 + 4] &+= 1  // and the reserve LVD's
    let error = failure(image)
    #expect(error?.code == .checksumMismatch)
    #expect(error?.offset == Int64(35 * 2048))
  }

  @Test("volume recognition: UDF only with BEA01 then NSR0x")
  func recognition() throws {
    let image = B.small().imageBytes()
    #expect(try UDFFileSystem.hasVolumeRecognitionSequence(MemoryByteSource(image)))
    #expect(
      try !UDFFileSystem.hasVolumeRecognitionSequence(
        MemoryByteSource([UInt8](repeating: 0, count: 40_000))))
    var noNSR = image
    noNSR[17 * 2048 + 1] = UInt8(ascii: "X")
    #expect(try !UDFFileSystem.hasVolumeRecognitionSequence(MemoryByteSource(noNSR)))
    #expect(try !UDFFileSystem.hasVolumeRecognitionSequence(MemoryByteSource([1, 2, 3])))
  }

  @Test("random byte flips never crash (seeded)", arguments: [1, 2, 3, 4])
  func fuzz(seed: UInt64) {
    let builder = B.small(
      B.Config(metadata: seed % 2 == 0),
      [
        .file(
          B.File(
            name: "a.bin", content: .bytes(.random(count: 20_000, seed: 3)), extentLimit: 4096,
            adsPerDescriptor: 2)),
        .directory(
          B.Directory(
            name: "d",
            children: [.file(B.File(name: "i", content: .bytes([1, 2]), form: .embedded))],
            fragmented: true, deletedEntries: 1)),
      ])
    let original = builder.imageBytes()
    let structural = builder.sectors.keys.filter { $0 < builder.totalSectors }.sorted()
    var rng = SeededRandom(seed: seed)
    var outcomes = [0, 0]
    for round in 0..<250 {
      var image = original
      let sector = structural[Int.random(in: 0..<structural.count, using: &rng)]
      for _ in 0..<Int.random(in: 1...6, using: &rng) {
        let at = sector * 2048 + Int.random(in: 0..<(round % 3 == 0 ? 2048 : 256), using: &rng)
        image[at] = UInt8.random(in: 0...255, using: &rng)
      }
      if round % 2 == 0 { UDFTesting.retag(&image, at: sector * 2048) }
      if failure(image) == nil { outcomes[0] += 1 } else { outcomes[1] += 1 }
    }
    #expect(outcomes[0] + outcomes[1] == 250)
  }

  @Test(
    "random byte flips in descriptors of tool-made images never crash (seeded)",
    arguments: ["udf-genisoimage.iso", "udf-pycdlib-260.iso", "udf-mkudffs-201-hd.img"])
  func fuzzToolImages(name: String) throws {
    let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: UDFTesting.generated(name))))
    // Sectors that start with a descriptor tag UDF uses.
    let tags: Set<Int> = [1, 2, 3, 4, 5, 6, 7, 8, 9, 256, 257, 258, 261, 266]
    let structural = stride(from: 16, to: original.count / 2048, by: 1).filter { sector in
      let id = Int(original[sector * 2048]) | Int(original[sector * 2048 + 1]) << 8
      return tags.contains(id) && original[sector * 2048 + 2] < 4
    }
    #expect(structural.count > 5)
    var rng = SeededRandom(seed: UInt64(name.utf8.count))
    for round in 0..<150 {
      var image = original
      let sector = structural[Int.random(in: 0..<structural.count, using: &rng)]
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        image[sector * 2048 + Int.random(in: 0..<512, using: &rng)] = UInt8.random(
          in: 0...255, using: &rng)
      }
      if round % 2 == 0 { UDFTesting.retag(&image, at: sector * 2048) }
      if let error = failure(image) { #expect(!error.structure.isEmpty) }
    }
  }
}
