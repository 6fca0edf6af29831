@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// The program-stream report's fields mean what the transport-stream report's fields of the same
/// name mean: `firstIDROffset` is an offset in the source (not from the scan start) and
/// `avOffsetSeconds` is audio minus the first video PTS (the offset from the random access point
/// is each audio stream's `offsetFromIDRSeconds`), judged by ffprobe on a cut of a DVD VOB.
@Suite("Scan report fields: one meaning on DVD and Blu-ray", .toolThreads)
struct ScanFieldMeaningTests {
  @Test(
    .enabled(
      if: ProgramStreamScannerTests.haveDiscs && Tool.has("ffprobe"),
      "needs ffprobe and TestImages/scripts/make-all.sh output"))
  func programStreamFieldsMeanWhatTheTransportStreamFieldsMean() throws {
    let vob = try FileByteSource(
      path: ProgramStreamScannerTests.discs[0] + "/VIDEO_TS/VTS_01_1.VOB")
    let scratch = try TemporaryDirectory()
    let starts: [Int64] = [0, 2048 * 40 + 777, vob.size / 2 + 5]
    for start in starts {
      let report = try ProgramStreamScanner.scan(source: vob, offset: start)
      let video = try #require(report.video.first)
      // An offset in the VOB, where a pack header starts, at or after the scan start.
      let offset = try #require(video.firstIDROffset)
      #expect(offset >= start)
      #expect(try vob.bytes(at: offset, count: 4) == [0, 0, 1, 0xBA], "cut at \(start)")
      // The timestamps, against ffprobe on the same bytes.
      let file = scratch.file("cut-\(start).vob")
      try Data(try vob.bytes(at: start, count: Int(vob.size - start))).write(
        to: URL(fileURLWithPath: file))
      let oracle = try ProgramStreamScannerTests.ffprobe(file)
      let audio = try #require(report.audio.first)
      let audioPTS = try #require(oracle.firstAudioPTS[ProgramStreamScannerTests.ffprobeID(audio)])
      let videoPTS = try #require(oracle.firstVideoPTS)
      let keyframePTS = try #require(oracle.firstKeyframePTS)
      func seconds(_ a: UInt64, _ b: UInt64) -> Double { (Double(a) - Double(b)) / 90_000 }
      // avOffsetSeconds and offsetFromVideoSeconds: audio minus the first video PTS (the
      // report's own first PTS: in a cut ffprobe may count a partial first PES the scanner
      // skips, so ffprobe judges it only where the two see the same first video PTS).
      let av = try #require(report.avOffsetSeconds)
      let reportAudio = try #require(audio.firstPTS)
      let reportVideo = try #require(video.firstPTS)
      #expect(reportAudio == audioPTS)
      #expect(abs(av - seconds(reportAudio, reportVideo)) < 1e-9, "cut at \(start)")
      #expect(abs((audio.offsetFromVideoSeconds ?? .nan) - av) < 1e-9)
      if reportVideo == videoPTS {
        #expect(abs(av - seconds(audioPTS, videoPTS)) < 1e-9, "cut at \(start)")
      }
      // offsetFromIDRSeconds: audio minus the first random access point, as ffprobe finds both.
      let fromIDR = try #require(audio.offsetFromIDRSeconds)
      #expect(abs(fromIDR - seconds(audioPTS, keyframePTS)) < 1e-9, "cut at \(start)")
    }
  }
}
