@_spi(Formats) import DiscKit
import DiscKitFuzzHarnesses
import DiscKitTestSupport
import Foundation
import Testing

/// The fuzzers' sparse image encoding (`Tests/Fuzz/sparse-image.py`, read by `SparseImage`) keeps
/// the structure the harnesses need: an image turned into its metadata sectors lists the same
/// files (paths and sizes) and, for a Blu-ray, the same playlists as the whole image.
@Suite("Sparse fuzz images", .toolThreads)
struct SparseImageTests {
  static let script = Fixtures.packageRoot.appendingPathComponent("Tests/Fuzz/sparse-image.py").path
  static let ready = Tool.has("python3")

  static func encoded(_ image: String, _ dir: TemporaryDirectory) throws -> [UInt8] {
    let out = dir.file("image.sparse")
    let run = try Tool.run("python3", [script, "encode", image, out, "--max-bytes", "131072"])
    try #require(run.status == 0, "\(run.stderr)")
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
  }

  static func listing(_ fileSystem: any DiscFileSystem) throws -> [String] {
    try fileSystem.recursiveContents(atPath: "/").map { "\($0.path) \($0.size)" }.sorted()
  }

  static var images: [String] {
    [Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path]
      + ["udf-pycdlib-260.iso", "udf-genisoimage.iso", "iso9660-joliet-rr.iso", "dvd-pal.iso"].map(
        Fixtures.generated
      )
      .filter { FileManager.default.fileExists(atPath: $0) }
  }

  @Test(
    "an image and its sparse form list the same files", .enabled(if: ready, "needs python3"),
    arguments: images)
  func sameListing(image: String) throws {
    let dir = try TemporaryDirectory()
    let bytes = try Self.encoded(image, dir)
    let whole = try DiscImage.open(path: image)
    let sparse = try DiscImage.open(source: bytes.withUnsafeBytes { SparseImage($0) })
    let expected = try Self.listing(whole.fileSystem)
    #expect(!expected.isEmpty)
    #expect(try Self.listing(sparse.fileSystem) == expected)
    #expect(bytes.count <= 131072)
    if whole.fileSystem.exists("/BDMV/index.bdmv") {
      let names = { (disc: DiscImage) throws -> [String] in
        try BlurayDisc(disc: disc).playlists.map(\.name).sorted()
      }
      #expect(try names(sparse) == names(whole))
    }
  }

  @Test("records: later ones win, cut ones are zero-filled, past the size ignored")
  func records() throws {
    // 4 sectors; sector 1 given twice (the second wins), sector 9 is past the end, sector 2's
    // record is cut by the end of the input.
    var input: [UInt8] = [4, 0, 0, 0]
    func record(_ sector: UInt32, _ bytes: [UInt8], declared: Int? = nil) {
      input += withUnsafeBytes(of: sector.littleEndian) { Array($0) }
      let n = UInt16(declared ?? bytes.count)
      input += [UInt8(n & 0xFF), UInt8(n >> 8)] + bytes
    }
    record(1, [1, 1, 1])
    record(9, [9])
    record(1, [2, 2])
    record(2, [3, 3], declared: 100)
    let image = input.withUnsafeBytes { SparseImage($0) }
    #expect(image.size == 4 * 2048)
    let all = try image.bytes(at: 0, count: 4 * 2048)
    #expect(Array(all[2048..<2051]) == [2, 2, 0])
    #expect(Array(all[4096..<4099]) == [3, 3, 0])
    #expect(
      all.enumerated().allSatisfy {
        [2048, 2049, 4096, 4097].contains($0.offset) || $0.element == 0
      })
  }
}
