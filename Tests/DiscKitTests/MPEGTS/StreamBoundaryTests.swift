import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// A Blu-ray title concatenates clips whose continuity counters restart at each clip: told where
/// the clips begin, the scanner does not report those restarts, and nothing else changes.
@Suite("Scanning across clip boundaries")
struct StreamBoundaryTests {
  @Test func clipBoundariesAreNotContinuityErrors() throws {
    let path = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
    let title = try BlurayDisc(disc: try DiscImage.open(path: path)).title(playlist: "00000.mpls")
    #expect(title.clips.count == 2)
    let source = try title.byteSource()
    let plain = try PESPreScanner.scan(source: source)
    var options = PESScanOptions()
    options.streamBoundaries = [title.clips[1].titleOffset]
    let bounded = try PESPreScanner.scan(source: source, options: options)
    #expect(plain.continuityErrors > 0)
    #expect(
      plain.warnings.allSatisfy {
        $0.kind != .continuity || $0.offset ?? 0 >= title.clips[1].titleOffset
      })
    #expect(bounded.continuityErrors == 0)
    #expect(bounded.video == plain.video)
    #expect(bounded.audio == plain.audio)
    #expect(bounded.firstPATOffset == plain.firstPATOffset)
  }
}
