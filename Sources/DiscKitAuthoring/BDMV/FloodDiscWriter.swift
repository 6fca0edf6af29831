import DiscKit
import Foundation

/// Writes a BDMV folder shaped like a Lionsgate "permutation flood" for benchmarks and tests:
/// `floodCount` playlists (numbered from 0) that each play the same `clipCount` clips of 300 s in
/// a different order, the real order at `feature`; an intro playlist and a top-menu playlist whose
/// clip carries an interactive-graphics menu (one "Play" button that stores the feature's number
/// in GPR7 and jumps to the object that plays it, chapter buttons that start the feature at a
/// mark through a register, and phantom buttons); index.bdmv with First Play, a Top Menu and `titleCount` titles.
///
/// Clip information and playlists only (no stream files but the menu clip's), as the libbluray
/// title listing and DiscKit's `titles` read them.
package enum FloodDiscWriter {
  /// The playlist numbers of the intro and the menu, after the flood.
  package static func introPlaylist(floodCount: Int) -> Int { floodCount }
  /// The top-menu playlist number.
  package static func menuPlaylist(floodCount: Int) -> Int { floodCount + 1 }

  /// The IG PID of the menu clip.
  package static let menuPID: UInt16 = 0x1400

  /// Writes the disc under `root` (which must exist). The flood's orders come from a generator
  /// seeded with `seed`, so the same arguments write the same disc.
  package static func write(
    at root: String, floodCount: Int = 1000, clipCount: Int = 20, feature: Int = 777,
    titleCount: Int = 8, seed: UInt64 = 18
  ) throws {
    let fm = FileManager.default
    for sub in ["BDMV/PLAYLIST", "BDMV/CLIPINF", "BDMV/STREAM"] {
      try fm.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true)
    }
    func put(_ relative: String, _ bytes: [UInt8]) throws {
      try Data(bytes).write(to: URL(fileURLWithPath: root + "/" + relative))
    }
    var stn = StreamNumberTable()
    stn.video = [PlaylistStream(pid: 0x1011, codingType: 0x1B, format: 6, rate: 1)]
    stn.audio = [
      PlaylistStream(pid: 0x1100, codingType: 0x81, format: 3, rate: 1, language: "eng")
    ]
    // The feature clips 00001... and the intro and menu clips after them.
    let clips = (1...clipCount).map { String(format: "%05d", $0) }
    let intro = String(format: "%05d", clipCount + 1)
    let menu = String(format: "%05d", clipCount + 2)
    for id in clips { try put("BDMV/CLIPINF/\(id).clpi", clipInfo(seconds: 300).serialize()) }
    for id in [intro, menu] {
      try put("BDMV/CLIPINF/\(id).clpi", clipInfo(seconds: 30).serialize())
    }
    func playlist(_ ids: [String], seconds: Int, streams: StreamNumberTable, marks: Bool)
      -> MoviePlaylist
    {
      let items = ids.map {
        PlayItem(
          clips: [PlayItemClip(clipID: $0)], inTime: 27000,
          outTime: 27000 + UInt32(seconds) * 45000, streams: streams)
      }
      let chapters =
        marks ? items.indices.map { PlaylistMark(playItemRef: UInt16($0), time: 27000) } : []
      return MoviePlaylist(playItems: items, marks: chapters)
    }
    // The real order: interleaved halves, not ascending.
    let real = stride(from: 0, to: clipCount, by: 2).flatMap { k -> [String] in
      k + 1 < clipCount ? [clips[k + 1], clips[k]] : [clips[k]]
    }
    var rng = SplitMix(state: seed)
    var seen: Set<[String]> = [real]
    for number in 0..<floodCount {
      var order = real
      if number != feature {
        repeat { order.shuffle(using: &rng) } while !seen.insert(order).inserted
      }
      try put(
        String(format: "BDMV/PLAYLIST/%05d.mpls", number),
        playlist(order, seconds: 300, streams: stn, marks: true).serialize())
    }
    let introNumber = introPlaylist(floodCount: floodCount)
    let menuNumber = menuPlaylist(floodCount: floodCount)
    try put(
      String(format: "BDMV/PLAYLIST/%05d.mpls", introNumber),
      playlist([intro], seconds: 30, streams: stn, marks: false).serialize())
    var menuStreams = stn
    menuStreams.interactiveGraphics = [
      PlaylistStream(pid: menuPID, codingType: 0x91, language: "eng")
    ]
    try put(
      String(format: "BDMV/PLAYLIST/%05d.mpls", menuNumber),
      playlist([menu], seconds: 30, streams: menuStreams, marks: false).serialize())
    // The menu, as players accept it (a button command may not change the playlist itself:
    // libbluray refuses PlayPL from a button): Play stores the feature's number in GPR7 and jumps
    // to object 3, which plays GPR7; the chapter buttons store a mark in GPR6 and jump to object
    // 4, which plays the feature from that mark; the phantoms do nothing. One button per overlap
    // group, each group's default valid button.
    var buttons = [
      IGButton(
        id: 1,
        commands: [
          .set(.move, .gpr(7), .immediate(UInt32(feature))), .jumpObject(.immediate(3)),
        ])
    ]
    for chapter in 0..<4 {
      buttons.append(
        IGButton(
          id: UInt16(2 + chapter),
          commands: [
            .set(.move, .gpr(6), .immediate(UInt32(chapter * 4))), .jumpObject(.immediate(4)),
          ]))
    }
    for phantom in 0..<3 { buttons.append(IGButton(id: UInt16(6 + phantom), commands: [.nop])) }
    let composition = InteractiveComposition(pages: [
      IGPage(
        id: 0,
        groups: buttons.map { IGButtonOverlapGroup(defaultValidButton: $0.id, buttons: [$0]) })
    ])
    try put(
      "BDMV/STREAM/\(menu).m2ts",
      IGStreamWriter.transportStream(
        segments: [(0x18, composition.serialize()), (0x80, [])], pid: menuPID))
    // Objects: 0 First Play, 1 Top Menu, 2 title 1, 3 and 4 the objects the buttons jump to,
    // then the other titles.
    var objects: [[NavigationCommand]] = [
      [.playPlaylist(.immediate(UInt32(introNumber))), .jumpTitle(.immediate(0))],
      [.playPlaylist(.immediate(UInt32(menuNumber))), .goto(.immediate(0))],
      [.jumpTitle(.immediate(0))],
      [.playPlaylist(.gpr(7)), .jumpTitle(.immediate(0))],
      [.playPlaylist(.immediate(UInt32(feature)), mark: .gpr(6)), .jumpTitle(.immediate(0))],
    ]
    // The other titles return to the menu, as such discs' titles do when started directly.
    for _ in 1..<max(1, titleCount) { objects.append([.jumpTitle(.immediate(0))]) }
    let titles = (0..<max(1, titleCount)).map { k in
      BDMVIndex.Title(object: .hdmv(movieObject: UInt16(k == 0 ? 2 : 4 + k), playbackType: 0))
    }
    let index = BDMVIndex(
      firstPlay: .hdmv(movieObject: 0, playbackType: 0),
      topMenu: .hdmv(movieObject: 1, playbackType: 1), titles: titles)
    try put("BDMV/index.bdmv", index.serialize())
    try put(
      "BDMV/MovieObject.bdmv",
      MovieObjectFile(objects: objects.map { .init(commands: $0) }).serialize())
  }

  /// Clip information of `seconds` seconds (one entry point a second, 1,000 packets a second).
  static func clipInfo(seconds: Int) -> ClipInformation {
    let entries = (0..<seconds).map { (pts45k: 27000 + UInt32($0) * 45000, spn: UInt32($0) * 1000) }
    return ClipInformation(
      sourcePacketCount: UInt32(seconds) * 1000,
      sequence: ClipSequenceInfo(atcSequences: [
        .init(stcSequences: [
          .init(
            pcrPID: 0x1001, spnSTCStart: 0, presentationStartTime: 27000,
            presentationEndTime: 27000 + UInt32(seconds) * 45000)
        ])
      ]),
      program: ClipProgramInfo(programs: [
        .init(streams: [
          .init(pid: 0x1011, codingType: 0x1B, format: 6, rate: 1),
          .init(pid: 0x1100, codingType: 0x81, format: 3, rate: 1, language: "eng"),
        ])
      ]),
      epMap: EPMap(streams: [EPMap.Stream(pid: 0x1011, entries: entries)]))
  }

  /// SplitMix64: a small seeded generator, so a seed writes the same flood every time.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
