@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// DVD time seek lands on the VOBU playing at the requested time, checked with ffprobe: the first
/// keyframe of the title cut at the returned offset is as far into the title as the seek says.
@Suite("DVD time seek", .toolThreads)
struct DVDTimeSeekTests {
  static let folder = Fixtures.generated("dvd-ntsc")
  static let ready = FileManager.default.fileExists(atPath: folder) && Tool.has("ffprobe")

  static func firstVideoPTS(_ path: String, keyframe: Bool) throws -> Int64? {
    let result = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,flags", "-of",
        "csv=p=0",
        "-read_intervals", "%+#40", path,
      ])
    for line in result.text.split(whereSeparator: \.isNewline) {
      let fields = line.split(separator: ",")
      guard fields.count >= 2, let pts = Int64(fields[0]) else { continue }
      if !keyframe || fields[1].hasPrefix("K") { return pts }
    }
    return nil
  }

  @Test(.enabled(if: ready, "needs ffprobe and TestImages/scripts/make-all.sh output"))
  func seekLandsOnTheVOBUPlayingThen() throws {
    let disc = try DVDDisc(fileSystem: try FolderFileSystem(root: Self.folder))
    let scratch = try TemporaryDirectory()
    var checked = 0
    for (i, result) in disc.titles.enumerated() {
      guard case .success(let title) = result, title.duration90k > 4 * 90_000 else { continue }
      let source = try disc.byteSource(title: i + 1)
      // Each cell may have its own PTS epoch (an STC discontinuity between cells authored from
      // separate files): measure within the cell.
      var cellStartPTS: [Int: Int64] = [:]
      func startPTS(ofCell index: Int) throws -> Int64 {
        if let known = cellStartPTS[index] { return known }
        let file = scratch.file("cell-\(i)-\(index).vob")
        let from = source.cellStarts[index]
        try Data(try source.bytes(at: from, count: Int(source.size - from)))
          .write(to: URL(fileURLWithPath: file))
        let pts = try #require(try Self.firstVideoPTS(file, keyframe: false))
        cellStartPTS[index] = pts
        return pts
      }
      var previous: Int64 = -1
      for seconds in stride(from: 0.0, to: Double(title.duration90k) / 90_000 - 0.5, by: 0.7) {
        let target = Int64(seconds * 90_000)
        let seek = try disc.timeSeek(in: source, titleSet: title.titleSet, to: target)
        #expect(seek.time90k <= target)
        #expect(target - seek.time90k < 90_000 + 9_000, "\(seconds) s: VOBU at \(seek.time90k)")
        #expect(seek.offset >= previous)
        previous = seek.offset
        let cut = scratch.file("cut-\(i)-\(checked).vob")
        try Data(try source.bytes(at: seek.offset, count: Int(source.size - seek.offset)))
          .write(to: URL(fileURLWithPath: cut))
        let key = try #require(try Self.firstVideoPTS(cut, keyframe: true))
        let cellTime = source.cells[0..<seek.cellIndex].reduce(Int64(0)) {
          $0 + $1.playback.playbackTime.ticks90k
        }
        // The keyframe there is as far into its cell as the navigation pack says (±2 frames).
        let intoCell = key - (try startPTS(ofCell: seek.cellIndex))
        #expect(
          abs(intoCell - (seek.time90k - cellTime)) <= 2 * 3_003,
          "\(seconds) s: \(intoCell) into the cell vs \(seek.time90k - cellTime)")
        checked += 1
      }
    }
    #expect(checked >= 10)
  }
}
