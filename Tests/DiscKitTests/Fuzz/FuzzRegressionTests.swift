@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Replays every input the fuzzers ever crashed, leaked or hung on (`Tests/Fuzz/regressions/
/// HARNESS/`, kept by `Scripts/fuzz.sh --keep`) through the same entry point as its harness
/// (`Tests/Fuzz/Sources/disckit-fuzz`). A trap would end the test process; a typed error, or a
/// result, is the expected answer.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
  static let root = Fixtures.packageRoot.appendingPathComponent("Tests/Fuzz/regressions")

  /// (harness, file) for every kept input.
  static let cases: [FuzzCase] = {
    let harnesses = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return harnesses.sorted().flatMap { harness in
      let dir = root.appendingPathComponent(harness).path
      return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted().map {
        FuzzCase(harness: harness, file: dir + "/" + $0)
      }
    }
  }()

  struct FuzzCase: CustomTestStringConvertible, Sendable {
    var harness: String
    var file: String
    var testDescription: String {
      harness + "/" + (file.split(separator: "/").last.map(String.init) ?? "")
    }
  }

  @Test("every kept input is answered without a trap", arguments: cases)
  func replay(_ fuzzCase: FuzzCase) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fuzzCase.file)))
    try #require(Self.known.contains(fuzzCase.harness), "unknown harness \(fuzzCase.harness)")
    Self.run(fuzzCase.harness, bytes)
  }

  static let known: Set<String> = [
    "udf", "iso9660", "index", "movieobject", "hdmv", "ics", "mpls", "clpi", "ifo", "navpack", "ts",
    "ps", "timeseek", "segment", "image", "dvdvm", "bdjo", "jar", "class", "hevc",
  ]

  /// The harnesses' calls (kept in step with Tests/Fuzz/Sources/disckit-fuzz).
  static func run(_ harness: String, _ bytes: [UInt8]) {
    switch harness {
    case "udf":
      let source = sparse(bytes)
      _ = try? UDFFileSystem.hasVolumeRecognitionSequence(source)
      if let fs = try? UDFFileSystem(source: source) { walk(fs) }
    case "iso9660":
      let source = sparse(bytes)
      _ = try? ISO9660FileSystem.hasPrimaryVolumeDescriptor(source)
      for names in [ISO9660FileSystem.NamePreference.automatic, .plain] {
        if let fs = try? ISO9660FileSystem(source: source, names: names) { walk(fs) }
      }
    case "index": _ = try? BDMVIndex(bytes: bytes)
    case "movieobject": _ = try? MovieObjectFile(bytes: bytes)
    case "hdmv":
      guard bytes.count >= 2 else { return }
      let length = min(bytes.count - 2, Int(bytes[0]) << 8 | Int(bytes[1]))
      let index = try? BDMVIndex(bytes: Array(bytes[2..<(2 + length)]))
      if let objects = try? MovieObjectFile(bytes: Array(bytes[(2 + length)...])) {
        _ = objects.navigationRuns(
          index: index
            ?? BDMVIndex(
              firstPlay: .hdmv(movieObject: 0, playbackType: 0),
              topMenu: .hdmv(movieObject: 1, playbackType: 1),
              titles: (2..<5).map { .init(object: .hdmv(movieObject: UInt16($0), playbackType: 0)) }
            ),
          stepBudget: 5_000)
      }
    case "ics": _ = try? InteractiveGraphics.menuButtons(composition: bytes)
    case "mpls": _ = try? MoviePlaylist(bytes: bytes)
    case "clpi": _ = try? ClipInformation(bytes: bytes)
    case "ifo":
      _ = try? DVDVideoManagerInfo(bytes: bytes)
      _ = try? DVDTitleSetInfo(bytes: bytes)
    case "navpack": _ = try? DVDNavigationPack(sector: bytes, at: 0)
    case "dvdvm":
      // As Tests/Fuzz's DVDVMHarness: the VMG's First Play and menus (cells played through the
      // navigation timer), a VIDEO_TS.IFO + VTS_01_0.IFO (+ NAV packs) input as a whole disc for
      // the main-feature search, and the bytes as a command list.
      let limits = DVDVirtualMachine.Limits(links: 2000, commands: 20_000)
      if let vmg = try? DVDVideoManagerInfo(bytes: bytes) {
        let program = DVDVirtualMachineProgram(
          firstPlay: vmg.firstPlayProgramChain, titles: vmg.titles.titles,
          managerMenus: try? vmg.menus?.get(), titleSets: [:])
        var vm = DVDVirtualMachine(program: program, limits: limits)
        vm.start()
        for _ in 0..<64 {
          guard let cell = vm.currentCell else { break }
          vm.advance(seconds: Int64(cell.playbackTime.wholeSeconds))
          vm.finishCell()
        }
      }
      if let files = Self.dvdDisc(bytes),
        let disc = try? DVDDisc(fileSystem: MemoryFileSystem(files: files))
      {
        _ = DVDMainFeatureSearch.run(
          disc, limits: .init(menuStates: 4, cells: 64, commands: 5_000))
      }
      var vm = DVDVirtualMachine(
        program: DVDVirtualMachineProgram(
          firstPlay: nil, titles: [], managerMenus: nil, titleSets: [:]), limits: limits)
      var index = 0
      while index + 8 <= bytes.count {
        vm.execute(
          DVDCommand(raw: bytes[index..<index + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
        vm.advance(seconds: Int64(bytes[index] & 7))
        index += 8
      }
    case "ts":
      let source = MemoryByteSource(bytes)
      _ = try? PESPreScanner.scan(source: source, offset: 0, window: source.size)
    case "ps":
      guard let first = bytes.first else { return }
      _ = try? ProgramStreamScanner.scan(
        source: MemoryByteSource(Array(bytes.dropFirst())), chunkSize: Int(first) * 61 + 1)
    case "timeseek":
      guard bytes.count >= 4 else { return }
      let hundredths = bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      _ = try? TransportStreamTimeSeek.seek(
        source: MemoryByteSource(Array(bytes.dropFirst(4))), to: Double(hundredths) / 100)
    case "hevc":
      _ = try? HEVCColourMetadata(parsingAnnexB: bytes[...])
    case "segment":
      if let request = try? JSONDecoder().decode(SegmentRequest.self, from: Data(bytes)) {
        _ = request.evaluate()
      }
    case "image":
      guard let disc = try? DiscImage.open(source: sparse(bytes)) else { return }
      if disc.fileSystem.exists("/BDMV/index.bdmv") || disc.fileSystem.exists("/BDMV") {
        guard let bluray = try? BlurayDisc(disc: disc) else { return }
        _ = bluray.smartSelection()
        _ = bluray.navigationPlaylists()
        for file in bluray.playlists.prefix(8) {
          guard let title = try? bluray.title(playlist: file.name) else { continue }
          _ = try? title.playbackStart(forTitleTime: 90_000)
        }
        if let main = try? bluray.mainTitle(), let source = try? main.byteSource() {
          sample(source)
        }
        _ = bluray.namedEvidence()
      } else if let dvd = try? DVDDisc(fileSystem: disc.fileSystem) {
        for case .success(let title) in dvd.titles.prefix(8) {
          if let source = try? dvd.byteSource(title: title.number) { sample(source) }
        }
      }
    case "bdjo": _ = try? BDJObject(bytes: bytes)
    case "jar":
      var limits = ParsingLimits()
      limits.maxInflatedEntryBytes = 1 << 20
      let archiveBytes = bytes.starts(with: [0x50, 0x4B]) ? bytes : deflatedMember(bytes)
      guard let archive = try? JARArchive(bytes: archiveBytes, limits: limits) else { return }
      for entry in archive.entries.prefix(64) { _ = try? archive.contents(of: entry) }
    case "class": _ = try? JavaClassFile(bytes: bytes)
    default: break
    }
  }

  /// The jar harness's one-member archive around raw DEFLATE data (declared size 0, CRC 0).
  static func deflatedMember(_ data: [UInt8]) -> [UInt8] {
    func le(_ v: Int, _ n: Int) -> [UInt8] {
      (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
    }
    let local = [0x50, 0x4B, 3, 4] + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 12)
    let header = local + le(data.count, 4) + le(0, 4) + le(1, 2) + le(0, 2) + [0x78]
    let central =
      [0x50, 0x4B, 1, 2] + le(20, 2) + le(20, 2) + le(0, 2) + le(8, 2) + le(0, 8)
      + le(data.count, 4) + le(0, 4) + le(1, 2) + le(0, 12) + le(0, 4) + [0x78]
    let end =
      [0x50, 0x4B, 5, 6] + le(0, 4) + le(1, 2) + le(1, 2) + le(central.count, 4)
      + le(header.count + data.count, 4) + le(0, 2)
    return header + data + central + end
  }

  /// The sparse image encoding of the file-system and image harnesses.
  static func sparse(_ bytes: [UInt8]) -> SparseImage {
    bytes.withUnsafeBytes { SparseImage($0) }
  }

  static func walk(_ fileSystem: any DiscFileSystem) {
    guard let entries = try? fileSystem.recursiveContents(atPath: "/") else { return }
    for entry in entries.prefix(256) where !entry.isDirectory {
      if let file = try? fileSystem.openFile(atPath: entry.path) { sample(file, window: 4096) }
    }
  }

  /// Reads a source's first and last `window` bytes and a window in the middle.
  static func sample(_ source: any ByteSource, window: Int = 64 << 10) {
    var buffer = [UInt8](repeating: 0, count: window)
    let size = source.size
    for offset in [0, size / 2, size - Int64(window)] where offset >= 0 && offset < size {
      _ = buffer.withUnsafeMutableBytes { try? source.read(at: offset, into: $0) }
    }
  }

  /// VIDEO_TS.IFO, VTS_01_0.IFO (from the "DVDVIDEO-VTS" at a 2048-byte boundary) and
  /// VIDEO_TS.VOB (from the first pack header after it), as the dvdvm harness cuts them.
  static func dvdDisc(_ bytes: [UInt8]) -> [String: [UInt8]]? {
    let vts = Array("DVDVIDEO-VTS".utf8)
    guard bytes.count > 2048, bytes.starts(with: Array("DVDVIDEO-VMG".utf8)) else { return nil }
    var split = 2048
    while split + vts.count <= bytes.count, !bytes[split..<split + vts.count].elementsEqual(vts) {
      split += 2048
    }
    guard split + vts.count <= bytes.count else { return nil }
    var end = split + 2048
    while end + 4 <= bytes.count, !bytes[end..<end + 4].elementsEqual([0, 0, 1, 0xBA]) {
      end += 2048
    }
    end = min(end, bytes.count)
    var files = [
      "/VIDEO_TS/VIDEO_TS.IFO": Array(bytes[..<split]),
      "/VIDEO_TS/VTS_01_0.IFO": Array(bytes[split..<end]),
    ]
    if end < bytes.count { files["/VIDEO_TS/VIDEO_TS.VOB"] = Array(bytes[end...]) }
    return files
  }
}
