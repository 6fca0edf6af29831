@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import Foundation

/// Writes a BDMV folder shaped like a retail Blu-ray whose every clip carries an interactive
/// graphics stream (as most retail discs' clips do: an always-on top menu, pop-up menus over the
/// feature and the extras), with stream files as large as their clip information says: each
/// starts with its IG display set (ICS, palette, a button picture, END: whole aligned units) and
/// the rest is a hole (sparse, nothing written), so a disc of many gigabytes costs a few
/// kilobytes. For the listing-cost tests and `make bench`.
///
/// Clips: `00000` the top menu (60 s), `00001` a warning (15 s), then the feature's parts
/// (``Layout/movie``: `featureClips` parts of unlike lengths, 4 to 15 minutes, as a
/// film's are) or the episodes (``Layout/series``: one clip of about 24 minutes each), then
/// extras (120 s each) up to `clipCount`. Playlists: `00000` the menu, `00001` the warning, the
/// feature or play-all (`featurePlaylist`, its clips in order, a chapter every 5 minutes), for a
/// series each episode's own playlist (`featurePlaylist + 1 + k`), `00010 + k` extra `k`.
/// Navigation: First Play plays the warning and goes to the Top Menu, which loops on the menu;
/// the menu's Play button stores the feature's number in GPR7 and jumps to object 3 (which plays
/// GPR7), a series' episode buttons store their episode's playlist there, its chapter buttons
/// store a mark in GPR6 and jump to object 4 (the feature from that mark), its extras buttons jump
/// to the object playing each extra. Index title 1 plays the feature (``Reach/navigation``) or
/// goes back to the menu (``Reach/menu``: only the Play button reaches the feature).
package enum RetailDiscWriter {
  /// How the feature is reached.
  package enum Reach: Sendable {
    /// Index title 1 plays it: the navigation decides.
    case navigation
    /// Only the top menu's buttons lead to it: the menus decide.
    case menu
  }

  /// What the disc holds.
  package enum Layout: Sendable, Equatable {
    /// A film in parts of unlike lengths, and extras.
    case movie
    /// A TV or anime series: a play-all of `episodes` episode clips, a playlist per episode (the
    /// menu's episode buttons start them), extras.
    case series(episodes: Int)
  }

  /// The lengths (seconds) of a film's parts, repeated as needed: 4 to 15 minutes, unlike.
  package static let movieClipSeconds = [
    540, 300, 720, 240, 600, 420, 900, 360, 480, 660, 270, 780,
  ]

  /// The IG PID of every clip.
  package static let menuPID: UInt16 = 0x1400
  /// The top menu's and the warning's playlists.
  package static let menuPlaylist = 0
  package static let warningPlaylist = 1
  /// The first extra's playlist.
  package static let firstExtraPlaylist = 10

  /// What was written.
  package struct Disc: Sendable {
    /// The clip ids, in number order.
    package var clips: [String]
    /// The feature's playlist number (a series: the play-all's).
    package var featurePlaylist: Int
    /// A series' episode playlists, in order (empty for a film).
    package var episodePlaylists: [Int] = []
    /// Bytes of the stream files (their apparent sizes).
    package var streamBytes: Int64
  }

  /// Writes the disc under `root` (created when missing).
  ///
  /// - Parameters:
  ///   - layout: a film or a series.
  ///   - clipCount: clips in all (at least `featureClips + 3`, or episodes + 3).
  ///   - featureClips: a film's parts.
  ///   - packetsPerSecond: source packets a second of every clip (the stream files' sizes:
  ///     20,000 is about 30 Mbit/s).
  @discardableResult
  package static func write(
    at root: String, reach: Reach = .navigation, layout: Layout = .movie, clipCount: Int = 22,
    featureClips: Int = 12, packetsPerSecond: UInt32 = 20_000, featurePlaylist: Int = 800
  ) throws -> Disc {
    var episodeCount = 0
    if case .series(let n) = layout { episodeCount = max(2, n) }
    let featureClips = episodeCount > 0 ? episodeCount : max(1, featureClips)
    let fm = FileManager.default
    for sub in ["BDMV/PLAYLIST", "BDMV/CLIPINF", "BDMV/STREAM", "BDMV/BACKUP"] {
      try fm.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true)
    }
    func put(_ relative: String, _ bytes: [UInt8]) throws {
      try Data(bytes).write(to: URL(fileURLWithPath: root + "/" + relative))
    }
    let clips = (0..<max(clipCount, featureClips + 3)).map { String(format: "%05d", $0) }
    let feature = Array(clips[2..<(2 + featureClips)])
    let extras = Array(clips[(2 + featureClips)...])
    func seconds(_ clip: String) -> Int {
      if clip == clips[0] { return 60 }
      if clip == clips[1] { return 15 }
      guard let part = feature.firstIndex(of: clip) else { return 120 }
      let k = part - feature.startIndex
      return episodeCount > 0
        ? 1440 - 10 * (k % 3) : movieClipSeconds[k % movieClipSeconds.count]
    }
    let episodePlaylists = (0..<episodeCount).map { featurePlaylist + 1 + $0 }

    var stn = StreamNumberTable()
    stn.video = [PlaylistStream(pid: 0x1011, codingType: 0x1B, format: 6, rate: 1)]
    stn.audio = [PlaylistStream(pid: 0x1100, codingType: 0x81, format: 3, rate: 1, language: "eng")]
    stn.interactiveGraphics = [PlaylistStream(pid: menuPID, codingType: 0x91, language: "eng")]
    func playlist(_ ids: [String], marksEvery: Int?) -> MoviePlaylist {
      let items = ids.map {
        PlayItem(
          clips: [PlayItemClip(clipID: $0)], inTime: 27000,
          outTime: 27000 + UInt32(seconds($0)) * 45000, streams: stn)
      }
      var marks: [PlaylistMark] = []
      if let every = marksEvery {
        var start = 0
        for (k, id) in ids.enumerated() {
          var t = (every - start % every) % every
          while t < seconds(id) {
            marks.append(PlaylistMark(playItemRef: UInt16(k), time: 27000 + UInt32(t) * 45000))
            t += every
          }
          start += seconds(id)
        }
      }
      return MoviePlaylist(playItems: items, marks: marks)
    }

    // The menus. Objects: 0 First Play, 1 Top Menu, 2 title 1, 3 plays GPR7, 4 plays the
    // feature from mark GPR6, 5 + k plays extra k.
    typealias C = NavigationCommand
    var topButtons: [IGButton] = [
      IGButton(
        id: 1,
        commands: [
          .set(.move, .gpr(7), .immediate(UInt32(featurePlaylist))), .jumpObject(.immediate(3)),
        ])
    ]
    for (k, number) in episodePlaylists.enumerated() {
      topButtons.append(
        IGButton(
          id: UInt16(100 + k),
          commands: [.set(.move, .gpr(7), .immediate(UInt32(number))), .jumpObject(.immediate(3))]
        ))
    }
    for chapter in 0..<6 {
      topButtons.append(
        IGButton(
          id: UInt16(2 + chapter),
          commands: [
            .set(.move, .gpr(6), .immediate(UInt32(chapter * 2))), .jumpObject(.immediate(4)),
          ]))
    }
    for k in extras.indices {
      topButtons.append(
        IGButton(id: UInt16(8 + k), commands: [.jumpObject(.immediate(UInt32(5 + k)))]))
    }
    var top = composition(topButtons)
    top.userInterfaceModel = 0
    var popupButtons = (0..<6).map { chapter in
      IGButton(
        id: UInt16(1 + chapter),
        commands: [
          .set(.move, .gpr(6), .immediate(UInt32(chapter * 2))), .jumpObject(.immediate(4)),
        ])
    }
    popupButtons.append(IGButton(id: 7, commands: [.jumpTitle(.immediate(0))]))
    let featurePopup = composition(popupButtons)
    let backPopup = composition([IGButton(id: 1, commands: [.jumpTitle(.immediate(0))])])

    var streamBytes: Int64 = 0
    for id in clips {
      let info = clipInfo(seconds: seconds(id), packetsPerSecond: packetsPerSecond)
      try put("BDMV/CLIPINF/\(id).clpi", info.serialize())
      let menu = id == clips[0] ? top : feature.contains(id) ? featurePopup : backPopup
      let size = Int64(info.sourcePacketCount) * 192
      try writeStream(root + "/BDMV/STREAM/\(id).m2ts", menu: menu, size: size)
      streamBytes += size
    }
    try put(
      String(format: "BDMV/PLAYLIST/%05d.mpls", menuPlaylist),
      playlist([clips[0]], marksEvery: nil).serialize())
    try put(
      String(format: "BDMV/PLAYLIST/%05d.mpls", warningPlaylist),
      playlist([clips[1]], marksEvery: nil).serialize())
    try put(
      String(format: "BDMV/PLAYLIST/%05d.mpls", featurePlaylist),
      playlist(feature, marksEvery: 300).serialize())
    for (k, number) in episodePlaylists.enumerated() {
      try put(
        String(format: "BDMV/PLAYLIST/%05d.mpls", number),
        playlist([feature[k]], marksEvery: 300).serialize())
    }
    for (k, id) in extras.enumerated() {
      try put(
        String(format: "BDMV/PLAYLIST/%05d.mpls", firstExtraPlaylist + k),
        playlist([id], marksEvery: 60).serialize())
    }
    var objects: [[C]] = [
      [.playPlaylist(.immediate(UInt32(warningPlaylist))), .jumpTitle(.immediate(0))],
      [.playPlaylist(.immediate(UInt32(menuPlaylist))), .goto(.immediate(0))],
      reach == .navigation
        ? [.playPlaylist(.immediate(UInt32(featurePlaylist))), .jumpTitle(.immediate(0))]
        : [.jumpTitle(.immediate(0))],
      [.playPlaylist(.gpr(7)), .jumpTitle(.immediate(0))],
      [
        .playPlaylist(.immediate(UInt32(featurePlaylist)), mark: .gpr(6)),
        .jumpTitle(.immediate(0)),
      ],
    ]
    for k in extras.indices {
      objects.append(
        [.playPlaylist(.immediate(UInt32(firstExtraPlaylist + k))), .jumpTitle(.immediate(0))])
    }
    let index = BDMVIndex(
      firstPlay: .hdmv(movieObject: 0, playbackType: 0),
      topMenu: .hdmv(movieObject: 1, playbackType: 1),
      titles: [.init(object: .hdmv(movieObject: 2, playbackType: 0))])
    try put("BDMV/index.bdmv", index.serialize())
    try put(
      "BDMV/MovieObject.bdmv",
      MovieObjectFile(objects: objects.map { .init(commands: $0) }).serialize())
    return Disc(
      clips: clips, featurePlaylist: featurePlaylist, episodePlaylists: episodePlaylists,
      streamBytes: streamBytes)
  }

  /// One page of `buttons`, each in its own overlap group (its default valid button), laid out in
  /// a column and chained by their up/down neighbours; multiplexed with the video.
  package static func composition(_ buttons: [IGButton]) -> InteractiveComposition {
    var page = IGPage(
      id: 0,
      groups: buttons.enumerated().map { k, b in
        var button = b
        button.x = 160
        button.y = UInt16(120 + 64 * k)
        button.neighbours = [
          k > 0 ? buttons[k - 1].id : 0xFFFF, k + 1 < buttons.count ? buttons[k + 1].id : 0xFFFF,
          0xFFFF, 0xFFFF,
        ]
        return IGButtonOverlapGroup(defaultValidButton: button.id, buttons: [button])
      })
    page.defaultSelectedButton = buttons.first?.id ?? 0xFFFF
    return InteractiveComposition(pages: [page], streamModel: 0)
  }

  /// Writes a stream file of `size` bytes: the IG display set of `menu` (ICS, a palette, a
  /// 64 x 64 button picture, END), padded with null packets to whole aligned units, then a hole.
  static func writeStream(_ path: String, menu: InteractiveComposition, size: Int64) throws {
    let palette: [UInt8] = [0, 0, 1, 16, 128, 128, 255]
    // Object 0: 64 lines of 64 pixels of palette entry 1, run-length coded (each line: a run of
    // 64, then the line end 00 00).
    let line: [UInt8] = [0, 0xC0, 64, 1, 0, 0]
    var body: [UInt8] = [0, 64, 0, 64]
    for _ in 0..<64 { body += line }
    let object: [UInt8] =
      [0, 0, 0, 0xC0, 0, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    var ts = IGStreamWriter.transportStream(
      segments: [(0x18, menu.serialize()), (0x14, palette), (0x15, object), (0x80, [])],
      pid: menuPID, timestamp90k: 90_000)
    var null = [UInt8](repeating: 0xFF, count: 192)
    null[0..<8] = [0, 0, 0, 0, 0x47, 0x1F, 0xFF, 0x10]
    while ts.count % 6144 != 0 { ts += null }
    _ = FileManager.default.createFile(
      atPath: path, contents: Data(ts.prefix(Int(min(Int64(ts.count), size)))))
    if size > Int64(ts.count) {
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.truncate(atOffset: UInt64(size))
      try handle.close()
    }
  }

  /// Clip information of `seconds` seconds (one entry point a second).
  static func clipInfo(seconds: Int, packetsPerSecond: UInt32) -> ClipInformation {
    FixtureClipInformation.make(
      seconds: seconds, packets: UInt32(seconds) * packetsPerSecond,
      streams: [
        .init(pid: 0x1100, codingType: 0x81, format: 3, rate: 1, language: "eng"),
        .init(pid: menuPID, codingType: 0x91, language: "eng"),
      ])
  }

  /// Copies the BDMV tree at `source` (metadata only, as the real trees of the corpus are) to
  /// `destination` and gives it a stream file for every clip, as large as its clip information
  /// says: the clips a playlist plays with an IG stream start with the disc's own menu
  /// (`BDMV/ics_menu.bin`, the first ICS as extracted from the disc, when the tree has one) on
  /// that PID; the rest is a hole. For the listing-cost tests and `make bench`.
  package static func copyWithStreams(_ source: String, to destination: String) throws {
    let fm = FileManager.default
    try fm.copyItem(atPath: source, toPath: destination)
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: destination))
    let ics = (try? Data(contentsOf: URL(fileURLWithPath: source + "/BDMV/ics_menu.bin")))
      .map { [UInt8]($0) }
    var pids: [String: UInt16] = [:]
    for file in disc.playlists {
      for item in file.playlist?.playItems ?? [] {
        if let pid = item.streams.interactiveGraphics.first?.pid { pids[item.clip.clipID] = pid }
      }
    }
    try fm.createDirectory(
      atPath: destination + "/BDMV/STREAM", withIntermediateDirectories: true)
    for (id, result) in disc.clips {
      guard case .success(let info) = result else { continue }
      let path = destination + "/BDMV/STREAM/\(id).m2ts"
      var head: [UInt8] = []
      if let pid = pids[id], let ics {
        head = IGStreamWriter.transportStream(
          segments: [(0x18, ics), (0x80, [])], pid: pid, timestamp90k: 90_000)
      }
      _ = fm.createFile(atPath: path, contents: Data(head))
      let size = max(Int64(info.sourcePacketCount) * 192, Int64(head.count))
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.truncate(atOffset: UInt64(size))
      try handle.close()
    }
  }
}
