@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// A bridge image whose UDF volume is destroyed is read through its ISO9660 side, with a note;
/// the listing then equals what the UDF side listed before the damage.
@Suite("UDF to ISO9660 fallback", .toolThreads)
struct BridgeFallbackTests {
  static let image = Fixtures.generated("dvd-pal.iso")

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: image), "run TestImages/scripts/make-all.sh"))
  func damagedUDFFallsBackToISO9660() throws {
    var bytes = try FileByteSource(path: Self.image).readAll(limit: 64 << 20)
    let intact = try DiscImage.open(source: MemoryByteSource(bytes))
    #expect(intact.fileSystem.kind == .udf)
    #expect(intact.notes.isEmpty)
    // Destroy every anchor volume descriptor pointer (sectors 256, N-1, N-257).
    let sectors = bytes.count / 2048
    for sector in [256, sectors - 1, sectors - 257] where sector > 0 {
      for i in 0..<2048 { bytes[sector * 2048 + i] = 0 }
    }
    #expect(throws: DiscKitError.self) { try UDFFileSystem(source: MemoryByteSource(bytes)) }
    let damaged = try DiscImage.open(source: MemoryByteSource(bytes))
    #expect(damaged.fileSystem.kind == .iso9660)
    #expect(damaged.notes.count == 1)
    #expect(damaged.kind == .dvd)
    func files(_ disc: DiscImage) throws -> [String: Int64] {
      Dictionary(
        uniqueKeysWithValues: try disc.fileSystem.recursiveContents().filter { !$0.isDirectory }.map
        {
          ($0.path.uppercased(), $0.size)
        })
    }
    #expect(try files(damaged) == files(intact))
  }
}
