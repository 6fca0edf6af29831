@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import Foundation

/// Writes a BDMV folder shaped like a Lionsgate "permutation flood" for benchmarks and tests:
/// `floodCount` playlists (numbered from 0) that each play the same `clipCount` clips of 300 s in
/// a different order, the real order at `feature`; an intro playlist and a top-menu playlist whose
/// clip carries an interactive-graphics menu (one "Play" button that stores the feature's number
/// in GPR7 and jumps to the object that plays it, chapter buttons that start the feature at a
/// mark through a register, and phantom buttons); index.bdmv with First Play, a Top Menu and `titleCount` titles.
///
/// With `jarCount` > 0 the disc also carries a BD-J title (BDJO 00001, its autostart Xlet in
/// JAR 00000 whose class names the feature by locator) and `jarCount - 1` more JARs of
/// `classesPerJAR` class files each naming other flood members, as studios' menu code does,
/// so the listing reads and searches every archive.
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
    titleCount: Int = 8, seed: UInt64 = 18, jarCount: Int = 0, classesPerJAR: Int = 100
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
    var titles = (0..<max(1, titleCount)).map { k in
      BDMVIndex.Title(object: .hdmv(movieObject: UInt16(k == 0 ? 2 : 4 + k), playbackType: 0))
    }
    if jarCount > 0 {
      titles.append(.init(object: .bdj(name: "00001", playbackType: 2)))
      try writeBDJ(
        at: root, feature: feature, floodCount: floodCount, jarCount: jarCount,
        classesPerJAR: classesPerJAR, rng: &rng)
    }
    let index = BDMVIndex(
      firstPlay: .hdmv(movieObject: 0, playbackType: 0),
      topMenu: .hdmv(movieObject: 1, playbackType: 1), titles: titles)
    try put("BDMV/index.bdmv", index.serialize())
    try put(
      "BDMV/MovieObject.bdmv",
      MovieObjectFile(objects: objects.map { .init(commands: $0) }).serialize())
  }

  /// The BD-J part: BDJO 00001 (autostart Xlet `com.studio.Menu` in JAR 00000, the feature in
  /// its table of accessible playlists), JAR 00000 with the class naming the feature, and
  /// JARs 00001... of classes naming flood members at random.
  static func writeBDJ(
    at root: String, feature: Int, floodCount: Int, jarCount: Int, classesPerJAR: Int,
    rng: inout SplitMix
  ) throws {
    let fm = FileManager.default
    for sub in ["BDMV/BDJO", "BDMV/JAR"] {
      try fm.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true)
    }
    func put(_ relative: String, _ bytes: [UInt8]) throws {
      try Data(bytes).write(to: URL(fileURLWithPath: root + "/" + relative))
    }
    let featureName = String(format: "%05d", feature)
    let object = BDJObject(
      terminalInfo: .init(), cache: [.init(type: 1, name: "00000", language: "*.*")],
      accessiblePlaylists: .init(
        accessToAll: false, autostartFirstPlaylist: false, playlists: [featureName]),
      applications: [
        BDJApplication(
          controlCode: 1, organizationID: 0x5600_0001, applicationID: 0x4000,
          baseDirectory: "00000", initialClassName: "com.studio.Menu")
      ])
    try put("BDMV/BDJO/00001.bdjo", object.serialize())
    for jar in 0..<jarCount {
      var members: [(path: String, bytes: [UInt8])] = []
      for k in 0..<max(1, classesPerJAR) {
        let name = jar == 0 && k == 0 ? "com/studio/Menu" : "com/studio/p\(jar)/C\(k)"
        let named =
          jar == 0 && k == 0 ? feature : Int(rng.next() % UInt64(max(1, floodCount)))
        members.append(
          (
            name + ".class",
            classFile(
              name: name,
              strings: [
                "bd://0.PLAYLIST:" + String(format: "%05d", named), "menu/background.png",
                "org/bluray/ti/PlaylistImpl", "play",
              ])
          ))
      }
      try put(String(format: "BDMV/JAR/%05d.jar", jar), StoredZipWriter.archive(members))
    }
  }

  /// A minimal valid class file (Java 8, major 52) named `name`, extending `java/lang/Object`,
  /// whose constant pool holds each of `strings` as a `CONSTANT_String`; no fields or methods.
  package static func classFile(name: String, strings: [String]) -> [UInt8] {
    var pool: [[UInt8]] = []
    func utf8(_ text: String) -> Int {
      let bytes = Array(text.utf8)
      pool.append([1, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes)
      return pool.count
    }
    func reference(_ tag: UInt8, _ index: Int) -> Int {
      pool.append([tag, UInt8(index >> 8), UInt8(index & 0xFF)])
      return pool.count
    }
    let this = reference(7, utf8(name))
    let superclass = reference(7, utf8("java/lang/Object"))
    for text in strings { _ = reference(8, utf8(text)) }
    var out: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52]
    out += [UInt8((pool.count + 1) >> 8), UInt8((pool.count + 1) & 0xFF)]
    for entry in pool { out += entry }
    out += [0x00, 0x21]  // ACC_PUBLIC | ACC_SUPER
    out += [UInt8(this >> 8), UInt8(this & 0xFF), UInt8(superclass >> 8), UInt8(superclass & 0xFF)]
    out += [0, 0, 0, 0, 0, 0, 0, 0]  // no interfaces, fields, methods, attributes
    return out
  }

  /// Clip information of `seconds` seconds (one entry point a second, 1,000 packets a second).
  static func clipInfo(seconds: Int) -> ClipInformation {
    FixtureClipInformation.make(
      seconds: seconds, packets: UInt32(seconds) * 1000,
      streams: [.init(pid: 0x1100, codingType: 0x81, format: 3, rate: 1, language: "eng")])
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
