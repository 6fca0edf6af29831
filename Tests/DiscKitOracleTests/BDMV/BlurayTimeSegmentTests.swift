import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

@_spi(Formats) @testable import DiscKit

/// Each clip's GStreamer segment puts the clip's in-time at the title time libbluray reports for
/// that clip (`BLURAY_CLIP_INFO.start_time`), so PTS from every clip's epoch land on one timeline.
/// The C-free check is in DiscKitTests' suite of the same name.
@Suite("Blu-ray clip segments", .toolThreads)
struct BlurayTimeSegmentTests {
  @Test(needsRealData)
  func clipSegmentsStartWhereLibblurayStartsEachClip() throws {
    var clipsChecked = 0
    for path in LibblurayParityTests.discs {
      let bd = try Reference.Bluray(path: path)
      let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: path))
      for file in disc.playlists {
        guard let info = bd.playlistInfo(file.number), !info.clips.isEmpty,
          let title = try? disc.title(playlist: file.name), title.clips.count == info.clips.count
        else { continue }
        for (clip, reference) in zip(title.clips, info.clips) where clip.outTime >= clip.inTime {
          let segment = try #require(clip.timeSegment, "\(path) \(file.name)")
          let inTime = try #require(ClockTime.nanoseconds(ticks90kHz: reference.inTime90k))
          let expectedStart = try #require(
            ClockTime.nanoseconds(ticks90kHz: reference.startTime90k))
          // The PTS at the clip's in-time plays at libbluray's title time of the clip start...
          #expect(
            segment.toStreamTime(inTime) == expectedStart, "\(path) \(file.name) \(clip.clipID)")
          // ...and a PTS one second later, one second later on the title timeline.
          let later = reference.inTime90k + 90_000
          if later <= reference.outTime90k {
            #expect(
              title.titleTime(ofPTS: later, inClip: clip.index)
                == ClockTime.nanoseconds(ticks90kHz: reference.startTime90k + 90_000))
          }
          // PTS outside the clip's range have no title time.
          if reference.outTime90k + 1 < 1 << 33 {
            #expect(title.titleTime(ofPTS: reference.outTime90k + 1, inClip: clip.index) == nil)
          }
          clipsChecked += 1
        }
      }
    }
    #expect(clipsChecked > 200)
  }
}
