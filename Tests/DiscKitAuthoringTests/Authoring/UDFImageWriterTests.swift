import DiscKit
import DiscKitAuthoring
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// Images written by ``UDFImageWriter`` read back by independent Debian tools: `udfinfo`
/// (udftools) and 7-Zip. (libudfread reads them in DiscKitOracleTests' suite of the same name.)
@Suite("UDF image writer", .toolThreads)
struct UDFImageWriterTests {
  static let revisions = UDFImageWriter.Revision.allCases

  /// `udfinfo` accepts the image and reports the label, the revision and the counts.
  @Test(
    .enabled(if: Tool.has("udfinfo"), "udfinfo (udftools) is not installed"), arguments: revisions)
  func udfinfoAcceptsTheImage(revision: UDFImageWriter.Revision) throws {
    let dir = try TemporaryDirectory()
    let source = dir.file("source")
    try AuthoringFixtures.makeMixedTree(at: source)
    let image = dir.file("out.iso")
    let writer = try UDFImageWriter(
      folder: source, options: .init(revision: revision, volumeLabel: "Ünïcode Label"))
    try writer.write(to: image)
    let (status, info) = try AuthoringFixtures.udfinfo(image)
    #expect(status == 0)
    #expect(info["label"] == "Ünïcode Label")
    #expect(info["lvid"] == "Ünïcode Label")
    #expect(info["blocksize"] == "2048")
    #expect(info["blocks"] == String(writer.imageSize / 2048))
    #expect(info["udfwriterev"] == revision.rawValue)
    #expect(info["udfrev"] == "2.50")  // UDF 2.60 media without pseudo-overwrite read as 2.50
    #expect(info["integrity"] == "closed")
    #expect(info["accesstype"] == "readonly")
    #expect(info["numfiles"] == String(writer.fileCount))
    #expect(info["numdirs"] == String(writer.directoryCount))
  }

  /// 7-Zip lists the image without warnings and extracts identical bytes.
  @Test(.enabled(if: Tool.has("7z"), "7z is not installed"), arguments: revisions)
  func sevenZipListsAndExtracts(revision: UDFImageWriter.Revision) throws {
    let dir = try TemporaryDirectory()
    let source = dir.file("source")
    try AuthoringFixtures.makeMixedTree(at: source)
    let image = dir.file("out.iso")
    try UDFImageWriter(folder: source, options: .init(revision: revision)).write(to: image)

    let list = try Tool.run("7z", ["l", "-slt", image])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(
      !list.text.contains("Warnings:") && !list.text.contains("ERRORS:"),
      "\(list.text.prefix(2000))")
    #expect(list.text.contains("Type = Udf"))
    let paths = Set(
      list.text.split(separator: "\n").filter { $0.hasPrefix("Path = ") }.map {
        "/" + $0.dropFirst(7)
      })
    let expected = try AuthoringFixtures.folderListing(source)
    #expect(Set(expected.map(\.path)).isSubset(of: paths))

    let out = dir.file("extracted")
    let extract = try Tool.run("7z", ["x", "-y", "-o" + out, image])
    #expect(extract.status == 0, "\(extract.stderr)")
    for entry in expected where !entry.isDirectory {
      let a = try Data(contentsOf: URL(fileURLWithPath: source + entry.path))
      let b = try Data(contentsOf: URL(fileURLWithPath: out + entry.path))
      #expect(a == b, "7z bytes of \(entry.path)")
    }
  }
}
