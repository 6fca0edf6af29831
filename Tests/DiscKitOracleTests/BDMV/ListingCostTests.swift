@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringTestSupport
@_spi(Formats) import DiscKitReference
import DiscKitTestSupport
import Foundation
import Testing

/// What listing a disc costs in bytes read, against libbluray's `bd_list_titles` (counted by an
/// `LD_PRELOAD` shim, `Tests/oracles/read_count_shim.c`, built here with cc, over every read of a
/// file under the disc), on discs whose every clip carries an IG stream with gigabytes of sparse
/// stream files; and that reading menus only when they can change the answer leaves every answer
/// as reading them all gives it, on every scenario disc and on the real trees given stream files.
@Suite("Listing cost: titles against bd_list_titles, menus read only when they matter")
struct ListingCostTests {
  /// Where the shim is built (removed when the test process exits).
  static let shimDirectory = try? TemporaryDirectory.processWide("disckit-read-count")
  /// The shim, built once; nil without cc or libbluray's tools.
  static let shim: String? = {
    #if os(Linux)
      guard Tool.has("cc"), Tool.has("bd_list_titles"), let dir = shimDirectory else { return nil }
      let source = Fixtures.packageRoot.appendingPathComponent("Tests/oracles/read_count_shim.c")
        .path
      let library = dir.file("read_count_shim.so")
      let build = try? Tool.run("cc", ["-shared", "-fPIC", "-O1", "-o", library, source, "-ldl"])
      return build?.status == 0 ? library : nil
    #else
      return nil
    #endif
  }()

  /// The bytes `bd_list_titles PATH` reads from files under `path`.
  static func libblurayBytes(_ path: String) throws -> Int64 {
    let shim = try #require(shim)
    let out = try #require(shimDirectory).file("count-\(UUID().uuidString).txt")
    let result = try Tool.run(
      "bd_list_titles", [path],
      environment: ["LD_PRELOAD": shim, "READ_COUNT_PREFIX": path, "READ_COUNT_OUT": out])
    #expect(result.status == 0, "bd_list_titles \(path): \(result.stderr)")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    let total = text.split(separator: "\n").first { $0.hasPrefix("TOTAL ") }
    return try #require(total.flatMap { Int64($0.dropFirst(6)) })
  }

