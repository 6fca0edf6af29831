@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Audio sample rate and LPCM bit depth per title and stream, against lsdvd's `frequency` and
/// `quantization` (libdvdread's `audio_attr_t`) on the same folder.
@Suite(.toolThreads) struct DVDAudioAttributeTests {
  static func compare(_ folder: String) throws {
    let disc = try DVDDisc(fileSystem: try FolderFileSystem(root: folder))
    let theirs = try LsdvdOracle.run(folder)
    try #require(!theirs.tracks.isEmpty, "lsdvd listed no titles for \(folder)")
    var compared = 0
    for track in theirs.tracks {
      let title = try disc.title(track.ix)
      #expect(title.audio.count == track.audioAttributes.count, "title \(track.ix) audio count")
      for (ours, lsdvd) in zip(title.audio, track.audioAttributes) {
        #expect(ours.sampleRate.map(String.init) == lsdvd.frequency, "title \(track.ix) rate")
        // lsdvd names the quantization code whatever the coding; it is a bit depth only for
        // LPCM (for coded audio the code means dynamic-range control).
        let expectedBits = ours.codec == "lpcm" ? Int(lsdvd.quantization.dropLast(3)) : nil
        #expect(
          ours.bitDepth == expectedBits, "title \(track.ix) quantization \(lsdvd.quantization)")
        compared += 1
      }
    }
    #expect(compared > 0, "no audio stream compared in \(folder)")
  }

  @Test(.enabled(if: Tool.has("lsdvd"), "lsdvd missing"), arguments: ["dvd-ntsc", "dvd-pal"])
  func generated(_ name: String) throws {
    try #require(
      FileManager.default.fileExists(atPath: Fixtures.generated(name)),
      "run TestImages/scripts/make-all.sh")
    try Self.compare(Fixtures.generated(name))
  }

  @Test(
    .enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)),
    .enabled(if: Tool.has("lsdvd"), "lsdvd missing"))
  func idiocracy() throws {
    try Self.compare(Fixtures.real("dvd/dvdread_idiocracy"))
  }

  /// The spec's codes (DVD-Video audio_attr_t: quantization 0/1/2 = 16/20/24 bits for LPCM,
  /// sample frequency 0/1 = 48/96 kHz), on attribute bytes the test writes.
  @Test func lpcmCodes() throws {
    for (quantization, bits) in [(0, 16), (1, 20), (2, 24)] {
      for (code, rate) in [(0, 48_000), (1, 96_000)] {
        var reader = BinaryReader(
          [
            0x80, UInt8(quantization << 6 | code << 4 | 5), 0x65, 0x6E, 0, 1, 0, 0,
          ], structure: "audio_attr_t")
        let a = try DVDAudioAttributes(parsing: &reader)
        #expect(a.codec == "lpcm" && a.channels == 6)
        #expect(a.bitDepth == bits && a.sampleRate == rate)
      }
    }
    var ac3 = BinaryReader([0x00, 0xC0, 0x65, 0x6E, 0, 1, 0, 0], structure: "audio_attr_t")
    #expect(try DVDAudioAttributes(parsing: &ac3).bitDepth == nil)
  }
}
