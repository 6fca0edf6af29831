@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringFixtures
import DiscKitAuthoringTestSupport
import DiscKitTestSupport
import Foundation
import Testing

/// Reading a clip's menu: the incremental scanner against the whole-buffer reader, what a menu
/// read costs in bytes (counted by the byte source the file system hands out), and that a
/// listing reads menus only when they can change its answer.
@Suite("Menu reading: bounded, once per clip, only when it can change the answer", .toolThreads)
struct MenuReadingTests {
  static let pid: UInt16 = 0x1400

  /// The real menus' compositions (`ics_menu.bin`, an ICS segment payload each).
  static let realCompositions: [[UInt8]] = InteractiveCompositionRoundTripTests.samples.compactMap {
    (try? Data(contentsOf: URL(fileURLWithPath: $0))).map { [UInt8]($0) }
  }

  /// A transport stream (192-byte packets) in which `pid` carries, after `lead` packets of other
  /// PIDs: the tail of an earlier display set (an object segment whose start is not in the
  /// stream), a palette, `composition` split into `fragments` ICS segments, a large object and
  /// END; other PIDs' packets are interleaved every `every` packets.
  static func stream(
    _ composition: [UInt8], fragments: Int, lead: Int, every: Int, timestamps: Bool,
    rng: inout SeededRandom
  ) -> [UInt8] {
    var segments: [(type: UInt8, payload: [UInt8])] = [(0x14, [0, 0, 1, 16, 128, 128, 255])]
    let header = Array(composition.prefix(9))
    let body = Array(composition.dropFirst(9))
    let cuts = [0] + (1..<fragments).map { body.count * $0 / fragments } + [body.count]
    for k in 0..<fragments {
      var fragment = header
      if fragment.count == 9 {
        fragment[8] = (k == 0 ? 0x80 : 0) | (k == fragments - 1 ? 0x40 : 0)
      }
      segments.append((0x18, fragment + body[cuts[k]..<cuts[k + 1]]))
    }
    segments.append((0x15, (0..<40_000).map { _ in UInt8.random(in: 0...255, using: &rng) }))
    segments.append((0x80, []))
    let ig = IGStreamWriter.transportStream(
      segments: segments, pid: pid, timestamp90k: timestamps ? 90_000 : nil)
    func other(_ n: Int) -> [UInt8] {
      var packet = [UInt8](repeating: 0xFF, count: 192)
      packet[4...7] = [0x47, 0x10, 0x11, 0x10 | UInt8(n & 15)]
      return packet
    }
    // The tail of an object segment of an earlier display set: payload only, no PES start.
    var tail = [UInt8](repeating: 0, count: 192)
    tail[4...7] = [0x47, UInt8(pid >> 8), UInt8(pid & 0xFF), 0x10]
    var out: [UInt8] = []
    for n in 0..<lead { out += other(n) }
    out += tail
    var n = 0
    for k in stride(from: 0, to: ig.count, by: 192) {
      out += ig[k..<(k + 192)]
      n += 1
      if every > 0 && n % every == 0 { out += other(n) }
    }
    return out
  }

  /// The whole-buffer reader's answer, as text (composition or error).
  static func whole(_ ts: [UInt8], packetSize: Int = 192) -> String {
    let es = IGStreamReader.elementaryStream(ts, pid: pid, packetSize: packetSize)
    do {
      return String(
        describing: try IGStreamReader.firstComposition(inElementaryStream: es, name: "ts"))
    } catch { return "error \(error)" }
  }

  /// The scanner's answer fed in pieces of `sizes` packets (cycled), as text; and the bytes fed
  /// until it said it was complete.
  static func pieces(_ ts: [UInt8], sizes: [Int], packetSize: Int = 192) -> (String, Int) {
    var scanner = IGCompositionScanner(pid: pid, packetSize: packetSize, name: "ts")
    var offset = 0
    var k = 0
    do {
      while offset < ts.count {
        let end = min(ts.count, offset + sizes[k % sizes.count] * packetSize)
        k += 1
        let done = try ts[offset..<end].withUnsafeBytes { raw throws(DiscKitError) in
          try scanner.feed(raw)
        }
        offset = end
        if done { break }
      }
      return (String(describing: scanner.composition), offset)
    } catch { return ("error \(error)", offset) }
  }

