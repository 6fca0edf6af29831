@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// Scenario discs modelled on published obfuscation cases (permutation floods, a longer decoy, a
/// loop composite, stream twins, a chapterless long decoy, a flood without evidence, a menu), each
/// written by the test with its navigation program. The expected main playlist is the one the
/// test's own program plays; where libbluray can run the program (metadata without streams), its
/// HDMV VM must reach the same playlists as DiscKit's.
@Suite("Navigation scenarios")
struct NavigationScenarioTests {
  typealias C = NavigationCommand

  /// The feature's clips in their real order: deliberately not ascending.
  static let featureOrder = ["00104", "00102", "00106", "00101", "00105", "00103"]

  /// A disc with the six feature clips (60 s each), an intro (00001) and a menu clip (00002).
  static func baseDisc() throws -> SyntheticBluray {
    let disc = try SyntheticBluray()
    for id in featureOrder + ["00107"] {
      try disc.clip(id, SyntheticBluray.clipInfo(seconds: 60))
    }
    for id in ["00001", "00002"] { try disc.clip(id, SyntheticBluray.clipInfo(seconds: 30)) }
    try disc.playlist(10, playlist(["00001"]))
    try disc.playlist(11, playlist(["00002"]))
    return disc
  }

  static func playlist(_ clips: [String], chapters: Bool = true, streams: StreamNumberTable? = nil)
    -> MoviePlaylist
  {
    var items = clips.map { SyntheticBluray.item($0, from: 0, to: $0 >= "00100" ? 60 : 30) }
    if let streams { for k in items.indices { items[k].streams = streams } }
    return MoviePlaylist(
      playItems: items, marks: chapters ? SyntheticBluray.marks(every: 60, items: items) : [])
  }

  /// index.bdmv and MovieObject.bdmv: objects[0] is First Play, objects[1] the Top Menu,
  /// objects[2 + k] title k + 1 (for k < titles), the rest only reachable by jumps.
  static func navigation(_ disc: SyntheticBluray, _ objects: [[C]], titles: Int) throws {
    let index = BDMVIndex(
      firstPlay: .hdmv(movieObject: 0, playbackType: 0),
      topMenu: .hdmv(movieObject: 1, playbackType: 1),
      titles: (0..<titles).map {
        .init(object: .hdmv(movieObject: UInt16(2 + $0), playbackType: 0))
      })
    try disc.write("BDMV/index.bdmv", index.serialize())
    try disc.write(
      "BDMV/MovieObject.bdmv",
      MovieObjectFile(objects: objects.map { .init(commands: $0) }).serialize())
  }

  /// First Play plays the intro and goes to the Top Menu, which loops on the menu playlist.
  static let intro: [C] = [.playPlaylist(.immediate(10)), .jumpTitle(.immediate(0))]
  static let menuLoop: [C] = [.playPlaylist(.immediate(11)), .goto(.immediate(0))]

  /// `count` distinct orders of the feature clips numbered from 800, with the real order at
  /// `real` (the others are seeded shuffles).
  static func flood(_ disc: SyntheticBluray, count: Int, real: Int, seed: UInt64) throws {
    var rng = SeededRandom(seed: seed)
    var seen: Set<[String]> = [featureOrder]
    for number in 800..<(800 + count) {
      var order = featureOrder
      if number != real {
        repeat { order.shuffle(using: &rng) } while !seen.insert(order).inserted
      }
      try disc.playlist(number, playlist(order))
    }
  }

  func open(_ disc: SyntheticBluray) throws -> BlurayDisc {
    try BlurayDisc(fileSystem: try FolderFileSystem(root: disc.path))
  }

  /// The distinct playlists libbluray's VM starts: First Play, or index title `title`.
  static func libbluray(_ path: String, title: Int? = nil) throws -> [Int] {
    let bd = try Reference.Bluray(path: path)
    var seen = Set<Int>()
    return bd.navigationEvents(title: title).compactMap {
      if case .playlist(let n) = $0, seen.insert(n).inserted { return n }
      return nil
    }
  }

  /// DiscKit's VM and libbluray's reach the same playlists from First Play and every title.
  func expectSameReach(_ disc: SyntheticBluray, _ bluray: BlurayDisc, titles: Int) throws {
    var machine = try #require(bluray.hdmvMachine)
    machine.libblurayResume = true
    let theirs = try Self.libbluray(disc.path)
    #expect(theirs == machine.run(.firstPlay).playlists)
    for title in 1...titles {
      let theirs = try Self.libbluray(disc.path, title: title)
      #expect(theirs == machine.run(.title(title)).playlists, "title \(title)")
    }
  }

