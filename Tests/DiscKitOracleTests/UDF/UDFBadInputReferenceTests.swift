import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Malformed UDF images where libudfread is the oracle for what should still be read.
@Suite("UDF bad input vs libudfread", .toolThreads)
struct UDFBadInputReferenceTests {
  typealias B = UDFTestImageBuilder

  func failure(_ image: [UInt8]) -> DiscKitError? {
    UDFTesting.error { () throws(DiscKitError) in try UDFTesting.readEverything(image) }
  }

  @Test("a missing anchor at sector 256 falls back to the last sector; libudfread agrees")
  func anchorFallback() throws {
    let builder = B.small()
    var image = builder.imageBytes()
    let expected = try UDFTesting.readEverything(image)
    image.replaceSubrange(256 * 2048..<257 * 2048, with: [UInt8](repeating: 0, count: 2048))
    #expect(try UDFTesting.readEverything(image) == expected)
    let dir = try TemporaryDirectory()
    let path = dir.file("no256.udf")
    try Data(image).write(to: URL(fileURLWithPath: path))
    try UDFTesting.expectMatchesLibudfread(path)
    // Without any anchor: an error at sector 256.
    image.replaceSubrange(
      (image.count - 2048)..<image.count, with: [UInt8](repeating: 0, count: 2048))
    let error = failure(image)
    #expect(error?.structure == "UDF Anchor Volume Descriptor Pointer")
    #expect(error?.offset == Int64(256 * 2048))
  }
}
