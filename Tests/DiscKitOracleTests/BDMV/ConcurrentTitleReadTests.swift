@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// What a streaming server does: open a Blu-ray image once, then read its main title at random
/// offsets from many tasks at once. The title's bytes equal libbluray's `bd_read` from the image
/// (after normalising the packets libbluray wipes: it sets the PID of packets outside the in/out
/// window to 0x1FFF), and every concurrent read equals the same range of them.
@Suite("Concurrent title reads from an image", .toolThreads)
struct ConcurrentTitleReadTests {
  @Test func randomReadsFromManyTasksMatchLibbluray() async throws {
    let path = Fixtures.testImages.appendingPathComponent("sample-bluray.iso").path
    let disc = try BlurayDisc(disc: try DiscImage.open(path: path))
    let title = try disc.title(playlist: "00000.mpls")
    let source = try title.byteSource()

    let bd = try Reference.Bluray(path: path)
    #expect(bd.selectPlaylist(0))
    var reference: [UInt8] = []
    _ = bd.readToEnd { reference += $0 }
    #expect(Int64(reference.count) == source.size)
    #expect(UInt64(source.size) == bd.titleSize)

    let ours = try source.bytes(at: 0, count: Int(source.size))
    func normalised(_ bytes: [UInt8]) -> [UInt8] {
      var copy = bytes
      for packet in stride(from: 0, to: copy.count - 191, by: 192) {
        copy[packet + 5] = 0
        copy[packet + 6] = 0
      }
      return copy
    }
    #expect(normalised(ours) == normalised(reference))
    let expected = ours
    let size = source.size
    let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
      for task in 0..<16 {
        group.addTask {
          var state = UInt64(task + 1) &* 0x9E37_79B9_7F4A_7C15
          var bad = 0
          for _ in 0..<200 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let offset = Int64(state >> 20) % size
            let count = Int(min(Int64(1 + Int(state % 50_000)), size - offset))
            let bytes = try source.bytes(at: offset, count: count)
            if bytes[...] != expected[Int(offset)..<Int(offset) + count] { bad += 1 }
          }
          return bad
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }
}
