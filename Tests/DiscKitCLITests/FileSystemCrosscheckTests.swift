import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitCrosscheck

/// `disckit crosscheck` on file systems: DiscKit vs libudfread on real UDF images.
@Suite("File-system crosscheck", .toolThreads)
struct FileSystemCrosscheckTests {
  @Test("genisoimage and pycdlib UDF images: no differences with libudfread")
  func generatedImagesAgree() throws {
    for name in ["udf-genisoimage.iso", "udf-pycdlib-260.iso"] {
      let disc = try DiscImage.open(path: UDFTesting.generated(name))
      #expect(try FileSystemCrosscheck.compare(disc: disc) == [])
    }
  }

  @Test("real UDF images: no differences", .enabled(if: Fixtures.hasRealData))
  func realImagesAgree() throws {
    let disc = try DiscImage.open(path: Fixtures.real("udf/libcdio_udf102.iso"))
    #expect(try FileSystemCrosscheck.compare(disc: disc) == [])
  }

  @Test("listing differences are reported per path")
  func reportsDifferences() {
    typealias Row = FileSystemCrosscheck.Row
    let lines = FileSystemCrosscheck.listingDifferences(
      ours: [("/a", Row(size: 1, isDirectory: false)), ("/b", Row(size: 0, isDirectory: true))],
      theirs: [("/a", Row(size: 2, isDirectory: false)), ("/c", Row(size: 3, isDirectory: false))],
      referenceName: "libudfread")
    #expect(
      lines == [
        "size differs: /a: disckit 1, libudfread 2", "only in disckit: /b",
        "only in libudfread: /c",
      ])
  }
}
