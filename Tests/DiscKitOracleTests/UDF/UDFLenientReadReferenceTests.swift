@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Reading what libudfread reads where the meaning is unambiguous: short allocation descriptors of
/// files in the metadata partition that point outside it (the file data is in the physical
/// partition). The oracle is libudfread on the same image; DiscKit also says so in `info`.
@Suite("UDF lenient reads vs libudfread", .toolThreads)
struct UDFLenientReadReferenceTests {
  typealias B = UDFTestImageBuilder

  @Test(
    "short ADs outside the metadata partition: read from the physical partition, like libudfread")
  func misplacedShortADsMatchLibudfread() throws {
    let dir = try TemporaryDirectory()
    let builder = Self.misplacedShortADs()
    let path = try UDFTesting.write(builder, in: dir)
    // Every short AD really points past the metadata partition (else the test proves nothing).
    let metadataBlocks = builder.metadataMainBlocks.count
    for file in ["/BDMV/index.bdmv", "/BDMV/STREAM/00001.m2ts", "/BDMV/STREAM/00002.m2ts"] {
      let first = try #require(builder.firstDataBlock[file])
      #expect(first >= metadataBlocks, "\(file) data at \(first), metadata has \(metadataBlocks)")
    }
    try UDFTesting.expectMatchesLibudfread(path)
    let fs = try UDFFileSystem(source: try FileByteSource(path: path))
    #expect(fs.deviations.isEmpty, "nothing read leniently before a file is opened")
    for (file, bytes) in builder.expected {
      #expect(try fs.readFile(atPath: file) == bytes, "\(file)")
    }
    let notes = fs.checkDeviations()
    #expect(notes.count >= 1 && notes.count <= UDFTestImageBuilder.maxNotesExpected)
    #expect(notes.allSatisfy { $0.contains("outside the metadata partition") })
    // `disckit info` shows the note.
    let report = InfoDocument(image: try DiscImage.open(path: path))
    #expect(report.notes?.contains { $0.contains("as libudfread does") } == true)
  }

  /// A UDF 2.50 image with a metadata partition whose files use short ADs holding physical block
  /// numbers past the end of the metadata partition (a padding file pushes them there).
  static func misplacedShortADs() -> B {
    let builder = B(B.Config())
    builder.build([
      .file(B.File(name: "padding.bin", content: .bytes(.random(count: 200_000, seed: 11)))),
      .directory(
        B.Directory(
          name: "BDMV",
          children: [
            .file(
              B.File(
                name: "index.bdmv", content: .bytes(.random(count: 278, seed: 12)), form: .short)),
            .directory(
              B.Directory(
                name: "STREAM",
                children: [
                  .file(
                    B.File(
                      name: "00001.m2ts", content: .bytes(.random(count: 120_000, seed: 13)),
                      form: .short, extentLimit: 16384)),
                  .file(
                    B.File(
                      name: "00002.m2ts", content: .bytes(.random(count: 50_000, seed: 14)),
                      form: .short, extentLimit: 8192, adsPerDescriptor: 2)),
                ])),
          ])),
    ])
    return builder
  }
}

extension UDFTestImageBuilder {
  /// One note per file entry with misplaced ADs (three files), capped by DiscKit's log.
  static let maxNotesExpected = 3
}
