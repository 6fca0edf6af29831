@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringFixtures
import DiscKitAuthoringTestSupport
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// The scenario discs of issue 18, each answered three ways: DiscKit's evidence-first selection,
/// libbluray's main title (`bd_get_titles(TITLES_RELEVANT)` + `bd_get_main_title`) and the
/// "longest" rule that ffmpeg's bluray protocol and mpv apply to libbluray's title list (the first
/// title with the greatest duration among `bd_get_titles(TITLES_RELEVANT, 180 s)`; Jellyfin hands
/// the disc to ffmpeg). The feature of each disc is the playlist the test's own navigation program
/// plays (or, on the flood without evidence, the order the test wrote as the real one). The test
/// prints the comparison as a Markdown table (the README's).
@Suite("Scenario discs: DiscKit, libbluray and the longest rule", .toolThreads)
struct ScenarioComparisonTests {
  typealias S = BlurayScenarioDiscs

  /// One scenario disc: what it models, the disc, its feature, and whether the disc carries
  /// evidence for it (without, DiscKit must say `ambiguous`).
  struct Scenario {
    var name: String
    var disc: SyntheticBluray
    var feature: Int
    var evidence: Bool = true
    /// Named evidence (BD-J, project files) read from the disc by the caller.
    var named: [TitleEvidence] = []
  }

  /// A permutation flood of 40 orders; title 1 computes the real order's number in a register.
  static func computedFlood() throws -> Scenario {
    Scenario(
      name: "Permutation flood (40 orders of 6 clips), the real order computed in a register",
      disc: try S.computedFlood(), feature: 823)
  }

  /// A flood whose real order only a top-menu button reaches (button 2, in a group of its own,
  /// is a phantom).
  static func menuFlood() throws -> Scenario {
    let composition = InteractiveComposition(pages: [
      IGPage(
        id: 0,
        groups: [
          IGButtonOverlapGroup(
            defaultValidButton: 1,
            buttons: [
              IGButton(
                id: 1,
                commands: [.set(.move, .gpr(7), .immediate(812)), .jumpObject(.immediate(3))])
            ]),
          IGButtonOverlapGroup(defaultValidButton: 2, buttons: [IGButton(id: 2, commands: [.nop])]),
        ])
    ])
    return Scenario(
      name: "Permutation flood (20 orders) reached only through a top-menu button",
      disc: try S.menuFlood(composition), feature: 812)
  }

  /// The feature's clips reshuffled plus one extra clip: a minute longer than the feature.
  static func longerDecoy() throws -> Scenario {
    Scenario(
      name: "Longer decoy: the feature's clips reshuffled plus one (a minute longer)",
      disc: try S.longerDecoy(), feature: 801)
  }

  /// A play-all loop: the feature three times over.
  static func loopComposite() throws -> Scenario {
    Scenario(
      name: "Loop composite: the feature's clips three times over",
      disc: try S.playedFeature(loopComposite: true, richerTwin: false), feature: 801)
  }

  /// A composite replaying each feature clip from four in-times: 4x the footage, more bytes than
  /// the disc's stream files hold (sparse stream files as large as the clip information says).
  static func compositeLargerThanTheDisc() throws -> Scenario {
    Scenario(
      name: "Loop composite larger than the disc (footage replayed at shifted in-times)",
      disc: try S.compositeLargerThanTheDisc(titlePlaysFeature: true), feature: 801)
  }

  /// Twins playing the same segments; the unplayed one carries an extra audio stream.
  static func streamTwins() throws -> Scenario {
    Scenario(
      name: "Twins differing in streams (the unplayed twin has one more audio track)",
      disc: try S.playedFeature(loopComposite: false, richerTwin: true), feature: 801)
  }

  /// One long clip without chapters, longer than the feature, that no title plays.
  static func chapterlessDecoy() throws -> Scenario {
    Scenario(
      name: "Chapterless long decoy (one 500 s clip, no marks)", disc: try S.chapterlessDecoy(),
      feature: 801)
  }