  @Test("the scanner fed in pieces finds what the whole-buffer reader finds, and stops there")
  func scannerAgainstWholeBuffer() throws {
    var rng = SeededRandom(seed: 0x1C5_0029)
    var seeds = Self.realCompositions
    seeds.append(
      RetailDiscWriter.composition(
        (1...40).map { IGButton(id: UInt16($0), commands: [.jumpTitle(.immediate(1))]) }
      ).serialize())
    #expect(seeds.count >= 2)
    for (s, seed) in seeds.enumerated() {
      for variant in 0..<6 {
        let ts = Self.stream(
          seed, fragments: 1 + variant % 3, lead: variant * 7, every: variant % 2 == 0 ? 3 : 0,
          timestamps: variant % 2 == 1, rng: &rng)
        let expected = Self.whole(ts)
        #expect(expected.hasPrefix("Optional"), "seed \(s) variant \(variant): \(expected)")
        for sizes in [[1], [2, 5, 1], [32], [11, 32], [1000]] {
          let (found, fed) = Self.pieces(ts, sizes: sizes)
          #expect(found == expected, "seed \(s) variant \(variant) sizes \(sizes)")
          // Complete before the large object segment after the ICS was read.
          if sizes.max() ?? 0 <= 32 {
            #expect(fed < ts.count - 30_000, "seed \(s) variant \(variant) sizes \(sizes)")
          }
        }
      }
    }
    // Damaged streams: the same answer (composition, none, or the same error) either way.
    let base = Self.stream(
      seeds[0], fragments: 2, lead: 3, every: 2, timestamps: true, rng: &rng)
    for round in 0..<400 {
      var ts = base
      for _ in 0..<Int.random(in: 1...6, using: &rng) {
        let k = Int.random(in: 0..<min(ts.count, 24_000), using: &rng)
        ts[k] ^= UInt8.random(in: 1...255, using: &rng)
      }
      let sizes = [Int.random(in: 1...40, using: &rng)]
      #expect(Self.pieces(ts, sizes: sizes).0 == Self.whole(ts), "round \(round)")
    }
    // 188-byte packets.
    let plain = IGStreamWriter.transportStream(segments: [(0x18, seeds[0])], pid: Self.pid)
      .enumerated().filter { $0.offset % 192 >= 4 }.map(\.element)
    #expect(Self.pieces(plain, sizes: [3], packetSize: 188).0 == Self.whole(plain, packetSize: 188))
  }

