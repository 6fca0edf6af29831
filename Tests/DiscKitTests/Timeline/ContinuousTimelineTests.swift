@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The continuous timeline on the discs of TestImages/scripts/make-epochs.sh where no C library
/// is needed: the original timeline's jumps and EP-map seeks across the PTS wrap (ffprobe), DVD
/// titles as one timeline (ffprobe, lsdvd), reads in parallel against one full read, and a
/// truncated stream file. The comparisons with libbluray are in DiscKitOracleTests' suite of
/// the same name.
@Suite("Continuous timeline", .toolThreads)
struct ContinuousTimelineTests {
  // MARK: Blu-ray

  /// The original timeline of a multi-epoch title jumps (what the continuous one fixes).
  @Test(
    .enabled(
      if: EpochDiscs.haveDiscs && EpochDiscs.haveFFprobe, Comment(rawValue: EpochDiscs.missing)))
  func originalTimelineJumps() throws {
    let disc = try BlurayDisc(disc: try DiscImage.open(path: EpochDiscs.path("bd-epochs.iso")))
    let dir = try TemporaryDirectory("timeline")
    for playlist in ["00000.mpls", "00001.mpls"] {
      let title = try disc.title(playlist: playlist)
      let p = try EpochDiscs.probe(
        try title.byteSource(timeline: .original), in: dir, name: "o.m2ts")
      let jump = p.timestamps.values.contains { ts in
        zip(ts, ts.dropFirst()).contains { $1 < $0 || $1 - $0 > 90_000 }
      }
      #expect(jump, "\(playlist)")
    }
  }

  /// Any range read from any task equals the same range of one full read.
  @Test(
    .enabled(if: EpochDiscs.haveDiscs, Comment(rawValue: EpochDiscs.missing)),
    arguments: ["bd-epochs:00000.mpls", "bd-epochs:00001.mpls", "bd-wrap:00001.mpls", "dvd:1"])
  func randomRangesEqualTheFullRead(_ which: String) async throws {
    let source: any ByteSource
    if which.hasPrefix("dvd") {
      let disc = try DVDDisc(
        fileSystem: try DiscImage.open(path: EpochDiscs.path("dvd-epochs.iso")).fileSystem)
      source = try disc.byteSource(title: 1, timeline: .continuous)
    } else {
      let parts = which.split(separator: ":").map(String.init)
      let disc = try BlurayDisc(disc: try DiscImage.open(path: EpochDiscs.path(parts[0] + ".iso")))
      source = try disc.title(playlist: parts[1]).byteSource(timeline: .continuous)
    }
    let full = try source.bytes(at: 0, count: Int(source.size))
    var random = SeededRandom(seed: 9)
    var ranges: [Range<Int>] = []
    for _ in 0..<200 {
      let start = Int.random(in: 0..<full.count, using: &random)
      let length = Int.random(in: 1...min(400_000, full.count - start), using: &random)
      ranges.append(start..<start + length)
    }
    ranges.append(0..<1)
    ranges.append(full.count - 1..<full.count)
    let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
      for (i, r) in ranges.enumerated() {
        group.addTask {
          let part = try source.bytes(at: Int64(r.lowerBound), count: r.count)
          return part[...] == full[r] ? -1 : i
        }
      }
      var bad: [Int] = []
      for try await i in group where i >= 0 { bad.append(i) }
      return bad
    }
    #expect(mismatches.isEmpty, "ranges \(mismatches.map { ranges[$0] })")
  }

  // MARK: PTS wrap

  /// EP-map seek across the wrap: reading from each chapter's offset, ffprobe's first video frame
  /// is the chapter's time on the continuous timeline.
  @Test(
    .enabled(
      if: EpochDiscs.haveDiscs && EpochDiscs.haveFFprobe, Comment(rawValue: EpochDiscs.missing)))
  func chapterSeekAcrossTheWrap() throws {
    let disc = try BlurayDisc(disc: try DiscImage.open(path: EpochDiscs.path("bd-wrap.iso")))
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
      if: EpochDiscs.haveDiscs && EpochDiscs.haveFFprobe && Tool.has("lsdvd"),
      "needs ffprobe, lsdvd and make-epochs.sh output"),
    arguments: [1, 2])
  func dvdTitlePlaysAsOneTimeline(_ number: Int) throws {
    let path = EpochDiscs.path("dvd-epochs.iso")
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

  // MARK: Bad input

  /// A clip shorter than its clip information: a typed error naming the stream file, for both
  /// timelines.
  @Test(.enabled(if: EpochDiscs.haveDiscs, Comment(rawValue: EpochDiscs.missing)))
  func clipShorterThanItsClipInformation() throws {
    let dir = try TemporaryDirectory("timeline")
    let copy = dir.file("disc")
    try FileManager.default.copyItem(atPath: EpochDiscs.path("bd-epochs"), toPath: copy)
    let stream = copy + "/BDMV/STREAM/00001.m2ts"
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: stream))
    try handle.truncate(atOffset: 192 * 100)
    try handle.close()
    let disc = try BlurayDisc(disc: try DiscImage.open(path: copy))
    let title = try disc.title(playlist: "00000.mpls")
    for timeline in TitleTimeline.allCases {
      do {
        _ = try title.byteSource(timeline: timeline)
        Issue.record("\(timeline): no error")
      } catch {
        #expect(error.code == .truncated)
        #expect(error.structure.contains("00001.m2ts"), "\(error)")
      }
    }
  }
}
