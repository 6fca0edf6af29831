@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// A clip with three STC sequences (issue 20, `bd-stc` of TestImages/scripts/make-epochs.sh):
/// its clip information and the continuous output against the source streams (where each one's
/// first packet lies in the concatenation, its video presentation, key frames and frames by
/// ffprobe and ffmpeg). The comparisons with libbluray are in
/// DiscKitOracleTests' suite of the same name.
@Suite("Clips with several STC sequences", .toolThreads)
struct MultiSTCClipTests {
  @Test(.enabled(if: EpochDiscs.stcReady, "\(EpochDiscs.stcMissing)"))
  func clipInformationListsThreeSequences() throws {
    let disc = try EpochDiscs.stcDisc()
    let title = try disc.title(playlist: "00000.mpls")
    let info = try #require(disc.clipInformation(title.clips[0].clipID))
    let atc = try #require(info.sequence.atcSequences.first)
    #expect(info.sequence.atcSequences.count == 1)
    #expect(atc.stcSequences.map(\.spnSTCStart) == (try EpochDiscs.stcPartStarts()))
    for (k, part) in EpochDiscs.stcParts.enumerated() {
      let shown = try ClipJoinProbe.presentation(part)
      let stc = atc.stcSequences[k]
      #expect(Int64(stc.presentationStartTime) == shown.lowerBound / 2, "STC \(k) start")
      #expect(Int64(stc.presentationEndTime) == shown.upperBound / 2, "STC \(k) end")
    }
    // Title 1 plays the three sequences in order, each whole.
    #expect(title.clips.map(\.stcID) == [0, 1, 2])
    #expect(title.clips.map(\.inTime) == atc.stcSequences.map(\.presentationStartTime))
    #expect(title.clips.map(\.outTime) == atc.stcSequences.map(\.presentationEndTime))
    #expect(title.warnings.isEmpty, "\(title.warnings)")
  }

  /// The PTS of the first video PES (PID 0x1011) in 192-byte packets.
  static func firstVideoPTS(_ bytes: [UInt8]) -> Int64? {
    for p in stride(from: 4, to: bytes.count - 187, by: 192) where bytes[p] == 0x47 {
      guard Int(bytes[p + 1] & 0x1F) << 8 | Int(bytes[p + 2]) == 0x1011, bytes[p + 1] & 0x40 != 0
      else { continue }
      var q = p + 4
      if bytes[p + 3] & 0x20 != 0 { q += 1 + Int(bytes[p + 4]) }
      guard q + 14 <= p + 188, bytes[q + 7] & 0x80 != 0 else { continue }
      let b = bytes[(q + 9)..<(q + 14)].map(Int64.init)
      return (b[0] >> 1 & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1
    }
    return nil
  }

  /// The continuous output: counters and PCR continuous, ffmpeg silent, and the frames of each
  /// part decoded alone from its in-time to its out-time (as ClipJoinTests judges joins).
  @Test(.enabled(if: EpochDiscs.stcReady, "\(EpochDiscs.stcMissing)"), arguments: [0, 1])
  func continuousOutputDecodesAsTheSources(_ playlist: Int) throws {
    let disc = try EpochDiscs.stcDisc()
    let title = try disc.title(playlist: String(format: "%05d.mpls", playlist))
    let sources =
      playlist == 0 ? EpochDiscs.stcParts : [EpochDiscs.path("clips/e1.ts")] + EpochDiscs.stcParts
    let source = try title.byteSource(timeline: .continuous)
    let bytes = try source.bytes(at: 0, count: Int(source.size))
    #expect(ClipJoinProbe.continuityBreaks(bytes, packetSize: 192) == [])
    let pcrs = ClipJoinProbe.pcrs(bytes, packetSize: 192)
    let steps = zip(pcrs, pcrs.dropFirst()).map { ($1 - $0) & 0x1_FFFF_FFFF }
    #expect(!pcrs.isEmpty && steps.allSatisfy { $0 <= 9000 })
    let dir = try TemporaryDirectory("multi-stc")
    let path = dir.file("title.m2ts")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(try ClipJoinProbe.ffmpegWarnings(path) == "")
    // Time seek on the continuous timeline: the stream from `start` begins at the last key frame
    // of the sources at or before that title time (ffprobe's key-frame flags), on the title clock
    // (the first part's presentation start plus the title time).
    var keyFrames: [Int64] = []
    var itemStart: Int64 = 0
    for clip in sources {
      let shown = try ClipJoinProbe.presentation(clip)
      let run = try Tool.run(
        "ffprobe",
        [
          "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,flags", "-of",
          "csv=p=0", clip,
        ])
      for line in run.text.split(separator: "\n") {
        let f = line.split(separator: ",")
        if f.count >= 2, f[1].contains("K"), let pts = Int64(f[0]) {
          keyFrames.append(itemStart + pts - shown.lowerBound)
        }
      }
      itemStart += shown.upperBound - shown.lowerBound
    }
    let origin = try ClipJoinProbe.presentation(sources[0]).lowerBound
    let wrapped = try DiscTitle(bluray: title)
    for seconds in [1.0, 4.3, 5.5, 9.2, 12.7] where seconds * 90_000 < Double(itemStart) {
      let from = try wrapped.byteSource(
        timeline: .continuous, startingAt: MediaTime(seconds: seconds))
      let head = try from.bytes(at: 0, count: Int(min(from.size, 1 << 20)))
      let pts = Self.firstVideoPTS(head)
      let key = keyFrames.filter { Double($0) <= seconds * 90_000 }.max() ?? 0
      #expect(pts == origin + key, "\(playlist) start \(seconds) s")
    }
    for (map, copy) in [("0:v:0", false), ("0:a:0", true)] {
      var expected: [String] = []
      for (i, clip) in sources.enumerated() {
        let shown = try ClipJoinProbe.presentation(clip)
        let from = i == 0 ? Int64.min : shown.lowerBound
        let to = i == sources.count - 1 ? Int64.max : shown.upperBound
        let starts = copy ? try ClipJoinProbe.audioPESTimes(clip) : []
        expected += try ClipJoinProbe.frames(clip, map, copy: copy).filter { frame in
          let pes = starts.last { $0 <= frame.pts90k } ?? frame.pts90k
          return pes >= from && pes < to
        }.map(\.hash)
      }
      let ours = try ClipJoinProbe.frames(path, map, copy: copy).map(\.hash)
      #expect(ours == expected, "\(playlist) \(map)")
    }
  }
}
