@_spi(Formats) import DiscKit
import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// The set-up the DVD episode suites share (`TestImages/scripts/make-dvd-episodes*.sh`): which
/// discs are present, the construction's episode lengths, libdvdnav's chapter for each button,
/// and each PGC episode's bytes and pictures against libdvdread's blocks of the PGCs.
enum DVDEpisodeDiscs {
  /// Whether every one of `names` is generated.
  static func present(_ names: String...) -> Bool {
    names.allSatisfy {
      FileManager.default.fileExists(atPath: Fixtures.generated($0) + "/VIDEO_TS/VIDEO_TS.IFO")
    }
  }
  static let missing: Comment = "run TestImages/scripts/make-dvd-episodes*.sh (make images)"

  /// The construction: the episodes' lengths in seconds (NTSC, 1000/1001 time).
  static let seconds = [310.0, 320.0, 305.0]

  /// Each episode of `list` lasts its clip of the construction, in order (within a second).
  static func expectConstructionLengths(
    _ list: EpisodeList, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(list.episodes.count == seconds.count, "\(list.reason)", sourceLocation: sourceLocation)
    for (episode, s) in zip(list.episodes, seconds) {
      #expect(
        abs(Double(episode.duration90k) / 90_000 - s * 1000 / 1001) < 1, "\(episode.titleKey)",
        sourceLocation: sourceLocation)
    }
  }

  /// libdvdnav: button 1 (Play All) starts title 1 at chapter 1 and buttons 2-4 title 1 at the
  /// first chapters of the three episodes (`dvdnav_current_title_info` after the press).
  static func expectButtonsStartEpisodeChapters(
    _ path: String, _ list: EpisodeList, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for button in 1...4 {
      let theirs = try #require(
        try Reference.DVDNav.titlePart(path: path, buttons: [button]), "button \(button)",
        sourceLocation: sourceLocation)
      #expect(theirs.title == 1, "button \(button)", sourceLocation: sourceLocation)
      let wanted = button == 1 ? 1 : list.episodes[button - 2].chapters.first
      #expect(theirs.part == wanted, "button \(button)", sourceLocation: sourceLocation)
    }
  }

  /// `ffmpeg -map 0:v -f framemd5` of a file: each picture's size and hash, in order.
  static func pictures(_ file: String) throws -> [String] {
    let run = try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-i", file, "-map", "0:v", "-fps_mode", "passthrough", "-f", "framemd5", "-",
      ])
    return run.text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      line.split(separator: ",").suffix(2).map {
        $0.trimmingCharacters(in: .whitespaces)
      }.joined(separator: ",")
    }
  }

  /// Each episode of `list`, the PGC `programChains[k]` of title set 1 (in the order of the
  /// episodes), as a title of its own: the bytes libdvdread reads for that PGC's cells
  /// (`DVDReadBlocks`), from 0 with `chapters` chapters (when given), decoding without a warning
  /// (`ffmpeg -v warning`) on both timelines, its pictures (`framemd5`) those of its range of
  /// the pictures of all the PGCs' blocks in a row.
  static func expectProgramChainEpisodes(
    _ disc: Disc, _ list: EpisodeList, path: String, programChains: [Int], chapters: Int? = 2,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(list.episodes.count == programChains.count, sourceLocation: sourceLocation)
    let reader = try Reference.DVDReader(path: path)
    var blocks: [[UInt8]] = []
    for number in programChains {
      let pgc = try #require(
        reader.programChain(titleSet: 1, number: number), sourceLocation: sourceLocation)
      blocks.append(
        try reader.readTitleVOBs(
          titleSet: 1, ranges: pgc.cells.map { ($0.firstSector, $0.lastSector) }))
    }
    let dir = try TemporaryDirectory("dvd-pgc-episodes")
    let wholeFile = dir.file("chain.vob")
    try Data(blocks.flatMap { $0 }).write(to: URL(fileURLWithPath: wholeFile))
    let allPictures = Tool.has("ffmpeg") ? try pictures(wholeFile) : []
    var picturesBefore = 0
    for (episode, theirs) in zip(list.episodes, blocks) {
      let title = try disc.title(key: episode.titleKey)
      #expect(title.duration.ticks == episode.duration90k, sourceLocation: sourceLocation)
      if let chapters {
        #expect(
          title.chapters.map(\.number) == Array(1...chapters), sourceLocation: sourceLocation)
      }
      #expect(title.chapters.first?.start.ticks == 0, sourceLocation: sourceLocation)
      let source = try title.byteSource()
      let mine = try source.bytes(at: 0, count: Int(source.size), structure: "episode")
      #expect(
        mine == theirs, "\(episode.titleKey): libdvdread's blocks of its PGC",
        sourceLocation: sourceLocation)
      guard Tool.has("ffmpeg") else { continue }
      let (file, moved) = try expectEpisodeVOBsDecode(
        title, bytes: mine, key: episode.titleKey, number: episode.number, in: dir)
      // Both timelines give the chain's pictures in its range.
      let own = try pictures(file)
      #expect(!own.isEmpty, sourceLocation: sourceLocation)
      let range = picturesBefore..<min(allPictures.count, picturesBefore + own.count)
      #expect(
        Array(allPictures[range]) == own, "\(episode.titleKey): framemd5",
        sourceLocation: sourceLocation)
      #expect(
        try pictures(moved) == own, "\(episode.titleKey) continuous: framemd5",
        sourceLocation: sourceLocation)
      picturesBefore += own.count
    }
    #expect(
      picturesBefore == allPictures.count || !Tool.has("ffmpeg"), sourceLocation: sourceLocation)
  }
}
