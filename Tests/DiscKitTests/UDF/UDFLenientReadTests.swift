@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Reading what libudfread reads where the meaning is unambiguous: short allocation descriptors of
/// files in the metadata partition that point outside it (the file data is in the physical
/// partition). The oracle is libudfread on the same image; DiscKit also says so in `info`.
@Suite("UDF lenient reads", .toolThreads)
struct UDFLenientReadTests {
  typealias B = UDFTestImageBuilder

  @Test("a conforming image has no deviation notes")
  func conformingImageHasNoNotes() throws {
    let dir = try TemporaryDirectory()
    let builder = B(B.Config())
    builder.build(B.sampleTree())
    let path = try UDFTesting.write(builder, in: dir)
    let fs = try UDFFileSystem(source: try FileByteSource(path: path))
    #expect(fs.checkDeviations() == [])
    #expect(InfoDocument(image: try DiscImage.open(path: path)).notes == nil)
  }
}
