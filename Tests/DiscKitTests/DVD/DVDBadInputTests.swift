@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Malformed IFOs and VOBs give typed errors naming the structure and offset, never a crash.
@Suite(.toolThreads) struct DVDBadInputTests {
  static func read(_ path: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// The generated NTSC disc's IFOs (no VOBs) in memory.
  static func ntscIFOs() throws -> [String: [UInt8]] {
    let dir = Fixtures.generated("dvd-ntsc") + "/VIDEO_TS/"
    var files: [String: [UInt8]] = [:]
    for name in [
      "VIDEO_TS.IFO", "VIDEO_TS.BUP", "VTS_01_0.IFO", "VTS_01_0.BUP", "VTS_02_0.IFO",
      "VTS_02_0.BUP",
    ] {
      files["/VIDEO_TS/" + name] = try read(dir + name)
    }
    return files
  }

  static var haveGenerated: Bool {
    FileManager.default.fileExists(atPath: Fixtures.generated("dvd-ntsc"))
  }

  @Test(.enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)))
  func truncatedTitleSetIFO() throws {
    let bytes = try Self.read(Fixtures.real("dvd/dvdread_idiocracy/VIDEO_TS/VTS_05_0.IFO"))
    // Header cut short: truncated VTSI_MAT at byte 0.
    #expect(throws: DiscKitError(.truncated, "VTS_05_0.IFO VTSI_MAT", at: 0, "")) {
      try DVDTitleSetInfo(bytes: Array(bytes.prefix(900)), fileName: "VTS_05_0.IFO")
    }
    // Every cut gives a DiscKitError or a valid parse, never a trap.
    for length in stride(from: 0, to: bytes.count, by: 97) {
      do {
        _ = try DVDTitleSetInfo(bytes: Array(bytes.prefix(length)), fileName: "VTS_05_0.IFO")
      } catch {
        #expect(error.structure.hasPrefix("VTS_05_0.IFO"))
      }
    }
  }

  @Test(.enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)))
  func truncatedVideoManager() throws {
    let bytes = try Self.read(Fixtures.real("dvd/dvdread_idiocracy/VIDEO_TS/VIDEO_TS.IFO"))
    #expect(throws: DiscKitError(.truncated, "VIDEO_TS.IFO VMGI_MAT", at: 0, "")) {
      try DVDVideoManagerInfo(bytes: Array(bytes.prefix(300)))
    }
    for length in stride(from: 0, to: bytes.count, by: 61) {
      do { _ = try DVDVideoManagerInfo(bytes: Array(bytes.prefix(length))) } catch {
        #expect(error.structure.hasPrefix("VIDEO_TS.IFO"))
      }
    }
  }

  @Test(.enabled(if: haveGenerated, "run TestImages/scripts/make-all.sh"))
  func programMapPastCellTable() throws {
    var files = try Self.ntscIFOs()
    let vts = try DVDTitleSetInfo(
      bytes: files["/VIDEO_TS/VTS_01_0.IFO"] ?? [], fileName: "VTS_01_0.IFO")
    let pgc = try vts.programChains.programChain(1)
    let mapOffset = try #require(pgc.programMapOffset)
    files["/VIDEO_TS/VTS_01_0.IFO"]?[Int(mapOffset) + 1] = 0x40  // program 2 enters at cell 64 of 3
    let disc = try DVDDisc(fileSystem: MemoryFileSystem(files: files))
    #expect(throws: DiscKitError(.malformed, "VTS_01_0.IFO program map", at: mapOffset + 1, "")) {
      try disc.title(1)
    }
    #expect(try disc.title(2).number == 2)
    // lsdvd would read past the cell table here; the parity report stops at its end.
    _ = LsdvdTitleSelector.report(disc)
    let aside = DVDSmartTitleSelector.select(disc).setAside[1]
    #expect(aside?.description.hasPrefix("unreadable") == true)
    #expect(aside?.category == "unreadable")
  }

  @Test(.enabled(if: haveGenerated, "run TestImages/scripts/make-all.sh"))
  func titleSetMissing() throws {
    var files = try Self.ntscIFOs()
    files["/VIDEO_TS/VTS_02_0.IFO"] = nil
    files["/VIDEO_TS/VTS_02_0.BUP"] = nil
    let disc = try DVDDisc(fileSystem: MemoryFileSystem(files: files))
    #expect(throws: DiscKitError(.notFound, "/VIDEO_TS/VTS_02_0.BUP", at: nil, "")) {
      try disc.title(4)
    }
    #expect(try disc.title(1).titleSet == 1)
    #expect(LsdvdTitleSelector.report(disc).tracks.map(\.number) == [1, 2, 3])
    // A title search entry naming title set 7, which does not exist.
    var vmg = files["/VIDEO_TS/VIDEO_TS.IFO"] ?? []
    let manager = try DVDVideoManagerInfo(bytes: vmg)
    let entry = try #require(manager.titles.titles.first)
    vmg[Int(entry.offset) + 6] = 7
    files["/VIDEO_TS/VIDEO_TS.IFO"] = vmg
    let broken = try DVDDisc(fileSystem: MemoryFileSystem(files: files))
    #expect(throws: DiscKitError.self) { try broken.title(1) }
    #expect((try? broken.title(1)) == nil)
  }

  @Test(.enabled(if: haveGenerated, "run TestImages/scripts/make-all.sh"))
  func backupUsedWhenIFOBroken() throws {
    var files = try Self.ntscIFOs()
    files["/VIDEO_TS/VTS_01_0.IFO"]?[0] = 0x58  // "XVDVIDEO-VTS"
    files["/VIDEO_TS/VIDEO_TS.IFO"] = nil
    let disc = try DVDDisc(fileSystem: MemoryFileSystem(files: files))
    #expect(disc.videoManagerFromBackup)
    #expect(disc.titleSets[1]?.fromBackup == true)
    #expect(disc.titleSets[2]?.fromBackup == false)
    #expect(try disc.title(1).chapters.count == 3)
    // Both copies broken: the IFO's error is reported.
    files["/VIDEO_TS/VTS_01_0.BUP"]?[0] = 0x58
    let worse = try DVDDisc(fileSystem: MemoryFileSystem(files: files))
    #expect(throws: DiscKitError(.malformed, "VTS_01_0.IFO VTSI_MAT", at: 0, "")) {
      try worse.title(1)
    }
  }

  @Test(.enabled(if: haveGenerated, "run TestImages/scripts/make-all.sh"))
  func cellsPastTheEndOfTheVOBs() throws {
    let dir = try TemporaryDirectory("dvd-short-vob")
    try FileManager.default.copyItem(
      atPath: Fixtures.generated("dvd-ntsc") + "/VIDEO_TS", toPath: dir.path + "/VIDEO_TS")
    let vob = dir.path + "/VIDEO_TS/VTS_02_1.VOB"
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: vob))
    try handle.truncate(atOffset: 40 * 2048)
    try handle.close()
    let disc = try DVDDisc(fileSystem: try FolderFileSystem(root: dir.path))
    let title = try disc.title(4)
    let bad = try #require(title.cells.first { $0.playback.lastSector >= 40 })
    #expect(
      throws: DiscKitError(.malformed, "VTS_02_0.IFO cell playback", at: bad.playback.offset, "")
    ) {
      try disc.byteSource(title: 4)
    }
    let selection = DVDSmartTitleSelector.select(disc)
    #expect(selection.setAside[4]?.description.contains("outside the title VOBs") == true)
    if case .cellOutsideVOBs = selection.setAside[4] {
    } else {
      Issue.record("title 4: \(String(describing: selection.setAside[4]))")
    }
    #expect(selection.title != 4)
  }

  @Test(.enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)))
  func chapterToolEdgeCases() throws {
    // NULL.IFO and OUT_OF_RANGE.IFO are ChapterTool's deliberately odd IFOs.
    for name in ["NULL.IFO", "OUT_OF_RANGE.IFO"] {
      let bytes = try Self.read(Fixtures.real("dvd/chaptertool_ifo/" + name))
      let vts: DVDTitleSetInfo
      do {
        vts = try DVDTitleSetInfo(bytes: bytes, fileName: name)
      } catch {
        #expect(error.structure.hasPrefix(name), "\(error)")
        continue
      }
      let vmg = DVDTestDisc.videoManager(
        titles: vts.partsOfTitles.titles.indices.map {
          (vts: 1, ttn: $0 + 1, chapters: 1, angles: 1)
        },
        titleSetCount: 1)
      let disc = try DVDDisc(
        fileSystem: MemoryFileSystem(files: [
          "/VIDEO_TS/VIDEO_TS.IFO": vmg, "/VIDEO_TS/VTS_01_0.IFO": bytes,
        ]))
      for result in disc.titles {
        if case .failure(let error) = result { #expect(error.structure.contains(name), "\(error)") }
      }
      _ = LsdvdTitleSelector.report(disc)
      _ = DVDSmartTitleSelector.select(disc)
    }
  }

  @Test(.enabled(if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing)))
  func seededByteFlipFuzz() throws {
    let dir = Fixtures.real("dvd/dvdread_idiocracy/VIDEO_TS") + "/"
    var files: [String: [UInt8]] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
      files["/VIDEO_TS/" + name] = try Self.read(dir + name)
    }
    var rng = SplitMix(seed: 0xD0D0_2026)
    let names = files.keys.sorted()
    for _ in 0..<400 {
      var mutated = files
      let target = names[Int(rng.next() % UInt64(names.count))]
      guard var bytes = mutated[target] else { continue }
      // Flip bytes in the first 4 KiB (headers and tables) most of the time.
      for _ in 0..<(1 + Int(rng.next() % 8)) {
        let span = rng.next() % 4 == 0 ? bytes.count : min(bytes.count, 4096)
        bytes[Int(rng.next() % UInt64(span))] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
      }
      if rng.next() % 5 == 0 { bytes = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count)))) }
      mutated[target] = bytes
      do {
        let disc = try DVDDisc(fileSystem: MemoryFileSystem(files: mutated))
        _ = LsdvdTitleSelector.report(disc)
        _ = DVDSmartTitleSelector.select(disc)
        for case .success(let title) in disc.titles {
          _ = title.cells(angle: 2)
          _ = title.sizeBytes
        }
      } catch {
        #expect(!error.structure.isEmpty)
      }
    }
  }
}

/// The shared seeded generator, under the name these tests use.
typealias SplitMix = SeededRandom
