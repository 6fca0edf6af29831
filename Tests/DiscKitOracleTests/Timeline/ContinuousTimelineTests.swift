@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// The continuous timeline (`byteSource(timeline: .continuous)`) on the discs of
/// TestImages/scripts/make-epochs.sh, judged by ffprobe (timestamps it reads), libbluray
/// (playlist durations and chapters) and lsdvd (DVD title lengths). The checks that need neither
/// C library nor lsdvd are in DiscKitTests' suite of the same name.
@Suite("Continuous timeline")
struct ContinuousTimelineTests {
  static func epochs(_ name: String) -> String { EpochDiscs.path(name) }
  static let haveDiscs = EpochDiscs.haveDiscs
  static let haveFFprobe = EpochDiscs.haveFFprobe
  static let missing = EpochDiscs.missing

  // MARK: Blu-ray

  @Test(
    .enabled(if: haveDiscs && haveFFprobe, Comment(rawValue: missing)),
    arguments: [("bd-epochs", 0), ("bd-epochs", 1), ("bd-wrap", 0), ("bd-wrap", 1)])
  func blurayTitlePlaysAsOneTimeline(disc name: String, playlist: Int) throws {
    let path = Self.epochs(name + ".iso")
    let disc = try BlurayDisc(disc: try DiscImage.open(path: path))
    let title = try disc.title(playlist: String(format: "%05d.mpls", playlist))
    let reference = try Reference.Bluray(path: Self.epochs(name))
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
  @Test(.enabled(if: haveDiscs, Comment(rawValue: missing)))
  func wrappedClipAgainstLibbluray() throws {
    let disc = try BlurayDisc(disc: try DiscImage.open(path: Self.epochs("bd-wrap.iso")))
    let reference = try Reference.Bluray(path: Self.epochs("bd-wrap"))
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
    let m2ts = Self.epochs("bd-wrap/BDMV/STREAM/\(single.clips[0].clipID).m2ts")
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

  /// EP-map seek across the wrap: reading from each chapter's offset, ffprobe's first video frame
  /// is the chapter's time on the continuous timeline.
  @Test(.enabled(if: haveDiscs && haveFFprobe, Comment(rawValue: missing)))
  func chapterSeekAcrossTheWrap() throws {
    let disc = try BlurayDisc(disc: try DiscImage.open(path: Self.epochs("bd-wrap.iso")))
    let dir = try TemporaryDirectory("timeline")
    for playlist in ["00000.mpls", "00001.mpls"] {
      let title = try disc.title(playlist: playlist)
      let source = try title.byteSource(timeline: .continuous)
      let base = UInt64(title.clips[0].inTime) * 2
      #expect(title.chapters.count >= 4)
      for chapter in title.chapters {
        let offset = chapter.offset
        #expect(offset == title.byteOffset(forTitleTime: UInt64(chapter.titleTime) * 2))
        let bytes = try source.bytes(at: offset, count: Int(min(source.size - offset, 200_000)))
        let path = dir.file("chapter.m2ts")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let p = try EpochDiscs.probe(path)
        let first = try #require(p.frames.first, "\(playlist) chapter \(chapter.index)")
        let expected = (base + UInt64(chapter.titleTime) * 2) & TimestampField.mask
        #expect(
          UInt64(bitPattern: first) & TimestampField.mask == expected,
          "\(playlist) chapter \(chapter.index + 1) at byte \(offset)")
      }
    }
  }

  // MARK: DVD

  /// Cells from different VOB files (their timestamps restart): one timeline, as long as lsdvd
  /// says.
  @Test(
    .enabled(
      if: haveDiscs && haveFFprobe && Tool.has("lsdvd"),
      "needs ffprobe, lsdvd and make-epochs.sh output"),
    arguments: [1, 2])
  func dvdTitlePlaysAsOneTimeline(_ number: Int) throws {
    let path = Self.epochs("dvd-epochs.iso")
    let disc = try DVDDisc(fileSystem: try DiscImage.open(path: path).fileSystem)
    let lsdvd = try LsdvdOracle.run(path)
    let track = try #require(lsdvd.tracks.first { $0.ix == number })
    let seconds = try #require(Double(track.length))
    let dir = try TemporaryDirectory("timeline")
    let p = try EpochDiscs.probe(
      try disc.byteSource(title: number, timeline: .continuous), in: dir, name: "title.vob")
    // The NAV packets (stream 0, dvd_nav_packet) carry no timestamps ffprobe reports.
    EpochDiscs.expectOneTimeline(
      p, lasting: Int64((seconds * 90000).rounded()), "DVD title \(number)")
    let original = try EpochDiscs.probe(
      try disc.byteSource(title: number, timeline: .original), in: dir, name: "o.vob")
    let back = original.timestamps.values.contains { ts in
      zip(ts, ts.dropFirst()).contains { $1 < $0 }
    }
    #expect(back, "the original title restarts its timestamps")
  }

}