  /// A UHD disc (version 0300 files, HEVC 2160p): a flood of 12 orders plus a longer decoy; the
  /// title computes the real order's number.
  static func uhd() throws -> Scenario {
    let disc = try SyntheticBluray()
    var video = PlaylistStream(pid: 0x1011, codingType: 0x24, format: 8, rate: 1)
    video.dynamicRangeType = 1
    var stn = SyntheticBluray.standardStreams
    stn.video = [video]
    for id in S.featureOrder + ["00107"] {
      var info = SyntheticBluray.clipInfo(seconds: 60)
      info.version = .v0300
      info.program.programs[0].streams[0] = .init(
        pid: 0x1011, codingType: 0x24, format: 8, rate: 1)
      try disc.clip(id, info)
    }
    for id in ["00001", "00002"] { try disc.clip(id, SyntheticBluray.clipInfo(seconds: 30)) }
    func uhdPlaylist(_ clips: [String]) -> MoviePlaylist {
      var playlist = S.playlist(clips, streams: stn)
      playlist.version = .v0300
      return playlist
    }
    try disc.playlist(10, S.playlist(["00001"]))
    try disc.playlist(11, S.playlist(["00002"]))
    try S.flood(disc, count: 12, real: 806, seed: 4, make: uhdPlaylist)
    try disc.playlist(
      799, uhdPlaylist(["00105", "00107", "00101", "00106", "00103", "00104", "00102"]))
    try S.navigation(
      disc,
      [
        S.intro, S.menuLoop,
        [
          .set(.move, .gpr(3), .immediate(6)), .set(.add, .gpr(3), .immediate(800)),
          .playPlaylist(.gpr(3)), .jumpTitle(.immediate(0)),
        ],
      ], titleObjects: [2], version: .v0300)
    return Scenario(
      name: "UHD disc (HEVC 2160p HDR, version 0300): a 12-order flood and a longer decoy",
      disc: disc, feature: 806)
  }

  /// The benchmark's disc, smaller: 200 orders of 20 clips, reached only through the top menu's
  /// Play and chapter buttons (``FloodDiscWriter``).
  static func benchFlood() throws -> Scenario {
    let disc = try SyntheticBluray()
    try FloodDiscWriter.write(at: disc.path, floodCount: 200, feature: 123)
    return Scenario(
      name: "Permutation flood (200 orders of 20 clips) with an IG menu: Play, chapter and phantom "
        + "buttons (`make bench`'s disc, smaller)", disc: disc, feature: 123)
  }

  /// A flood of 30 orders and nothing on the disc that plays any of them.
  static func blindFlood() throws -> Scenario {
    Scenario(
      name: "Permutation flood (30 orders) with no evidence at all", disc: try S.blindFlood(),
      feature: 812, evidence: false)
  }

  static let builders: [@Sendable () throws -> Scenario] = [
    computedFlood, menuFlood, longerDecoy, loopComposite, compositeLargerThanTheDisc, streamTwins,
    chapterlessDecoy, uhd, benchFlood, blindFlood,
  ]

  /// libbluray's main title and the first longest title of its relevant list (ffmpeg's rule).
  static func reference(_ path: String) throws -> (main: Int?, longest: Int?) {
    let bd = try Reference.Bluray(path: path)
    let count = bd.titleCount(flags: 3)
    let main = count > 0 ? bd.titleInfo(bd.mainTitle).map { Int($0.playlist) } : nil
    let relevant = bd.titleCount(flags: 3, minSeconds: 180)
    var longest: (playlist: Int, duration: UInt64)?
    for k in 0..<relevant {
      guard let info = bd.titleInfo(k) else { continue }
      if info.duration90k > (longest?.duration ?? 0) {
        longest = (Int(info.playlist), info.duration90k)
      }
    }
    return (main, longest?.playlist)
  }

  static func cell(_ playlist: Int?, feature: Int, note: String = "") -> String {
    guard let playlist else { return "none ✗" }
    let mark = playlist == feature ? "✓" : "✗"
    return String(format: "%05d %@", playlist, mark) + (note.isEmpty ? "" : " (\(note))")
  }

  @Test("DiscKit names the feature of every scenario disc; libbluray and the longest rule shown")
  func comparison() throws {
    var rows = [
      "| Scenario disc | Feature | DiscKit (confidence) | libbluray main title | Longest (ffmpeg, mpv) |",
      "|---|---|---|---|---|",
    ]
    for build in Self.builders {
      let scenario = try build()
      let bluray = try BlurayDisc(fileSystem: try FolderFileSystem(root: scenario.disc.path))
      let result = bluray.smartSelection(named: scenario.named)
      let mine = result.main.flatMap { Int($0.prefix(5)) }
      let confidence = result.confidence?.rawValue ?? "none"
      if scenario.evidence {
        #expect(mine == scenario.feature, "\(scenario.name): \(result.reason)")
        #expect(
          result.confidence == .named || result.confidence == .navigation,
          "\(scenario.name): \(result.reason)")
      } else {
        #expect(result.confidence == .ambiguous, "\(scenario.name): \(result.reason)")
        #expect(result.candidates.contains(String(format: "%05d.mpls", scenario.feature)))
      }
      let theirs = try Self.reference(scenario.disc.path)
      let ours =
        result.confidence == .ambiguous
        ? "`ambiguous` ✓ (\(result.candidates.count) candidates named; picks "
          + "\(String(format: "%05d", mine ?? 0)) by the stated rule)"
        : Self.cell(mine, feature: scenario.feature, note: confidence)
      rows.append(
        "| \(scenario.name) | \(String(format: "%05d", scenario.feature)) | \(ours) | "
          + "\(Self.cell(theirs.main, feature: scenario.feature)) | "
          + "\(Self.cell(theirs.longest, feature: scenario.feature)) |")
    }
    print(rows.joined(separator: "\n"))
  }
}
