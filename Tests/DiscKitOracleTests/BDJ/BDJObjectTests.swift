@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// BD-J objects authored here (``BDJTestObjects``), read back by libbluray's `bd_read_bdjo`; the
/// C-free checks are in DiscKitAuthoringTests' suite of the same name.
@Suite("BDJO", .toolThreads)
struct BDJObjectTests {
  @Test func libblurayReadsTheSameFields() throws {
    let dir = try TemporaryDirectory("disckit-bdjo")
    for (i, sample) in BDJTestObjects.samples().enumerated() {
      let path = dir.file("\(i).bdjo")
      let bytes = sample.serialize()
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let reference = try #require(Reference.readBDJO(path: path), "sample \(i)")
      let parsed = try BDJObject(bytes: bytes)
      #expect(Reference.libblurayView(of: parsed) == reference, "sample \(i)")
    }
  }
}