  /// DiscKit's `titles --json` document for `path` (a folder or an image), with every byte read
  /// from the image or folder and the bytes read from stream files.
  static func listing(_ path: String) throws -> (
    document: TitlesDocument, total: Int64, streams: Int64
  ) {
    let counter = ReadCounter()
    let files = ReadCounter()
    let image: DiscImage
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      image = DiscImage(
        path: path, source: nil,
        fileSystem: CountingFileSystem(try FolderFileSystem(root: path), counter: counter))
    } else {
      image = try DiscImage.open(
        source: CountingByteSource(try FileByteSource(path: path), name: path, counter: counter),
        path: path)
    }
    let counted = DiscImage(
      path: path, source: image.source,
      fileSystem: CountingFileSystem(image.fileSystem, counter: files))
    let document = try TitlesDocument(disc: try Disc(image: counted))
    return (document, counter.total, files.total(matching: "/STREAM/"))
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var reach: RetailDiscWriter.Reach
    var image: Bool
    var testDescription: String {
      "\(reach == .navigation ? "navigation decides" : "a menu decides"), \(image ? "UDF image" : "folder")"
    }
  }

  @Test(
    "titles reads no more than a small bound above bd_list_titles on a retail-like disc",
    .enabled(
      if: shim != nil, "needs cc (to build Tests/oracles/read_count_shim.c) and bd_list_titles"),
    arguments: [
      Case(reach: .navigation, image: false), Case(reach: .navigation, image: true),
      Case(reach: .menu, image: false), Case(reach: .menu, image: true),
    ])
  func againstBdListTitles(_ c: Case) throws {
    let directory = try TemporaryDirectory("disckit-retail")
    let folder = directory.file("disc")
    let written = try RetailDiscWriter.write(at: folder, reach: c.reach, packetsPerSecond: 4000)
    var path = folder
    if c.image {
      path = directory.file("disc.iso")
      try UDFImageWriter(folder: folder, options: .init(volumeLabel: "RETAIL")).write(to: path)
    }
    let theirs = try Self.libblurayBytes(path)
    let ours = try Self.listing(path)
    let feature = String(format: "%05d", written.featurePlaylist)
    #expect(ours.document.main == feature)
    // Every clip's stream file is there, gigabytes of it; libbluray reads none of it.
    #expect(written.streamBytes > 1 << 30)
    let menus = ours.document.menusRead ?? []
    switch c.reach {
    case .navigation:
      // Index title 1 plays the feature: libbluray's VM agrees, and no menu can change that.
      let bd = try Reference.Bluray(path: path)
      #expect(
        bd.navigationEvents(title: 1, reads: 8).contains {
          if case .playlist(let n) = $0 { return n == written.featurePlaylist }
          return false
        }, "libbluray's title 1 plays the feature")
      // The selection reads no stream byte; the document's episode search reads the menus the
      // navigation shows (warning, top menu, feature), once each.
      let selection = try Disc(image: try DiscImage.open(path: path)).titleList()
      #expect(selection.menusRead.isEmpty)
      #expect(menus.count == 3)
      #expect(ours.streams == menus.map(\.bytes).reduce(0, +))
    case .menu:
      // The two menus the navigation shows (the warning's, the top menu), one read each.
      #expect(menus.count == 2)
      #expect(ours.streams == menus.map(\.bytes).reduce(0, +))
      #expect(ours.streams <= Int64(menus.count) * (192 << 10))
    }
    // The small bound: the menus' reads (at most 192 KiB per menu shown) over what libbluray
    // reads for its own listing (the same navigation files; for an image, its file system too).
    let bound = Int64(menus.count) * (192 << 10) + (64 << 10)
    #expect(
      ours.total <= theirs + bound,
      "DiscKit read \(ours.total) bytes (\(ours.streams) of streams), bd_list_titles \(theirs)")
    print(
      "listing cost, \(c.testDescription): DiscKit \(ours.total) bytes (streams \(ours.streams)),"
        + " bd_list_titles \(theirs) bytes")
  }

  // MARK: answers unchanged

  /// The selection as it was before menus were read on demand: every menu the navigation shows
  /// read first, then the choice.
  static func everyMenuRead(_ disc: BlurayDisc, named: [TitleEvidence]?)
    -> SmartTitleSelector.Result
  {
    let runs = disc.navigationRuns()
    var evidence = disc.selectionEvidence(
      named: named ?? disc.namedEvidence().titleEvidence(), runs: runs)
    evidence.menu = BlurayDisc.menuEvidence(disc.menuRuns(runs).runs)
    return SmartTitleSelector.select(
      disc.playlists.map { .init(name: $0.name, number: $0.number, playlist: $0.playlist) },
      navigation: BlurayDisc.navigationMap(runs), evidence: evidence)
  }

  /// The on-demand selection gives the same answer as reading every menu: main title, reason,
  /// confidence, candidates, every playlist's fate; the same evidence when it read the menus, and
  /// otherwise the same but for menu buttons leading to the main title (which it did not read).
  static func expectSameAnswer(_ path: String, named: [TitleEvidence]? = nil, _ label: String)
    throws
  {
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: path))
    let eager = everyMenuRead(disc, named: named)
    let lazy = try BlurayDisc(fileSystem: try FolderFileSystem(root: path)).smartSelection(
      named: named)
    #expect(lazy.main == eager.main, "\(label)")
    #expect(lazy.reason == eager.reason, "\(label)")
    #expect(lazy.confidence == eager.confidence, "\(label)")
    #expect(lazy.candidates == eager.candidates, "\(label)")
    #expect(lazy.familySize == eager.familySize, "\(label)")
    #expect(
      lazy.entries.map { "\($0.name) \(String(describing: $0.excluded)) \($0.playedByTitles)" }
        == eager.entries.map {
          "\($0.name) \(String(describing: $0.excluded)) \($0.playedByTitles)"
        },
      "\(label)")
    if lazy.menusConsulted {
      #expect(lazy.evidence == eager.evidence, "\(label)")
    } else {
      let main = lazy.main.map { String($0.prefix(5)) }
      #expect(
        lazy.evidence == eager.evidence.filter { !($0.kind == .menu && $0.key == main) },
        "\(label)")
      #expect(lazy.menuReads.isEmpty, "\(label)")
    }
  }

  @Test("every scenario disc: the same answer as reading every menu")
  func scenarioDiscs() throws {
    for build in ScenarioComparisonTests.builders {
      let scenario = try build()
      try Self.expectSameAnswer(scenario.disc.path, named: scenario.named, scenario.name)
    }
    for selected in MenuButtonReferenceTests.buttons.map(\.id) {
      let disc = try MenuButtonReferenceTests.disc(selected: selected)
      try Self.expectSameAnswer(disc.path, "menu button disc, button \(selected) selected")
    }
    for reach in [RetailDiscWriter.Reach.navigation, .menu] {
      let directory = try TemporaryDirectory("disckit-retail")
      try RetailDiscWriter.write(at: directory.path, reach: reach, packetsPerSecond: 1000)
      try Self.expectSameAnswer(directory.path, "retail-like disc, \(reach)")
    }
    for jars in [0, 3] {
      let directory = try TemporaryDirectory("disckit-flood")
      try FloodDiscWriter.write(at: directory.path, floodCount: 60, feature: 23, jarCount: jars)
      try Self.expectSameAnswer(directory.path, "flood disc with \(jars) JARs")
    }
  }

  /// A copy of the real tree at `source` (metadata only) under `destination`, with a stream file
  /// for every clip as large as its clip information says: the clips a playlist plays with an IG
  /// stream start with the disc's own menu (`ics_menu.bin`, when it has one) on that PID, the
  /// rest is a hole.
  static func withStreams(_ source: String, at destination: String) throws {
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

  @Test(
    "every real tree given its stream files: the same answer as reading every menu, bytes against bd_list_titles",
    needsRealData)
  func realTrees() throws {
    let directory = try TemporaryDirectory("disckit-real-streams")
    var rows: [String] = []
    for (k, source) in HDMVReferenceTests.trees.enumerated() {
      let name = (source as NSString).lastPathComponent
      let path = directory.file("\(k)-\(name)")
      try Self.withStreams(source, at: path)
      try Self.expectSameAnswer(path, name)
      guard Self.shim != nil else { continue }
      let theirs = try Self.libblurayBytes(path)
      let ours = try Self.listing(path)
      let menus = ours.document.menusRead ?? []
      #expect(
        ours.total <= theirs + Int64(menus.count) * (192 << 10) + (64 << 10),
        "\(name): DiscKit \(ours.total) (streams \(ours.streams)), bd_list_titles \(theirs)")
      rows.append(
        "\(name): DiscKit \(ours.total) bytes (streams \(ours.streams), \(menus.count) menus), bd_list_titles \(theirs)"
      )
    }
    print(rows.joined(separator: "\n"))
  }
}
