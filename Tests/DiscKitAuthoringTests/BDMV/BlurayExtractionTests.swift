@_spi(Formats) import DiscKit
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// Titles over real M2TS made by ffmpeg (``FFmpegTwoClipBluray``) read by many tasks at once.
/// (The title bytes, seeks and extraction against libbluray are in DiscKitOracleTests' suite of
/// the same name.)
@Suite("Blu-ray title bytes, seek and extraction", .toolThreads)
struct BlurayExtractionTests {
  @Test(.enabled(if: Tool.has("ffmpeg"), "needs ffmpeg"))
  func concurrentReadersSeeTheSameBytes() async throws {
    let (disc, _, _) = try FFmpegTwoClipBluray.make()
    let title = try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path)).title(
      playlist: "00001.mpls")
    let source = try title.byteSource()
    let whole = try FFmpegTwoClipBluray.readAll(source, chunk: 1 << 20)
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for k in 0..<16 {
        group.addTask {
          var ok = true
          for r in 0..<50 {
            let offset = Int64((k * 7919 + r * 104_729) % max(1, whole.count - 5000))
            let got = try source.bytes(at: offset, count: 4096)
            ok = ok && got[...] == whole[Int(offset)..<Int(offset) + 4096]
          }
          return ok
        }
      }
      for try await ok in group { #expect(ok) }
    }
  }
}
