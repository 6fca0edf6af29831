@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// The continuous timeline (`byteSource(timeline: .continuous)`) on the discs of
/// TestImages/scripts/make-epochs.sh, judged by ffprobe (timestamps it reads) and libbluray
/// (playlist durations and chapters). The checks that need no C library (ffprobe, lsdvd and the
/// bytes alone) are in DiscKitTests' suite of the same name.
@Suite("Continuous timeline", .toolThreads)
struct ContinuousTimelineTests {
  // MARK: Blu-ray

  @Test(
    .enabled(
      if: EpochDiscs.haveDiscs && EpochDiscs.haveFFprobe, Comment(rawValue: EpochDiscs.missing)),
    arguments: [("bd-epochs", 0), ("bd-epochs", 1), ("bd-wrap", 0), ("bd-wrap", 1)])
  func blurayTitlePlaysAsOneTimeline(disc name: String, playlist: Int) throws {
    let path = EpochDiscs.path(name + ".iso")
    let disc = try BlurayDisc(disc: try DiscImage.open(path: path))
    let title = try disc.title(playlist: String(format: "%05d.mpls", playlist))
    let reference = try Reference.Bluray(path: EpochDiscs.path(name))
    let info = try #require(reference.playlistInfo(playlist))
    #expect(UInt64(title.duration90k) == info.duration90k)
    let dir = try TemporaryDirectory("timeline")
    let continuous = try title.byteSource(timeline: .continuous)
    #expect(continuous.size == title.size)
    let p = try EpochDiscs.probe(continuous, in: dir, name: "title.m2ts")
    EpochDiscs.expectOneTimeline(p, lasting: Int64(info.duration90k), "\(name) \(playlist)")
    if title.clips.count == 1 {
      // One clip: byte-identical to the original.
      let a = try continuous.bytes(at: 0, count: Int(continuous.size))
      let b = try title.byteSource().bytes(at: 0, count: Int(continuous.size))
      #expect(a == b)
    }
  }

  // MARK: PTS wrap

  /// The clip across the 33-bit wrap: durations and chapters as libbluray computes them; the
  /// title's bytes are the whole clip (libbluray's EP-map search returns none of them); both
  /// playlists survive the smart selection.
  @Test(.enabled(if: EpochDiscs.haveDiscs, Comment(rawValue: EpochDiscs.missing)))
  func wrappedClipAgainstLibbluray() throws {
    let disc = try BlurayDisc(disc: try DiscImage.open(path: EpochDiscs.path("bd-wrap.iso")))
    let reference = try Reference.Bluray(path: EpochDiscs.path("bd-wrap"))
    for playlist in 0...1 {
      let title = try disc.title(playlist: String(format: "%05d.mpls", playlist))
      let info = try #require(reference.playlistInfo(playlist))
      #expect(UInt64(title.duration90k) == info.duration90k)
      #expect(title.chapters.map { UInt64($0.titleTime) * 2 } == info.chapters.map(\.start90k))
      #expect(title.chapters.map { UInt64($0.duration) * 2 } == info.chapters.map(\.duration90k))
      #expect(title.warnings.isEmpty, "\(title.warnings)")
      #expect(title.clips.allSatisfy { $0.endPacket > $0.startPacket })
    }
    let single = try disc.title(playlist: "00000.mpls")
    let m2ts = EpochDiscs.path("bd-wrap/BDMV/STREAM/\(single.clips[0].clipID).m2ts")
    let fileSize = try #require(
      try FileManager.default.attributesOfItem(atPath: m2ts)[.size] as? Int64)
    #expect(single.size == fileSize)
    let selection = disc.smartSelection()
    #expect(selection.entries.allSatisfy { $0.excluded == nil }, "\(selection.entries)")
    #expect(selection.main == "00001.mpls")
    // Segments: a PTS after the wrap maps past the title time of one before it.
    let clip = single.clips[0]
    let before = try #require(single.titleTime(ofPTS: UInt64(clip.inTime) * 2, inClip: 0))
    let after = try #require(
      single.titleTime(ofPTS: (UInt64(clip.inTime) * 2 + 270_000) & TimestampField.mask, inClip: 0))
    #expect(after - before == 3_000_000_000)
  }
}
