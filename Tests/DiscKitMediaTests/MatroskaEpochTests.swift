@_spi(Formats) import DiscKit
import DiscKitMedia
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Matroska output of the multi-epoch discs (`TestImages/scripts/make-epochs.sh`): shuffled
/// epochs, seamless and non-seamless joins, two audio languages, a clip across the PTS wrap
/// between two epochs, and DVD cells that each restart their clock.
@Suite("Matroska output: multi-epoch discs", .toolThreads)
struct MatroskaEpochTests {
  static let epochs = Fixtures.generated("epochs")
  static let ready =
    MatroskaWriterTests.ready && FileManager.default.fileExists(atPath: epochs + "/bd-wrap.iso")
  static let why: Comment =
    "needs TestImages/scripts/make-epochs.sh and make-mkv.sh output and the Matroska oracles"

  @Test(
    .enabled(if: ready, why),
    arguments: [
      ("bd-epochs", 0, ["e2.ts", "e1.ts", "e3.ts"]),
      ("bd-epochs", 1, ["s0.ts", "s1.ts", "e2.ts"]),
      ("bd-wrap", 0, ["wrap.ts"]),
      ("bd-wrap", 1, ["e3.ts", "wrap.ts", "e1.ts"]),
    ])
  func blurayTitle(disc: String, playlist: Int, clips: [String]) throws {
    let oracle = try MatroskaWriterTests.checkAgainstLibbluray(
      disc, in: Self.epochs, playlist: playlist, sourceClips: clips)
    #expect(oracle.tracks.filter { $0.type == "audio" }.map(\.language) == ["eng", "ger"])
  }

  /// mkvmerge on the playlist that puts the wrapped clip between two epochs: where it reads the
  /// whole title DiscKit agrees with it; where it does not, DiscKit has libbluray's duration.
  @Test(.enabled(if: ready, why))
  func wrappedClipBetweenEpochsComparedWithMkvmerge() throws {
    let dir = try TemporaryDirectory()
    let ours = dir.file("disckit.mkv")
    let theirs = dir.file("mkvmerge.mkv")
    let disc = try BlurayDisc(disc: try DiscImage.open(path: Self.epochs + "/bd-wrap.iso"))
    try MatroskaWriter.write(
      try MatroskaTitle(bluray: try disc.title(playlist: "00001.mpls")), toPath: ours,
      overwrite: false)
    let run = try Tool.run(
      "mkvmerge", ["-q", "-o", theirs, Self.epochs + "/bd-wrap/BDMV/PLAYLIST/00001.mpls"])
    let reference = try Reference.Bluray(path: Self.epochs + "/bd-wrap")
    let playlist = Double(try #require(reference.playlistInfo(1)).duration90k) / 90000
    let a = try MatroskaOracle.read(ours)
    #expect(abs(a.duration - playlist) <= 3.0 / 25)
    if run.status <= 1, FileManager.default.fileExists(atPath: theirs) {
      let b = try MatroskaOracle.read(theirs)
      #expect(a.tracks.map(\.language) == b.tracks.map(\.language))
      if abs(b.duration - playlist) <= 3.0 / 25 {
        #expect(abs(a.duration - b.duration) <= 3.0 / 25)
      }
    }
  }

  @Test(.enabled(if: ready && Tool.has("lsdvd"), why), arguments: [1, 2])
  func dvdTitle(number: Int) throws {
    let dir = try TemporaryDirectory()
    let path = Self.epochs + "/dvd-epochs.iso"
    let disc = try DVDDisc(fileSystem: try DiscImage.open(path: path).fileSystem)
    let out = dir.file("dvd-\(number).mkv")
    try MatroskaWriter.write(
      try MatroskaTitle(dvd: disc, title: number), toPath: out, overwrite: false)
    let oracle = try MatroskaOracle.read(out)
    let lsdvd = try #require(try LsdvdOracle.run(path).tracks.first { $0.ix == number })
    let languages = try lsdvd.audio.map {
      try MatroskaOracle.bibliographic(String($0.split(separator: "/").first ?? ""))
    }
    #expect(languages == ["eng", "ger"])
    #expect(oracle.tracks.map(\.type) == ["video", "audio", "audio"])
    #expect(oracle.tracks.dropFirst().map(\.language) == languages)
    // PAL: lsdvd's IFO times are exact; 3 frames for the duration, 1 ms for the chapters.
    let length = try #require(Double(lsdvd.length))
    #expect(abs(oracle.duration - length) <= 3.0 / 25)
    let lengths = lsdvd.chapters.map { Double($0.split(separator: "@")[0]) ?? -1 }
    #expect(oracle.chapterStarts.count == lengths.count)
    var start = 0.0
    let lead = try MatroskaOracle.lead(out)
    for (i, ours) in oracle.chapterStarts.enumerated() where i < lengths.count {
      let want = MatroskaOracle.chapterStart(start, lead: lead)
      #expect(abs(ours - want) <= 0.001, "title \(number) chapter \(i + 1): \(ours) vs \(want)")
      start += lengths[i]
    }
    #expect(try MatroskaOracle.timestampWarnings(out) == [])
  }
}
