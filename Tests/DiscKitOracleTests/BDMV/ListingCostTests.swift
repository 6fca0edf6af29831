@_spi(Formats) import DiscKit
@_spi(Formats) import DiscKitAuthoring
import DiscKitAuthoringFixtures
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
@Suite("Listing cost: titles against bd_list_titles, menus read only when they matter", .toolThreads)
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
    var layout: RetailDiscWriter.Layout = .movie
    var testDescription: String {
      "\(layout == .movie ? "a film" : "a series"), \(reach == .navigation ? "navigation decides" : "a menu decides"), \(image ? "UDF image" : "folder")"
    }
  }

  @Test(
    "titles reads no more than a small bound above bd_list_titles on a retail-like disc",
    .enabled(
      if: shim != nil, "needs cc (to build Tests/oracles/read_count_shim.c) and bd_list_titles"),
    arguments: [
      Case(reach: .navigation, image: false), Case(reach: .navigation, image: true),
      Case(reach: .menu, image: false), Case(reach: .menu, image: true),
      Case(reach: .navigation, image: false, layout: .series(episodes: 6)),
      Case(reach: .navigation, image: true, layout: .series(episodes: 6)),
      Case(reach: .menu, image: false, layout: .series(episodes: 6)),
    ])
  func againstBdListTitles(_ c: Case) throws {
    let directory = try TemporaryDirectory("disckit-retail")
    let folder = directory.file("disc")
    let written = try RetailDiscWriter.write(
      at: folder, reach: c.reach, layout: c.layout, packetsPerSecond: 4000)
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
    let episodes = ours.document.episodes
    switch (c.reach, c.layout) {
    case (.navigation, .movie):
      // Index title 1 plays the feature: libbluray's VM agrees, and no menu can change that.
      let bd = try Reference.Bluray(path: path)
      #expect(
        bd.navigationEvents(title: 1, reads: 8).contains {
          if case .playlist(let n) = $0 { return n == written.featurePlaylist }
          return false
        }, "libbluray's title 1 plays the feature")
      // The selection reads no stream byte, and neither does the episode search: the structure
      // is a film's (parts of unlike lengths, short extras), which no menu splits.
      let selection = try Disc(image: try DiscImage.open(path: path)).titleList()
      #expect(selection.menusRead.isEmpty)
      #expect(episodes?.episodic == false)
      #expect(menus.isEmpty)
      #expect(ours.streams == 0)
    case (.menu, .movie):
      // The two menus the navigation shows (the warning's, the top menu), one read each, for the
      // main title; the episode search reads nothing more.
      #expect(menus.count == 2)
      #expect(episodes?.episodic == false)
      #expect(ours.streams == menus.map(\.bytes).reduce(0, +))
      #expect(ours.streams <= Int64(menus.count) * (192 << 10))
    case (_, .series(let count)):
      // The structure shows episodes (a play-all beside a playlist per episode): the menus the
      // navigation shows can confirm, order or replace them, so the episode search reads them
      // (the warning's, the top menu's and, when index title 1 plays the play-all, its first
      // clip's pop-up), once each; the top menu's episode buttons name the episodes.
      let selection = try Disc(image: try DiscImage.open(path: path)).titleList()
      #expect(selection.menusRead.count == (c.reach == .navigation ? 0 : 2))
      #expect(menus.count == (c.reach == .navigation ? 3 : 2))
      #expect(ours.streams == menus.map(\.bytes).reduce(0, +))
      #expect(ours.streams <= Int64(menus.count) * (192 << 10))
      #expect(episodes?.episodes.count == count)
      #expect(episodes?.confidence == .navigation)
      #expect(
        episodes?.episodes.compactMap { Int($0.key) } == written.episodePlaylists,
        "\(episodes?.reason ?? "")")
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
      try Self.expectMenuRunsAsEveryButton(directory.path, "retail-like disc, \(reach)")
    }
    for jars in [0, 3] {
      let directory = try TemporaryDirectory("disckit-flood")
      try FloodDiscWriter.write(at: directory.path, floodCount: 60, feature: 23, jarCount: jars)
      try Self.expectSameAnswer(directory.path, "flood disc with \(jars) JARs")
    }
  }

  /// A copy of the real tree at `source` with a stream file for every clip
  /// (``RetailDiscWriter/copyWithStreams(_:to:)``).
  static func withStreams(_ source: String, at destination: String) throws {
    try RetailDiscWriter.copyWithStreams(source, to: destination)
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
      try Self.expectSameEpisodes(path, name)
      try Self.expectMenuRunsAsEveryButton(path, name)
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

  // MARK: menu runs: computed once, each button from its menu's state

  /// A run as text: its entry, steps, ending, titles entered, warnings and every reach (entry,
  /// playlist, item, mark, path, operand register, feeding registers, title).
  static func describe(_ run: HDMVRun) -> String {
    var text =
      "\(run.entry) steps \(run.steps) \(run.ending) titles \(run.titlesEntered) \(run.warnings)"
    for reach in run.reaches {
      text +=
        " | \(reach.entry) \(reach.playlist) \(String(describing: reach.playItem)) \(String(describing: reach.mark)) \(reach.path) \(String(describing: reach.operandRegister)) \(reach.feedingRegisters.map { "\($0.register)=\($0.value)" }) \(reach.title)"
    }
    return text
  }

  /// The disc's menu runs (each menu's composition shared by the clips that carry its bytes,
  /// each button run once per starting state and commands, issue 29) are what pressing every
  /// button of every menu the navigation shows gives, each run on its own from its menu's state
  /// (`HDMVMachine.runButton` without a memo), state for state; every menu's composition is the
  /// one its clip's bytes parse to alone; asked twice, the disc answers from its cache.
  static func expectMenuRunsAsEveryButton(_ path: String, _ label: String) throws {
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: path))
    let runs = disc.navigationRuns()
    let cached = disc.menuRuns()
    guard let machine = disc.hdmvMachine else {
      #expect(cached.runs.isEmpty, "\(label)")
      return
    }
    var direct: [HDMVRun] = []
    var done = Set<Int>()
    for run in runs {
      for reach in run.reaches where done.insert(reach.playlist).inserted {
        guard let composition = disc.menu(playlist: reach.playlist)?.composition else { continue }
        for (page, button) in composition.buttons {
          direct.append(
            machine.runButton(
              button.commands, page: Int(page.id), button: Int(button.id), menu: reach))
        }
      }
    }
    #expect(cached.runs.count == direct.count, "\(label)")
    for (a, b) in zip(cached.runs, direct) {
      #expect(Self.describe(a) == Self.describe(b), "\(label)")
      #expect(a.finalState == b.finalState, "\(label): \(a.entry)")
      #expect(a.reaches.map(\.state) == b.reaches.map(\.state), "\(label): \(a.entry)")
    }
    #expect(disc.menuRuns().runs.map(Self.describe) == cached.runs.map(Self.describe), "\(label)")
    #expect(disc.navigationRuns().map(Self.describe) == runs.map(Self.describe), "\(label)")
    for read in disc.menus.all {
      guard let composition = read.composition else { continue }
      let file = try disc.fileSystem.openFile(atPath: "/BDMV/STREAM/\(read.clip).m2ts")
      let bytes = try file.bytes(at: 0, count: Int(read.bytesRead), structure: "stream file")
      var alone = IGCompositionScanner(pid: read.pid, name: read.clip)
      _ = try bytes.withUnsafeBytes { raw throws(DiscKitError) in try alone.feed(raw) }
      #expect(alone.composition == composition, "\(label): menu of clip \(read.clip)")
    }
  }

  // MARK: episodes: menus read only when they can change the answer

  /// The episodes of the disc at `path` found reading the menus only when they can change the
  /// answer, and reading every menu the navigation shows before anything else (the rule before),
  /// with whether the first read any menu.
  static func episodes(_ path: String) throws -> (
    lazy: EpisodeList, eager: EpisodeList, lazyReadMenus: Bool
  ) {
    func find(_ reading: BlurayEpisodeFinder.MenuReading) throws -> (EpisodeList, Bool) {
      let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: path))
      let main = disc.smartSelection().main.flatMap { Int($0.prefix(5)) }
      let runs = disc.navigationRuns()
      let (found, read) = BlurayEpisodeFinder.find(
        disc, runs: runs, main: main, reading: reading
      ) { disc.menuRuns(runs).runs }
      return (disc.episodeList(found), read)
    }
    let lazy = try find(.whenTheyCanChange)
    let eager = try find(.always)
    return (lazy.0, eager.0, lazy.1)
  }

  /// The same episodes both ways (everything the list says: layout, confidence, reason, each
  /// episode's playlist, range, chapters, variants and evidence, the play-all, the extras).
  /// - Returns: whether the on-demand search read the menus.
  @discardableResult
  static func expectSameEpisodes(_ path: String, _ label: String) throws -> Bool {
    let found = try episodes(path)
    #expect(
      found.lazy == found.eager,
      "\(label): on demand \(found.lazy.episodes.count) (\(found.lazy.reason)), every menu \(found.eager.episodes.count) (\(found.eager.reason))"
    )
    return found.lazyReadMenus
  }

  @Test(
    "episodes: the same as reading every menu, on every authored disc; menus read only for series")
  func episodesUnchanged() throws {
    let series: [(String, () throws -> (SyntheticBluray, EpisodeDiscs.Truth))] = [
      ("playlist per episode, menu", { try EpisodeDiscs.playlistPerEpisode() }),
      ("playlist per episode, no menu", { try EpisodeDiscs.playlistPerEpisode(menu: false) }),
      ("play-all marks", EpisodeDiscs.playAllMarks),
      ("play-all items", EpisodeDiscs.playAllItems),
      ("one clip, uneven chapter ranges", EpisodeDiscs.oneClipChapters),
      ("play-all repeating logo and credits", EpisodeDiscs.fillerPlayAll),
      ("play-all only, logo and credits", EpisodeDiscs.fillerPlayAllOnly),
      ("IN/OUT ranges of one clip", EpisodeDiscs.rangesOfOneClip),
      ("per-language copies", EpisodeDiscs.languageCopies),
      ("a second play-all of extras", EpisodeDiscs.extrasPlayAll),
    ]
    for (name, make) in series {
      let (disc, truth) = try make()
      let read = try Self.expectSameEpisodes(disc.path, name)
      // Every layout's structure shows its episodes: the menus (where it has one) are read.
      #expect(read, "\(name)")
      #expect(try Self.episodes(disc.path).lazy.episodes.count == truth.episodes.count, "\(name)")
    }
    if Tool.has("ffmpeg") {
      // Three 310-second episodes in one clip, the menu starting it at their marks: the chapter
      // pattern (a 100-second opening chapter each) at that scale makes them candidates.
      let (disc, _) = try EpisodeDiscs.ffmpegChapterDisc(episode: 310)
      #expect(try Self.expectSameEpisodes(disc.path, "three short episodes in one clip"))
      #expect(try Self.episodes(disc.path).lazy.episodes.count == 3)
    }
    // Two play-alls the structure cannot choose between: candidates a menu may decide.
    let ambiguous = try EpisodeDiscs.twoEqualPlayAlls()
    #expect(try Self.expectSameEpisodes(ambiguous.path, "two equal play-alls"))
    for (name, make) in [
      ("movie", EpisodeDiscs.movie), ("two-part movie", EpisodeDiscs.twoPartMovie),
    ] {
      let disc = try make()
      #expect(!(try Self.expectSameEpisodes(disc.path, name)), "\(name): no menu read")
    }
    for build in ScenarioComparisonTests.builders {
      let scenario = try build()
      try Self.expectSameEpisodes(scenario.disc.path, scenario.name)
    }
    for selected in MenuButtonReferenceTests.buttons.map(\.id) {
      let disc = try MenuButtonReferenceTests.disc(selected: selected)
      try Self.expectSameEpisodes(disc.path, "menu button disc, button \(selected) selected")
    }
    for reach in [RetailDiscWriter.Reach.navigation, .menu] {
      let directory = try TemporaryDirectory("disckit-retail")
      try RetailDiscWriter.write(
        at: directory.path, reach: reach, layout: .series(episodes: 6), packetsPerSecond: 1000)
      #expect(try Self.expectSameEpisodes(directory.path, "retail-like series, \(reach)"))
    }
    for jars in [0, 3] {
      let directory = try TemporaryDirectory("disckit-flood")
      try FloodDiscWriter.write(at: directory.path, floodCount: 60, feature: 23, jarCount: jars)
      #expect(!(try Self.expectSameEpisodes(directory.path, "flood disc with \(jars) JARs")))
    }
  }

  @Test(
    "a film's scene-selection page starting it at chapters 5 or 10 minutes apart is not an episode page, and is not read"
  )
  func sceneSelectionIsNotEpisodes() throws {
    // The last scene page of a two-hour film: chapters 21-24, 5 minutes apart, to its end.
    let written = try EpisodeDiscs.movieSceneSelection()
    let found = try Self.episodes(written.path)
    // Read first, the page's four chapter ranges of the film's last 20 minutes passed for
    // episodes; the film's structure (one clip, chapters with no repeated opening) has none.
    #expect(found.eager.episodes.count == 4)
    #expect(found.eager.layout == .chapters)
    #expect(!found.lazy.episodic, "\(found.lazy.reason)")
    #expect(!found.lazyReadMenus)
    // The whole listing reads no stream byte: the navigation decides the main title.
    let document = try TitlesDocument(disc: try Disc.open(path: written.path))
    #expect(document.main == "00800")
    #expect(document.menusRead == [])
    #expect(document.episodes?.episodic == false)
    // The retail-like film's top menu: Play and chapter buttons at marks 0, 2, ... 10 (a chapter
    // every 5 minutes), ranges of 10 minutes, the last to the end of its play item (12 minutes).
    for reach in [RetailDiscWriter.Reach.navigation, .menu] {
      let directory = try TemporaryDirectory("disckit-retail")
      let film = try RetailDiscWriter.write(
        at: directory.path, reach: reach, layout: .movie, packetsPerSecond: 1000)
      let found = try Self.episodes(directory.path)
      #expect(found.eager.layout == .chapters, "\(reach): \(found.eager.reason)")
      #expect(found.eager.episodes.allSatisfy { Int($0.key) == film.featurePlaylist })
      #expect(!found.lazy.episodic, "\(reach): \(found.lazy.reason)")
      #expect(!found.lazyReadMenus)
    }
  }
}
