@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitTestSupport
import Foundation

/// Scenario discs modelled on published obfuscation cases (permutation floods, a longer decoy, a
/// loop composite, stream twins, a chapterless long decoy, a flood without evidence, a menu), each
/// written with its navigation program: the playlist that program plays is the disc's feature.
///
/// Shared by the navigation-scenario tests (DiscKit's selection, and libbluray's HDMV VM where it
/// can run the program), the scenario comparison with libbluray's main title and the longest rule,
/// and the menu button comparisons.
package enum BlurayScenarioDiscs {
  package typealias C = NavigationCommand

  /// The feature's clips in their real order: deliberately not ascending.
  package static let featureOrder = ["00104", "00102", "00106", "00101", "00105", "00103"]

  /// A disc with the six feature clips and 00107 (60 s each), an intro (00001) and a menu clip
  /// (00002), played by playlists 10 and 11.
  package static func baseDisc() throws -> SyntheticBluray {
    let disc = try SyntheticBluray()
    for id in featureOrder + ["00107"] {
      try disc.clip(id, SyntheticBluray.clipInfo(seconds: 60))
    }
    for id in ["00001", "00002"] { try disc.clip(id, SyntheticBluray.clipInfo(seconds: 30)) }
    try disc.playlist(10, playlist(["00001"]))
    try disc.playlist(11, playlist(["00002"]))
    return disc
  }

  /// A playlist of whole clips (60 s from 00100 on, 30 s below), with a mark a minute unless
  /// `chapters` is false, and `streams` on every item when given.
  package static func playlist(
    _ clips: [String], chapters: Bool = true, streams: StreamNumberTable? = nil
  ) -> MoviePlaylist {
    var items = clips.map { SyntheticBluray.item($0, from: 0, to: $0 >= "00100" ? 60 : 30) }
    if let streams { for k in items.indices { items[k].streams = streams } }
    return MoviePlaylist(
      playItems: items, marks: chapters ? SyntheticBluray.marks(every: 60, items: items) : [])
  }

  /// index.bdmv and MovieObject.bdmv: objects[0] is First Play, objects[1] the Top Menu,
  /// objects[2 + k] title k + 1 (for k < titles), the rest only reachable by jumps.
  package static func navigation(_ disc: SyntheticBluray, _ objects: [[C]], titles: Int) throws {
    try navigation(disc, objects, titleObjects: (0..<titles).map { 2 + $0 })
  }

  /// index.bdmv and MovieObject.bdmv: objects[0] is First Play, objects[1] the Top Menu, index
  /// title k + 1 runs object `titleObjects[k]`.
  package static func navigation(
    _ disc: SyntheticBluray, _ objects: [[C]], titleObjects: [Int],
    version: BDMVVersion = .v0200
  ) throws {
    let index = BDMVIndex(
      version: version,
      firstPlay: .hdmv(movieObject: 0, playbackType: 0),
      topMenu: .hdmv(movieObject: 1, playbackType: 1),
      titles: titleObjects.map {
        .init(object: .hdmv(movieObject: UInt16($0), playbackType: 0))
      })
    try disc.write("BDMV/index.bdmv", index.serialize())
    try disc.write(
      "BDMV/MovieObject.bdmv",
      MovieObjectFile(objects: objects.map { .init(commands: $0) }).serialize())
  }

  /// First Play plays the intro and goes to the Top Menu, which loops on the menu playlist.
  package static let intro: [C] = [.playPlaylist(.immediate(10)), .jumpTitle(.immediate(0))]
  package static let menuLoop: [C] = [.playPlaylist(.immediate(11)), .goto(.immediate(0))]

  /// `count` distinct orders of the feature clips numbered from 800, with the real order at
  /// `real` (the others are seeded shuffles), each written as `make` makes its playlist.
  package static func flood(
    _ disc: SyntheticBluray, count: Int, real: Int, seed: UInt64,
    make: (_ clips: [String]) -> MoviePlaylist = { playlist($0) }
  ) throws {
    var rng = SeededRandom(seed: seed)
    var seen: Set<[String]> = [featureOrder]
    for number in 800..<(800 + count) {
      var order = featureOrder
      if number != real {
        repeat { order.shuffle(using: &rng) } while !seen.insert(order).inserted
      }
      try disc.playlist(number, make(order))
    }
  }

  // MARK: the scenarios

  /// A permutation flood of 40 orders (800-839, real 823); title 1 computes 823 = 800 + 23 in
  /// GPR10 and plays it.
  package static func computedFlood() throws -> SyntheticBluray {
    let disc = try baseDisc()
    try flood(disc, count: 40, real: 823, seed: 23)
    try navigation(
      disc,
      [
        intro, menuLoop,
        [
          .set(.move, .gpr(10), .immediate(800)), .set(.add, .gpr(10), .immediate(23)),
          .playPlaylist(.gpr(10)), .jumpTitle(.immediate(0)),
        ],
      ], titles: 1)
    return disc
  }

  /// A flood of 30 orders (800-829, real 812) and nothing on the disc that plays any of them:
  /// title 1 only goes back to the Top Menu.
  package static func blindFlood() throws -> SyntheticBluray {
    let disc = try baseDisc()
    try flood(disc, count: 30, real: 812, seed: 12)
    try navigation(disc, [intro, menuLoop, [.jumpTitle(.immediate(0))]], titles: 1)
    return disc
  }

  /// The feature's clips reshuffled plus 00107 (800, a minute longer) and the feature (801):
  /// title 1 calls object 3, which sets GPR1 to 801 and returns; title 1 then plays GPR1.
  package static func longerDecoy() throws -> SyntheticBluray {
    let disc = try baseDisc()
    try disc.playlist(
      800, playlist(["00103", "00101", "00107", "00105", "00102", "00106", "00104"]))
    try disc.playlist(801, playlist(featureOrder))
    try navigation(
      disc,
      [
        intro, menuLoop, [.callObject(.immediate(3)), .playPlaylist(.gpr(1))],
        [.set(.move, .gpr(1), .immediate(801)), .resume],
      ], titles: 1)
    return disc
  }

  /// The feature (801), which title 1 plays, with a play-all loop of it three times over (900)
  /// when `loopComposite`, and a twin playing the same segments with one more audio stream (802)
  /// when `richerTwin`.
  package static func playedFeature(loopComposite: Bool, richerTwin: Bool) throws
    -> SyntheticBluray
  {
    let disc = try baseDisc()
    if loopComposite {
      try disc.playlist(900, playlist(featureOrder + featureOrder + featureOrder))
    }
    try disc.playlist(801, playlist(featureOrder))
    if richerTwin {
      var richer = SyntheticBluray.standardStreams
      richer.audio.append(
        PlaylistStream(pid: 0x1101, codingType: 0x81, format: 3, rate: 1, language: "fra"))
      try disc.playlist(802, playlist(featureOrder, streams: richer))
    }
    try navigation(disc, [intro, menuLoop, [.playPlaylist(.immediate(801))]], titles: 1)
    return disc
  }

  /// A composite (901) replaying each feature clip from seconds 0, 1, 2 and 3: no (clip,
  /// in-time) repeats, so only the byte count gives it away (~4 x the feature, 24 clip plays
  /// against 9 sparse stream files as large as their clip information says), and the feature
  /// (801), which title 1 plays when `titlePlaysFeature` (else title 1 goes back to the menu).
  package static func compositeLargerThanTheDisc(titlePlaysFeature: Bool) throws
    -> SyntheticBluray
  {
    let disc = try baseDisc()
    // Stream files as large as their clip information says (sparse: nothing written).
    for id in featureOrder + ["00107", "00001", "00002"] {
      let seconds = id >= "00100" ? 60 : 30
      let url = disc.directory.url.appendingPathComponent("BDMV/STREAM/\(id).m2ts")
      FileManager.default.createFile(atPath: url.path, contents: nil)
      let handle = try FileHandle(forWritingTo: url)
      try handle.truncate(atOffset: UInt64(seconds * 1000 * 192))
      try handle.close()
    }
    var items: [PlayItem] = []
    for id in featureOrder {
      for start in 0..<4 { items.append(SyntheticBluray.item(id, from: start, to: 60)) }
    }
    try disc.playlist(901, MoviePlaylist(playItems: items))
    try disc.playlist(801, playlist(featureOrder))
    let title: [C] =
      titlePlaysFeature ? [.playPlaylist(.immediate(801))] : [.jumpTitle(.immediate(0))]
    try navigation(disc, [intro, menuLoop, title], titles: 1)
    return disc
  }

  /// One 500 s clip without chapters (700) that no title plays, and the feature (801): First
  /// Play jumps to title 2, which plays 801; title 1 goes back to the menu.
  package static func chapterlessDecoy() throws -> SyntheticBluray {
    let disc = try baseDisc()
    try disc.clip("00200", SyntheticBluray.clipInfo(seconds: 500))
    try disc.playlist(
      700, MoviePlaylist(playItems: [SyntheticBluray.item("00200", from: 0, to: 500)], marks: []))
    try disc.playlist(801, playlist(featureOrder))
    try navigation(
      disc,
      [
        [.playPlaylist(.immediate(10)), .jumpTitle(.immediate(2))], menuLoop,
        [.jumpTitle(.immediate(0))], [.playPlaylist(.immediate(801)), .jumpTitle(.immediate(0))],
      ], titles: 2)
    return disc
  }

  /// A flood of 20 orders (800-819, real 812) that only the top menu's `composition` reaches: the
  /// Top Menu plays playlist 50, whose clip 00050 carries the IG stream (PID 0x1400); object 3
  /// plays GPR7 (which a button is to set).
  package static func menuFlood(_ composition: InteractiveComposition) throws -> SyntheticBluray {
    let disc = try baseDisc()
    try flood(disc, count: 20, real: 812, seed: 7)
    try disc.clip("00050", SyntheticBluray.clipInfo(seconds: 30))
    var stn = SyntheticBluray.standardStreams
    stn.interactiveGraphics = [PlaylistStream(pid: 0x1400, codingType: 0x91, language: "eng")]
    var item = SyntheticBluray.item("00050", from: 0, to: 30)
    item.streams = stn
    try disc.playlist(50, MoviePlaylist(playItems: [item]))
    try disc.write(
      "BDMV/STREAM/00050.m2ts",
      IGStreamWriter.transportStream(
        segments: [(0x18, composition.serialize()), (0x80, [])], pid: 0x1400))
    try navigation(
      disc,
      [
        [.jumpTitle(.immediate(0))], [.playPlaylist(.immediate(50)), .goto(.immediate(0))],
        [.jumpTitle(.immediate(0))], [.playPlaylist(.gpr(7))],
      ], titles: 1)
    return disc
  }

  // MARK: title choice

  /// A feature (00001, one clip of an hour), an extra (00012, 40 minutes of another clip) and a
  /// duplicate of the feature (00030), chapters every 5 minutes; no title plays any of them.
  package static func duplicatedFeature() throws -> SyntheticBluray {
    let disc = try SyntheticBluray()
    try disc.clip("00001", SyntheticBluray.clipInfo(seconds: 4000))
    try disc.clip("00002", SyntheticBluray.clipInfo(seconds: 3000))
    let feature = [SyntheticBluray.item("00001", from: 0, to: 3600)]
    try disc.playlist(
      1, MoviePlaylist(playItems: feature, marks: SyntheticBluray.marks(every: 300, items: feature))
    )
    let extra = [SyntheticBluray.item("00002", from: 0, to: 2400)]
    try disc.playlist(
      12, MoviePlaylist(playItems: extra, marks: SyntheticBluray.marks(every: 300, items: extra)))
    try disc.playlist(
      30,
      MoviePlaylist(playItems: feature, marks: SyntheticBluray.marks(every: 300, items: feature)))
    try disc.navigation(plays: [])
    return disc
  }
}