  @Test("a permutation flood: the order the navigation computes wins, not the lowest or ascending")
  func floodWithComputedNavigation() throws {
    let disc = try Self.baseDisc()
    try Self.flood(disc, count: 40, real: 823, seed: 23)
    // Title 1 computes 823 = 800 + 23 in GPR10.
    try Self.navigation(
      disc,
      [
        Self.intro, Self.menuLoop,
        [
          .set(.move, .gpr(10), .immediate(800)), .set(.add, .gpr(10), .immediate(23)),
          .playPlaylist(.gpr(10)), .jumpTitle(.immediate(0)),
        ],
      ], titles: 1)
    let bluray = try open(disc)
    let result = bluray.smartSelection()
    #expect(result.main == "00823.mpls")
    #expect(result.confidence == .navigation)
    #expect(result.familySize == 40)
    #expect(result.evidence.contains { $0.kind == .navigation && $0.detail.contains("GPR10") })
    #expect(result.evidence.contains { $0.kind == .family && $0.detail.contains("40") })
    #expect(result.candidates.isEmpty)
    try expectSameReach(disc, bluray, titles: 1)
    // Named evidence (a BD-J locator, supplied by the caller) is trusted before the navigation.
    let named = bluray.smartSelection(named: [
      TitleEvidence(kind: .bdj, key: "00805", detail: "the BD-J title's locator names 00805")
    ])
    #expect(named.main == "00805.mpls")
    #expect(named.confidence == .named)
    #expect(named.evidence.first?.kind == .bdj)
  }

  @Test("a flood nothing on the disc resolves is ambiguous, chosen by the lowest number")
  func floodWithoutEvidence() throws {
    let disc = try Self.baseDisc()
    try Self.flood(disc, count: 30, real: 812, seed: 12)
    try Self.navigation(disc, [Self.intro, Self.menuLoop, [.jumpTitle(.immediate(0))]], titles: 1)
    let bluray = try open(disc)
    let result = bluray.smartSelection()
    #expect(result.confidence == .ambiguous)
    #expect(result.familySize == 30)
    #expect(result.candidates.count == 30)
    #expect(result.reason.contains("ambiguous"))
    // The stated rule: fewest backward steps in (clip, in-time) order, then the lowest number,
    // computed here from the orders the test wrote.
    func inversions(_ number: Int) -> Int {
      let items = bluray.playlistFile(number: number)?.playlist?.playItems ?? []
      return zip(items, items.dropFirst()).count { $0.clip.clipID > $1.clip.clipID }
    }
    let expected = (800..<830).min { (inversions($0), $0) < (inversions($1), $1) }
    #expect(result.main == expected.map { String(format: "%05d.mpls", $0) })
    try expectSameReach(disc, bluray, titles: 1)
  }

  @Test("a longer decoy (the feature's clips reshuffled plus one) loses to the played feature")
  func longerDecoy() throws {
    let disc = try Self.baseDisc()
    try disc.playlist(
      800, Self.playlist(["00103", "00101", "00107", "00105", "00102", "00106", "00104"]))
    try disc.playlist(801, Self.playlist(Self.featureOrder))
    // Title 1 calls object 3, which sets GPR1 and returns; title 1 then plays GPR1.
    try Self.navigation(
      disc,
      [
        Self.intro, Self.menuLoop, [.callObject(.immediate(3)), .playPlaylist(.gpr(1))],
        [.set(.move, .gpr(1), .immediate(801)), .resume],
      ], titles: 1)
    let bluray = try open(disc)
    let heuristic = SmartTitleSelector.select(
      bluray.playlists.map { .init(name: $0.name, number: $0.number, playlist: $0.playlist) })
    #expect(heuristic.main == "00800.mpls", "the decoy is longer: length alone picks it")
    let result = bluray.smartSelection()
    #expect(result.main == "00801.mpls")
    #expect(result.confidence == .navigation)
    try expectSameReach(disc, bluray, titles: 1)
  }

  @Test("a loop composite and stream twins: set aside, the played twin kept")
  func loopCompositeAndTwins() throws {
    let disc = try Self.baseDisc()
    try disc.playlist(900, Self.playlist(Self.featureOrder + Self.featureOrder + Self.featureOrder))
    try disc.playlist(801, Self.playlist(Self.featureOrder))
    var richer = SyntheticBluray.standardStreams
    richer.audio.append(
      PlaylistStream(pid: 0x1101, codingType: 0x81, format: 3, rate: 1, language: "fra"))
    try disc.playlist(802, Self.playlist(Self.featureOrder, streams: richer))
    try Self.navigation(
      disc, [Self.intro, Self.menuLoop, [.playPlaylist(.immediate(801))]], titles: 1)
    let bluray = try open(disc)
    let result = bluray.smartSelection()
    #expect(result.main == "00801.mpls")
    let fate = Dictionary(uniqueKeysWithValues: result.entries.map { ($0.name, $0.excluded) })
    #expect(fate["00900.mpls"] == .repeatedSegments)
    #expect(fate["00802.mpls"] == .duplicate(of: "00801.mpls"))
    try expectSameReach(disc, bluray, titles: 1)
  }

