@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// The continuous timeline (`byteSource(timeline: .continuous)`) on the discs of
/// TestImages/scripts/make-epochs.sh, judged by ffprobe (timestamps it reads), libbluray
/// (playlist durations and chapters) and lsdvd (DVD title lengths).
@Suite("Continuous timeline")
struct ContinuousTimelineTests {
  static func epochs(_ name: String) -> String { Fixtures.generated("epochs/" + name) }
  static let haveDiscs = FileManager.default.fileExists(atPath: epochs("bd-epochs.iso"))
  static let haveFFprobe = Tool.has("ffprobe")
  static let missing = "needs ffprobe and TestImages/scripts/make-epochs.sh output (make images)"

  /// What ffprobe reads in a file.
  struct Probe {
    /// DTS (else PTS) of every packet, per stream index, in file order.
    var timestamps: [Int: [Int64]] = [:]
    /// Presentation times of the decoded video frames, sorted.
    var frames: [Int64] = []
    var frameDuration: Int64 = 0
  }

  static func probe(_ path: String) throws -> Probe {
    var probe = Probe()
    let packets = try Tool.run(
      "ffprobe",
      ["-v", "error", "-show_entries", "packet=stream_index,pts,dts", "-of", "csv=p=0", path])
    #expect(packets.status == 0, "\(packets.stderr)")
    for line in packets.text.split(separator: "\n") {
      let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard f.count >= 3, let stream = Int(f[0]), let t = Int64(f[2]) ?? Int64(f[1]) else {
        continue
      }
      probe.timestamps[stream, default: []].append(t)
    }
    let frames = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries",
        "frame=best_effort_timestamp", "-of", "csv=p=0", path,
      ])
    #expect(frames.status == 0, "\(frames.stderr)")
    for line in frames.text.split(separator: "\n") {
      let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      if let t = f.first.flatMap({ Int64($0) }) { probe.frames.append(t) }
    }
    let rate = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=r_frame_rate", "-of",
        "csv=p=0", path,
      ])
    // The first line naming a rate (ffprobe may list the stream under its program too).
    let line = rate.text.split(separator: "\n").first { $0.contains("/") } ?? ""
    let parts = line.trimmingCharacters(in: CharacterSet(charactersIn: ", ")).split(separator: "/")
    if parts.count == 2, let n = Int64(parts[0]), let d = Int64(parts[1]), n > 0 {
      probe.frameDuration = 90_000 * d / n
    }
    probe.frames.sort()
    return probe
  }

  /// Writes `source` to a file and probes it.
  static func probe(_ source: any ByteSource, in dir: TemporaryDirectory, name: String) throws
    -> Probe
  {
    let path = dir.file(name)
    let bytes = try source.bytes(at: 0, count: Int(source.size))
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return try probe(path)
  }

  /// DTS never go back (nor jump forward by a second) in any stream; no gap between video frames over 2 frames; the video lasts
  /// `expected90k` within 2 frames.
  static func expectOneTimeline(_ p: Probe, lasting expected90k: Int64, _ what: String) {
    for (stream, ts) in p.timestamps {
      // ffprobe reads a big step back as a step forward across the wrap: a second is a jump too.
      let back = zip(ts, ts.dropFirst()).first { $1 < $0 || $1 - $0 > 90_000 }
      #expect(
        back == nil,
        "\(what): stream \(stream) jumps from \(back.map { "\($0.0) to \($0.1)" } ?? "")")
    }
    let frame = p.frameDuration
    #expect(frame > 0, "\(what): no frame duration")
    let gaps = zip(p.frames, p.frames.dropFirst()).map { $1 - $0 }
    #expect((gaps.max() ?? 0) <= 2 * frame, "\(what): a video gap of \(gaps.max() ?? 0) ticks")
    guard let first = p.frames.first, let last = p.frames.last else {
      Issue.record("\(what): no video frames")
      return
    }
    let duration = last - first + frame
    #expect(
      abs(duration - expected90k) <= 2 * frame,
      "\(what): lasts \(duration), expected \(expected90k)")
  }

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
    let p = try Self.probe(continuous, in: dir, name: "title.m2ts")
    Self.expectOneTimeline(p, lasting: Int64(info.duration90k), "\(name) \(playlist)")
    if title.clips.count == 1 {
      // One clip: byte-identical to the original.
      let a = try continuous.bytes(at: 0, count: Int(continuous.size))
      let b = try title.byteSource().bytes(at: 0, count: Int(continuous.size))
      #expect(a == b)
    }
  }

  /// The original timeline of a multi-epoch title jumps (what the continuous one fixes).
  @Test(.enabled(if: haveDiscs && haveFFprobe, Comment(rawValue: missing)))
  func originalTimelineJumps() throws {
    let disc = try BlurayDisc(disc: try DiscImage.open(path: Self.epochs("bd-epochs.iso")))
    let dir = try TemporaryDirectory("timeline")
    for playlist in ["00000.mpls", "00001.mpls"] {
      let title = try disc.title(playlist: playlist)
      let p = try Self.probe(try title.byteSource(timeline: .original), in: dir, name: "o.m2ts")
      let jump = p.timestamps.values.contains { ts in
        zip(ts, ts.dropFirst()).contains { $1 < $0 || $1 - $0 > 90_000 }
      }
      #expect(jump, "\(playlist)")
    }
  }

  /// Any range read from any task equals the same range of one full read.
  @Test(
    .enabled(if: haveDiscs, Comment(rawValue: missing)),
    arguments: ["bd-epochs:00000.mpls", "bd-epochs:00001.mpls", "bd-wrap:00001.mpls", "dvd:1"])
  func randomRangesEqualTheFullRead(_ which: String) async throws {
    let source: any ByteSource
    if which.hasPrefix("dvd") {
      let disc = try DVDDisc(
        fileSystem: try DiscImage.open(path: Self.epochs("dvd-epochs.iso")).fileSystem)
      source = try disc.byteSource(title: 1, timeline: .continuous)
    } else {
      let parts = which.split(separator: ":").map(String.init)
      let disc = try BlurayDisc(disc: try DiscImage.open(path: Self.epochs(parts[0] + ".iso")))
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
        let p = try Self.probe(path)
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
    let p = try Self.probe(
      try disc.byteSource(title: number, timeline: .continuous), in: dir, name: "title.vob")
    // The NAV packets (stream 0, dvd_nav_packet) carry no timestamps ffprobe reports.
    Self.expectOneTimeline(p, lasting: Int64((seconds * 90000).rounded()), "DVD title \(number)")
    let original = try Self.probe(
      try disc.byteSource(title: number, timeline: .original), in: dir, name: "o.vob")
    let back = original.timestamps.values.contains { ts in
      zip(ts, ts.dropFirst()).contains { $1 < $0 }
    }
    #expect(back, "the original title restarts its timestamps")
  }

  // MARK: Bad input

  /// A clip shorter than its clip information: a typed error naming the stream file, for both
  /// timelines.
  @Test(.enabled(if: haveDiscs, Comment(rawValue: missing)))
  func clipShorterThanItsClipInformation() throws {
    let dir = try TemporaryDirectory("timeline")
    let copy = dir.file("disc")
    try FileManager.default.copyItem(atPath: Self.epochs("bd-epochs"), toPath: copy)
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
