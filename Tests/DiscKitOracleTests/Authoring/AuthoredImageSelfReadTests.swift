import DiscKit
import DiscKitAuthoring
import DiscKitReference
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// Every image the writer produces reads identically through DiscKit's own UDF reader and through
/// libudfread: the same listing (paths, sizes, kinds, order) and the same bytes.
@Suite("Authored images through DiscKit's reader", .toolThreads)
struct AuthoredImageSelfReadTests {
  static let layouts: [(String, UDFImageWriter.Options)] = {
    let plain250 = UDFImageWriter.Options(revision: .udf250, volumeLabel: "SELF_250")
    let plain260 = UDFImageWriter.Options(revision: .udf260, volumeLabel: "SELF_260")
    var fragmented = UDFImageWriter.Options(revision: .udf250, volumeLabel: "FRAGMENTED")
    fragmented.fragmentBlocks = 3
    fragmented.maxAllocationDescriptorsPerBlock = 2
    return [("2.50", plain250), ("2.60", plain260), ("fragmented + AED chains", fragmented)]
  }()

  @Test(arguments: 0..<3)
  func readsLikeLibudfread(layout: Int) throws {
    let (name, options) = Self.layouts[layout]
    let dir = try TemporaryDirectory()
    let source = dir.file("source")
    try AuthoringFixtures.makeMixedTree(at: source)
    let image = dir.file("out.iso")
    try UDFImageWriter(folder: source, options: options).write(to: image)

    let disc = try DiscImage.open(path: image)
    #expect(disc.fileSystem.kind == .udf, "\(name)")
    #expect(disc.fileSystem.revision == (options.revision == .udf260 ? "2.60" : "2.50"), "\(name)")
    #expect(disc.fileSystem.volumeLabel == options.volumeLabel, "\(name)")
    let ours = try disc.fileSystem.recursiveContents()
    let reference = try Reference.UDFImage(path: image)
    let theirs = reference.recursiveListing()
    #expect(ours.map(\.path) == theirs.map(\.path), "\(name)")
    #expect(ours.map(\.size) == theirs.map(\.size), "\(name)")
    #expect(ours.map(\.isDirectory) == theirs.map(\.isDirectory), "\(name)")
    for entry in ours where !entry.isDirectory {
      let bytes = try disc.fileSystem.readFile(atPath: entry.path)
      #expect(bytes == (try reference.readFile(entry.path)), "\(name) \(entry.path)")
    }
  }
}
