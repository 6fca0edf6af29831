@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitCLI
@testable import DiscKitCrosscheck

/// `disckit crosscheck` and `titles` on a disc with an interleaved angle block: the title's bytes are
/// compared with libdvdnav's playback (not libdvdread's raw cell ranges), and the listed size is
/// the bytes a player reads for one angle.
@Suite("DVD interleaved angle block: crosscheck and titles", .toolThreads)
struct DVDInterleavedCrosscheckTests {
  @Test(.enabled(if: InterleavedAngleDisc.toolsAvailable, "needs ffmpeg and dvdauthor"))
  func crosscheckAgreesAndSizeIsOneAngle() throws {
    let built = try InterleavedAngleDisc.shared.get()
    let image = try DiscImage.open(path: built.path)
    #expect(try DVDCrosscheck.compare(disc: image, compareBytes: true) == [])
    let disc = try DVDDisc(fileSystem: image.fileSystem)
    let title = try disc.title(1)
    let played = try disc.byteSource(title: 1).size
    #expect(try Disc(image: image).title(key: "1").size == played)
    #expect(title.sizeBytes > played)  // the raw block range holds every angle's units
  }
}
