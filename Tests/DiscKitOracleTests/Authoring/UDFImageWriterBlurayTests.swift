import DiscKit
import DiscKitAuthoring
import DiscKitReference
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// Real disc metadata (../shared/realdata/bluray) wrapped into images: libbluray lists the same
/// titles from the image as from the folder.
@Suite("UDF image writer: real Blu-ray folders", .toolThreads)
struct UDFImageWriterBlurayTests {
  /// Every real disc folder holding BDMV/.
  static let discs: [String] = {
    guard let root = Fixtures.realData?.appendingPathComponent("bluray").path,
      let names = try? FileManager.default.contentsOfDirectory(atPath: root)
    else { return [] }
    return names.sorted().filter {
      FileManager.default.fileExists(atPath: root + "/" + $0 + "/BDMV")
    }
  }()

  static func listTitles(_ path: String) throws -> (status: Int32, lines: [String]) {
    let result = try Tool.run("bd_list_titles", ["-a", path])
    // Keep the title lines and the main title; drop anything naming the path.
    let lines = result.text.split(separator: "\n").map(String.init).filter { !$0.contains(path) }
    return (result.status, lines)
  }

  /// With the folder's own entry order the image lists byte-identical titles (same numbering
  /// and main title); sorted, it lists the same set of titles.
  @Test(
    .enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)),
    .enabled(if: Tool.has("bd_list_titles"), "bd_list_titles (libbluray-bin) is not installed"),
    arguments: discs)
  func wrappedDiscListsTheSameTitles(disc: String) throws {
    let folder = Fixtures.real("bluray/" + disc)
    let dir = try TemporaryDirectory()
    let image = dir.file(disc + ".iso")
    try UDFImageWriter(folder: folder, options: .init(entryOrder: .asListed)).write(to: image)
    let fromFolder = try Self.listTitles(folder)
    let fromImage = try Self.listTitles(image)
    #expect(fromFolder.status == 0)
    #expect(fromImage.status == fromFolder.status)
    #expect(fromImage.lines == fromFolder.lines)
    #expect(
      fromImage.lines.contains { $0.hasPrefix("index:") }
        == fromFolder.lines.contains { $0.hasPrefix("index:") })

    let sortedImage = dir.file(disc + "-sorted.iso")
    try UDFImageWriter(folder: folder).write(to: sortedImage)
    func titles(_ lines: [String]) -> [String] {
      lines.filter { $0.hasPrefix("index:") }.compactMap { line in
        line.range(of: "duration:").map { String(line[$0.lowerBound...]) }  // without the index
      }.sorted()
    }
    #expect(titles(try Self.listTitles(sortedImage).lines) == titles(fromFolder.lines))

    // And libudfread sees every file of the folder with its bytes.
    let udf = try Reference.UDFImage(path: image)
    let expected = try AuthoringFixtures.folderListing(folder)
    #expect(udf.recursiveListing().map(\.path).sorted() == expected.map(\.path))
    for entry in expected where !entry.isDirectory {
      #expect(
        Data(try udf.readFile(entry.path))
          == (try Data(contentsOf: URL(fileURLWithPath: folder + entry.path))))
    }
  }
}
