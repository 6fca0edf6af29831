import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

@testable import DiscKitStreaming

/// The streaming fMP4 segment writer (``FMP4Segment``): planned first (the `moof`), its `mdat`
/// payload written a buffer at a time.
@Suite("fMP4 segments written in bounded memory", .toolThreads)
struct FMP4SegmentTests {
  static func plan(_ folder: String) throws -> FMP4Title? {
    let path = Fixtures.generated(folder)
    guard FileManager.default.fileExists(atPath: path + "/BDMV") else { return nil }
    return try FMP4Title(title: try Disc.open(path: path).title(key: "00000"))
  }

  /// A segment's source gives the same bytes however it is read: in small sequential reads (a
  /// server's chunks), from offsets in the header and in the payload, backwards (each read
  /// before the pass's position starts a new pass), and the payload ends exactly where the
  /// `moof`'s samples say.
  @Test func readsInAnyOrderGiveTheSameBytes() throws {
    guard let title = try Self.plan("codecs/hdr10-eac3") else { return }
    for rendition in [FMP4Title.Rendition.video] + title.audio.map({ .audio(pid: $0.pid) }) {
      let segment = try title.segment(rendition, index: title.segments.count / 2)
      let whole = try segment.bytes()
      #expect(Int64(whole.count) == segment.size)
      let source = segment.source
      // Sequential, 1000 bytes at a time.
      var pieces: [UInt8] = []
      var offset: Int64 = 0
      while offset < source.size {
        let chunk = try source.bytes(at: offset, count: Int(min(1000, source.size - offset)))
        pieces += chunk
        offset += Int64(chunk.count)
      }
      #expect(pieces == whole)
      // Scattered: from the end back to the start, across the header/payload boundary.
      let n = whole.count
      let header = segment.header.count
      for start in [n - 10, n / 2, header + 1, header - 5, 3, n / 3, 0] where start >= 0 {
        let count = min(777, n - start)
        #expect(
          try source.bytes(at: Int64(start), count: count) == Array(whole[start..<(start + count)]))
      }
      var buffer = [UInt8](repeating: 0, count: 16)
      let past = try buffer.withUnsafeMutableBytes { try source.read(at: Int64(n), into: $0) }
      #expect(past == 0)
    }
  }
}