  @Test("a loop composite replaying footage at shifted in-times is larger than the disc")
  func loopCompositeLargerThanTheDisc() throws {
    let disc = try Self.baseDisc()
    // Stream files as large as their clip information says (sparse: nothing written).
    for id in Self.featureOrder + ["00107", "00001", "00002"] {
      let seconds = id >= "00100" ? 60 : 30
      let url = disc.directory.url.appendingPathComponent("BDMV/STREAM/\(id).m2ts")
      FileManager.default.createFile(atPath: url.path, contents: nil)
      let handle = try FileHandle(forWritingTo: url)
      try handle.truncate(atOffset: UInt64(seconds * 1000 * 192))
      try handle.close()
    }
    // Each feature clip four times, from seconds 0, 1, 2 and 3: no (clip, in-time) repeats, so
    // only the byte count gives it away (~4 x the feature, 24 clip plays against 9 clip files).
    var items: [PlayItem] = []
    for id in Self.featureOrder {
      for start in 0..<4 { items.append(SyntheticBluray.item(id, from: start, to: 60)) }
    }
    try disc.playlist(901, MoviePlaylist(playItems: items))
    try disc.playlist(801, Self.playlist(Self.featureOrder))
    try Self.navigation(disc, [Self.intro, Self.menuLoop, [.jumpTitle(.immediate(0))]], titles: 1)
    let bluray = try open(disc)
    let result = bluray.smartSelection()
    let fate = Dictionary(uniqueKeysWithValues: result.entries.map { ($0.name, $0.excluded) })
    let packets: Int64 = 7 * 60 * 1000 + 2 * 30 * 1000
    let capacity: Int64 = packets * 192
    guard case .largerThanDisc(let bytes, let reported)? = fate["00901.mpls"] else {
      Issue.record(
        "00901 is not set aside as larger than the disc: \(String(describing: fate["00901.mpls"]))")
      return
    }
    #expect(reported == capacity)
    #expect(bytes > capacity)
    #expect(result.main == "00801.mpls")
    #expect(result.evidence.contains { $0.kind == .physical && $0.key == "00901" })
  }

  @Test("a chapterless long decoy loses to the feature the title plays")
  func chapterlessLongDecoy() throws {
    let disc = try Self.baseDisc()
    try disc.clip("00200", SyntheticBluray.clipInfo(seconds: 500))
    let decoy = [SyntheticBluray.item("00200", from: 0, to: 500)]
    try disc.playlist(700, MoviePlaylist(playItems: decoy, marks: []))
    try disc.playlist(801, Self.playlist(Self.featureOrder))
    try Self.navigation(
      disc,
      [
        [.playPlaylist(.immediate(10)), .jumpTitle(.immediate(2))], Self.menuLoop,
        [.jumpTitle(.immediate(0))], [.playPlaylist(.immediate(801)), .jumpTitle(.immediate(0))],
      ], titles: 2)
    let bluray = try open(disc)
    let result = bluray.smartSelection()
    #expect(result.main == "00801.mpls")
    #expect(result.confidence == .navigation)
    try expectSameReach(disc, bluray, titles: 2)
  }

  @Test("a menu button leads to the feature; a phantom button is no evidence")
  func menuButton() throws {
    let disc = try Self.baseDisc()
    try Self.flood(disc, count: 20, real: 812, seed: 7)
    // The menu playlist 50 plays clip 00050, whose stream holds an IG menu on PID 0x1400.
    try disc.clip("00050", SyntheticBluray.clipInfo(seconds: 30))
    var stn = SyntheticBluray.standardStreams
    stn.interactiveGraphics = [PlaylistStream(pid: 0x1400, codingType: 0x91, language: "eng")]
    try disc.playlist(
      50,
      MoviePlaylist(playItems: [
        {
          var item = SyntheticBluray.item("00050", from: 0, to: 30)
          item.streams = stn
          return item
        }()
      ]))
    let composition = InteractiveComposition(pages: [
      IGPage(
        id: 0,
        groups: [
          IGButtonOverlapGroup(buttons: [
            IGButton(
              id: 1, commands: [.set(.move, .gpr(7), .immediate(812)), .jumpObject(.immediate(3))]),
            IGButton(id: 2, commands: [.nop]),
          ])
        ])
    ])
    try disc.write(
      "BDMV/STREAM/00050.m2ts",
      IGStreamWriter.transportStream(
        segments: [(0x18, composition.serialize()), (0x80, [])], pid: 0x1400))
    try Self.navigation(
      disc,
      [
        [.jumpTitle(.immediate(0))], [.playPlaylist(.immediate(50)), .goto(.immediate(0))],
        [.jumpTitle(.immediate(0))], [.playPlaylist(.gpr(7))],
      ], titles: 1)
    let bluray = try open(disc)
    let read = try #require(try bluray.menuComposition(playlist: 50))
    #expect(read == composition)
    let result = bluray.smartSelection()
    #expect(result.main == "00812.mpls")
    #expect(result.confidence == .navigation)
    #expect(result.evidence.contains { $0.kind == .menu && $0.detail.contains("button 1") })
    #expect(!result.evidence.contains { $0.detail.contains("button 2") })
  }
}