  /// A folder disc with one 60 s clip (00050) carrying an IG stream in playlists 50 and 51, whose
  /// stream file is `stream` (then a hole up to `size` bytes when larger).
  static func menuDisc(stream: [UInt8], size: Int64) throws -> SyntheticBluray {
    let disc = try SyntheticBluray()
    try disc.clip("00050", SyntheticBluray.clipInfo(seconds: 60))
    var stn = SyntheticBluray.standardStreams
    stn.interactiveGraphics = [PlaylistStream(pid: Self.pid, codingType: 0x91, language: "eng")]
    var item = SyntheticBluray.item("00050", from: 0, to: 60)
    item.streams = stn
    try disc.playlist(50, MoviePlaylist(playItems: [item]))
    try disc.playlist(51, MoviePlaylist(playItems: [item]))
    let path = disc.directory.url.appendingPathComponent("BDMV/STREAM/00050.m2ts").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(stream))
    if size > Int64(stream.count) {
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.truncate(atOffset: UInt64(size))
      try handle.close()
    }
    try disc.navigation(plays: [[50]])
    return disc
  }

  func open(_ disc: SyntheticBluray, _ counter: ReadCounter) throws -> BlurayDisc {
    try BlurayDisc(
      fileSystem: CountingFileSystem(try FolderFileSystem(root: disc.path), counter: counter))
  }

  @Test("a menu at the clip's start costs one read of whole aligned units, once per clip")
  func menuAtTheStart() throws {
    let composition = RetailDiscWriter.composition([
      IGButton(id: 1, commands: [.jumpTitle(.immediate(1))])
    ])
    var rng = SeededRandom(seed: 7)
    let ts = Self.stream(
      composition.serialize(), fragments: 1, lead: 4, every: 0, timestamps: true, rng: &rng)
    let disc = try Self.menuDisc(stream: ts, size: 4 << 30)
    let counter = ReadCounter()
    let bluray = try open(disc, counter)
    let before = counter.total(matching: "/STREAM/")
    #expect(before == 0, "opening the disc reads no stream file")
    let read = try #require(bluray.menu(playlist: 50) as IGMenuRead?)
    #expect(read.composition == composition)
    #expect(read.error == nil)
    let streamBytes = counter.total(matching: "/STREAM/")
    #expect(read.bytesRead == streamBytes)
    #expect(streamBytes % 6144 == 0)
    #expect(streamBytes <= 192 << 10, "one modest read, not megabytes")
    // Playlist 51 plays the same clip: its menu is the one already read.
    #expect(bluray.menu(playlist: 51)?.composition == composition)
    #expect(try bluray.menuComposition(playlist: 50) == composition)
    #expect(counter.total(matching: "/STREAM/") == streamBytes)
  }

  @Test("a clip without a menu: a hole ends the search at once, a stream without one at the bound")
  func noMenu() throws {
    // A sparse file: nothing but a hole.
    let hole = try Self.menuDisc(stream: [], size: 1 << 30)
    let holeCounter = ReadCounter()
    let holeRead = try #require(try open(hole, holeCounter).menu(playlist: 50))
    #expect(holeRead.composition == nil && holeRead.error == nil)
    #expect(holeCounter.total(matching: "/STREAM/") == holeRead.bytesRead)
    #expect(holeRead.bytesRead <= 192 << 10)
    // Transport packets of other PIDs only, 8 MiB of them: read up to the bound, no further.
    var stream = [UInt8](repeating: 0xFF, count: (8 << 20) / 192 * 192)
    for k in stride(from: 0, to: stream.count, by: 192) {
      stream[k..<(k + 8)] = [0, 0, 0, 0, 0x47, 0x10, 0x11, 0x10]
    }
    let none = try Self.menuDisc(stream: stream, size: Int64(stream.count))
    let counter = ReadCounter()
    let read = try #require(try open(none, counter).menu(playlist: 50))
    #expect(read.composition == nil && read.error == nil)
    #expect(counter.total(matching: "/STREAM/") == read.bytesRead)
    #expect(read.bytesRead < 4 << 20, "bounded well below the 8 MiB a clip used to cost")
    #expect(read.bytesRead >= 1 << 20, "a clip whose menu comes later is still searched")
    // A short file: read whole, once.
    let short = try Self.menuDisc(stream: Array(stream.prefix(192 * 10)), size: 192 * 10)
    let shortCounter = ReadCounter()
    let shortRead = try #require(try open(short, shortCounter).menu(playlist: 50))
    #expect(shortRead.bytesRead == 192 * 10)
    #expect(shortCounter.total(matching: "/STREAM/") == 192 * 10)
  }

  /// The listing of `path` through a counting file system: the selection's title list and the
  /// bytes of stream files it read, then the whole document (`titles --json`: the episode search
  /// too) and the bytes of stream files read in all.
  static func listing(_ path: String) throws -> (
    list: TitleList, listBytes: Int64, document: TitlesDocument, streamBytes: Int64
  ) {
    let counter = ReadCounter()
    let image = DiscImage(
      path: path, source: nil,
      fileSystem: CountingFileSystem(try FolderFileSystem(root: path), counter: counter))
    let disc = try Disc(image: image)
    let list = try disc.titleList()
    let listBytes = counter.total(matching: "/STREAM/")
    let document = try TitlesDocument(disc: disc)
    return (list, listBytes, document, counter.total(matching: "/STREAM/"))
  }

  @Test(
    "a retail-like disc (IG in every clip, gigabytes of sparse streams): the navigation decides, the selection reads no stream byte"
  )
  func retailNavigationDecides() throws {
    let directory = try TemporaryDirectory("disckit-retail")
    let written = try RetailDiscWriter.write(at: directory.path, reach: .navigation)
    #expect(written.streamBytes > 10 << 30)
    let listing = try Self.listing(directory.path)
    let feature = String(format: "%05d", written.featurePlaylist)
    #expect(listing.list.mainKey == feature)
    #expect(listing.list.confidence == .navigation)
    #expect(listing.listBytes == 0)
    #expect(listing.list.menusRead.isEmpty)
    // Nor does the document's episode search: the disc's structure is a film's (parts of unlike
    // lengths, short extras), which its menus do not split.
    #expect(listing.document.main == feature)
    #expect(listing.document.menusRead == [])
    #expect(listing.document.episodes?.episodic == false)
    #expect(listing.streamBytes == 0)
  }

  @Test(
    "a retail-like series (IG in every clip): the navigation decides the main title, the episode search reads the shown menus once each"
  )
  func retailSeries() throws {
    let directory = try TemporaryDirectory("disckit-retail")
    let written = try RetailDiscWriter.write(
      at: directory.path, reach: .navigation, layout: .series(episodes: 6))
    let listing = try Self.listing(directory.path)
    #expect(listing.list.mainKey == String(format: "%05d", written.featurePlaylist))
    #expect(listing.listBytes == 0)
    // The structure shows episodes (a play-all and a playlist per episode), which the menus the
    // navigation shows (the warning's, the top menu's, the play-all's pop-up) can confirm, order
    // or replace: each read once, one modest read each.
    let menus = try #require(listing.document.menusRead)
    #expect(Set(menus.map(\.clip)) == [written.clips[0], written.clips[1], written.clips[2]])
    #expect(menus.count == 3)
    #expect(menus.map(\.bytes).reduce(0, +) == listing.streamBytes)
    #expect(menus.allSatisfy { $0.bytes <= 192 << 10 && $0.buttons != nil })
    let episodes = try #require(listing.document.episodes)
    #expect(episodes.episodes.compactMap { Int($0.key) } == written.episodePlaylists)
    #expect(episodes.confidence == .navigation, "\(episodes.reason)")
  }

  @Test(
    "a retail-like disc whose feature only a menu button reaches: the shown menus, one modest read each"
  )
  func retailMenuDecides() throws {
    let directory = try TemporaryDirectory("disckit-retail")
    let written = try RetailDiscWriter.write(at: directory.path, reach: .menu)
    let listing = try Self.listing(directory.path)
    let document = listing.document
    let streamBytes = listing.streamBytes
    #expect(listing.list.mainKey == String(format: "%05d", written.featurePlaylist))
    #expect(listing.list.menusRead.count == 2)
    #expect(listing.listBytes == streamBytes, "the episode search reads no menu twice")
    #expect(document.main == String(format: "%05d", written.featurePlaylist))
    #expect(document.confidence == .navigation)
    #expect(
      document.evidence?.contains { $0.kind == .menu && $0.detail.contains("button 1") } == true)
    let menus = try #require(document.menusRead)
    // First Play shows the warning's pop-up menu, the Top Menu the top menu: those two clips.
    #expect(Set(menus.map(\.clip)) == [written.clips[0], written.clips[1]])
    #expect(menus.allSatisfy { $0.buttons != nil && $0.error == nil })
    #expect(menus.map(\.bytes).reduce(0, +) == streamBytes)
    #expect(streamBytes <= 2 * (192 << 10))
  }
}
