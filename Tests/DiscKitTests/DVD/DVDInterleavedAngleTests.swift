@_spi(Formats) import DiscKit
import DiscKitTestSupport
import Foundation
import Testing

/// Interleaved angle blocks: DiscKit's title bytes per angle against libdvdnav's playback of the
/// same angle, the navigation pack parser against libdvdread's `navRead_PCI`/`navRead_DSI`, the
/// decoded pictures of each angle (ffprobe), and broken navigation packs.
@Suite(.serialized, .toolThreads) struct DVDInterleavedAngleTests {
  static var enabled: Bool { InterleavedAngleDisc.toolsAvailable }

  static func disc() throws -> InterleavedAngleDisc { try InterleavedAngleDisc.shared.get() }

  /// Picture sizes of every decoded video frame, in order.
  static func frameSizes(_ file: String) throws -> [String] {
    let r = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=width,height",
        "-of", "csv=p=0:s=x", file,
      ])
    #expect(r.status == 0, "ffprobe \(file): \(r.stderr)")
    return String(decoding: r.stdout, as: UTF8.self).split(whereSeparator: \.isNewline)
      .map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: "x "))) }
  }

  /// Each angle's stream decodes to the same pictures as that angle authored on its own
  /// (intro, clip, outro, before interleaving), and holds no other angle's pictures.
  @Test(.enabled(if: enabled && Tool.has("ffprobe"), "needs ffmpeg, ffprobe and dvdauthor"))
  func eachAngleDecodesToItsOwnPictures() throws {
    let disc = try Self.disc()
    let dvd = try DVDDisc(fileSystem: try FolderFileSystem(root: disc.path))
    let dir = try TemporaryDirectory("dvd-angle-probe")
    for angle in 1...disc.angleCount {
      let source = try dvd.byteSource(title: 1, angle: angle)
      let file = dir.file("angle\(angle).mpg")
      let ours = try source.bytes(at: 0, count: Int(source.size))
      try Data(ours).write(to: URL(fileURLWithPath: file))
      // Same bytes as the linear stream except the rewritten navigation packs.
      let linear = try [UInt8](
        Data(contentsOf: URL(fileURLWithPath: disc.linearPath(angle: angle))))
      #expect(linear.count == ours.count)
      let navs = Set(InterleavedAngleDisc.navSectors(linear))
      #expect(navs == Set(InterleavedAngleDisc.navSectors(ours)))
      let differing = (0..<(min(linear.count, ours.count) / 2048)).filter {
        linear[($0 * 2048)..<($0 * 2048 + 2048)] != ours[($0 * 2048)..<($0 * 2048 + 2048)]
      }
      #expect(Set(differing).isSubset(of: navs), "angle \(angle)")
      let sizes = try Self.frameSizes(file)
      #expect(sizes == (try Self.frameSizes(disc.linearPath(angle: angle))), "angle \(angle)")
      // 1 s intro + 3 s of this angle + 1 s outro at 25 fps (a decoder may drop a frame where
      // the picture size changes); no other angle's pictures.
      var counts: [String: Int] = [:]
      for s in sizes { counts[s, default: 0] += 1 }
      #expect(
        Set(counts.keys)
          == [InterleavedAngleDisc.introSize, InterleavedAngleDisc.angleSizes[angle - 1]],
        "angle \(angle): \(counts)")
      #expect((48...50).contains(counts[InterleavedAngleDisc.introSize] ?? 0))
      #expect((73...75).contains(counts[InterleavedAngleDisc.angleSizes[angle - 1]] ?? 0))
    }
  }

  // MARK: Bad input

  /// The byte offset of ILVU `index` of `angle`'s last VOBU's navigation pack.
  static func lastNav(_ disc: InterleavedAngleDisc, angle: Int, ilvu index: Int) throws -> Int {
    try #require(disc.ilvus[angle - 1][index].vobuStarts.last) * 2048
  }

  static func openError(_ dir: String, angle: Int = 1) throws -> DiscKitError? {
    let dvd = try DVDDisc(fileSystem: try FolderFileSystem(root: dir))
    do {
      _ = try dvd.byteSource(title: 1, angle: angle)
      return nil
    } catch {
      return error
    }
  }

  @Test(.enabled(if: enabled, "needs ffmpeg and dvdauthor"))
  func navigationPackParserRejectsOtherSectors() throws {
    let disc = try Self.disc()
    let vob = try [UInt8](Data(contentsOf: URL(fileURLWithPath: disc.vobPath)))
    let s = disc.ilvus[0][0].firstSector
    let pack = Array(vob[(s * 2048)..<((s + 1) * 2048)])
    func error(_ bytes: [UInt8]) -> DiscKitError? {
      do {
        _ = try DVDNavigationPack(sector: bytes, at: 4096)
        return nil
      } catch { return error }
    }
    #expect(error([UInt8](repeating: 0, count: 2048))?.code == .malformed)
    #expect(error([UInt8](repeating: 0, count: 2048))?.offset == 4096)
    #expect(error(Array(pack.prefix(1000)))?.code == .truncated)
    var noDSI = pack
    noDSI[0x406] = 0x00  // DSI substream byte
    #expect(error(noDSI)?.code == .malformed)
    var longDSI = pack
    longDSI[0x404] = 0x07  // DSI length past the sector
    #expect(error(longDSI)?.code == .truncated)
    var video = pack
    video[0x29] = 0xE0  // first packet is video, not private stream 2
    #expect(error(video)?.detail.contains("PCI") == true)
    // A following sector is video data, not a navigation pack.
    #expect(error(Array(vob[((s + 1) * 2048)..<((s + 2) * 2048)])) != nil)
  }

  @Test(.enabled(if: enabled, "needs ffmpeg and dvdauthor"))
  func angleAddressPointingBackIsALoop() throws {
    let disc = try Self.disc()
    let nav = try Self.lastNav(disc, angle: 1, ilvu: 1)
    let back = nav / 2048 - disc.ilvus[0][0].firstSector
    let copy = try disc.copy { vob in
      InterleavedAngleDisc.put32(&vob, nav + 0x407 + 180, 0x8000_0000 | back)
    }
    let error = try #require(try Self.openError(copy.path))
    #expect(error.code == .loop)
    #expect(error.offset == Int64(nav))
    #expect(error.structure.contains("NV_PCK"))
  }

  @Test(.enabled(if: enabled, "needs ffmpeg and dvdauthor"))
  func nextVOBUPointerToItselfIsALoop() throws {
    let disc = try Self.disc()
    let nav = try #require(disc.ilvus[1][0].vobuStarts.first) * 2048
    let copy = try disc.copy { vob in
      InterleavedAngleDisc.put32(&vob, nav + 0x407 + 314, 0x8000_0000)
    }
    let error = try #require(try Self.openError(copy.path, angle: 2))
    #expect(error.code == .loop)
    #expect(error.offset == Int64(nav))
  }

  @Test(.enabled(if: enabled, "needs ffmpeg and dvdauthor"))
  func angleAddressOutsideTheCellIsMalformed() throws {
    let disc = try Self.disc()
    let nav = try Self.lastNav(disc, angle: 1, ilvu: 0)
    let copy = try disc.copy { vob in
      InterleavedAngleDisc.put32(&vob, nav + 0x407 + 180, 100_000)
    }
    let error = try #require(try Self.openError(copy.path))
    #expect(error.code == .malformed)
    #expect(error.offset == Int64(nav))
    #expect(error.detail.contains("outside the cell"))
  }

  @Test(.enabled(if: enabled, "needs ffmpeg and dvdauthor"))
  func missingNavigationPackIsMalformed() throws {
    let disc = try Self.disc()
    let sector = disc.ilvus[2][1].firstSector
    let copy = try disc.copy { vob in
      for i in (sector * 2048)..<((sector + 1) * 2048) { vob[i] = 0 }
    }
    let error = try #require(try Self.openError(copy.path, angle: 3))
    #expect(error.code == .malformed)
    #expect(error.offset == Int64(sector) * 2048)
    #expect(error.detail.contains("missing navigation pack"))
    // The other angles do not read that sector.
    #expect(try Self.openError(copy.path, angle: 1) == nil)
  }

  @Test(.enabled(if: enabled, "needs ffmpeg and dvdauthor"))
  func vobuEndPastTheCellIsMalformed() throws {
    let disc = try Self.disc()
    // ILVU 2 of angle 1 has two VOBUs: its last one (ILVU flags block + last) is the one whose
    // `ilvu_ea` gives the VOBU's length. (A one-VOBU ILVU is flagged first + last, which
    // libdvdnav does not treat as an ILVU end: it then follows `next_vobu` and `vobu_ea`.)
    let unit = disc.ilvus[0][1]
    #expect(unit.vobuStarts.count == 2)
    let nav = try #require(unit.vobuStarts.last) * 2048
    let copy = try disc.copy { vob in
      InterleavedAngleDisc.put32(&vob, nav + 0x407 + 34, 50_000)  // ilvu_ea, the last VOBU's length
    }
    let error = try #require(try Self.openError(copy.path))
    #expect(error.code == .malformed)
    #expect(error.offset == Int64(nav))
    #expect(error.detail.contains("runs past"))
  }

  @Test(.enabled(if: enabled, "needs ffmpeg and dvdauthor"))
  func vobuLimit() throws {
    let disc = try Self.disc()
    let dvd = try DVDDisc(fileSystem: try FolderFileSystem(root: disc.path))
    let title = try dvd.title(1)
    let vobs = try dvd.titleVOBs(titleSet: 1)
    #expect(throws: DiscKitError.self) {
      try DVDTitleByteSource(
        cells: title.cells(angle: 1), vobs: vobs, ifoName: "VTS_01_0.IFO", maxVOBUsPerCell: 2)
    }
    do {
      _ = try DVDTitleByteSource(
        cells: title.cells(angle: 1), vobs: vobs, ifoName: "VTS_01_0.IFO", maxVOBUsPerCell: 2)
    } catch {
      #expect(error.code == .limitExceeded)
    }
  }

  /// Random damage to the block's navigation packs: every outcome is bytes or a DiscKitError.
  @Test(.enabled(if: enabled, "needs ffmpeg and dvdauthor"))
  func seededFuzzOfNavigationPacksNeverCrashes() throws {
    let disc = try Self.disc()
    var files: [String: [UInt8]] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: disc.path + "/VIDEO_TS") {
      files["/VIDEO_TS/" + name] = try [UInt8](
        Data(contentsOf: URL(fileURLWithPath: disc.path + "/VIDEO_TS/" + name)))
    }
    let original = try #require(files["/VIDEO_TS/VTS_01_1.VOB"])
    let navs = disc.ilvus.flatMap { $0.flatMap(\.vobuStarts) }
    var rng = SplitMix(seed: 0xD15C_A461)
    var failures = 0
    for _ in 0..<150 {
      var vob = original
      for _ in 0..<(1 + Int(rng.next() % 6)) {
        let nav = navs[Int(rng.next() % UInt64(navs.count))] * 2048
        let field = [
          0, 4, 13, 14, 0x26, 0x2A, 0x2C, 0x2D + 60, 0x400, 0x404, 0x406, 0x40F, 0x427,
          0x429, 0x4BB, 0x4C1, 0x4C7, 0x4F1, 0x541, 0x545,
        ][Int(rng.next() % 20)]
        let at = nav + min(2047, field + Int(rng.next() % 4))
        vob[at] = rng.next() % 3 == 0 ? 0xFF : UInt8(truncatingIfNeeded: rng.next())
        // The parser on its own, on the damaged sector.
        _ = try? DVDNavigationPack(sector: Array(vob[nav..<(nav + 2048)]), at: Int64(nav))
      }
      var damaged = files
      damaged["/VIDEO_TS/VTS_01_1.VOB"] = vob
      let dvd = try DVDDisc(fileSystem: MemoryFileSystem(files: damaged))
      for angle in 1...disc.angleCount {
        do {
          let source = try dvd.byteSource(title: 1, angle: angle)
          #expect(source.size <= Int64(vob.count))
        } catch {
          failures += 1
          #expect(error.offset != nil)
        }
      }
    }
    #expect(failures > 0)
  }
}
