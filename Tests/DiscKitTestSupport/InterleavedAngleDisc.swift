@_spi(Formats) import DiscKit
import Foundation

/// A VIDEO_TS folder with a seamless, interleaved angle block, built for tests (no Debian tool
/// authors one):
///
/// 1. ffmpeg makes an intro, one clip per angle and an outro (`-target pal-dvd`), each with its
///    own picture size so a decoded stream shows which clip it came from;
/// 2. dvdauthor authors them as one PGC (intro, angle 1, angle 2, …, outro; the angle clips after
///    the first are cells without a program), which gives valid navigation packs;
/// 3. the angle cells' VOBUs are cut into ILVUs of `vobusPerILVU` VOBUs and interleaved in place
///    (the block covers exactly the sectors the angle cells covered), and every navigation pack of
///    the block is rewritten: `nv_pck_lbn`, the VOBU search pointers (remapped to the VOBU they
///    pointed at), the ILVU flags / end / next-start fields and the seamless angle addresses;
/// 4. the IFO's angle cells become an interleaved seamless angle block (block mode first/in/last,
///    block type 1, first/ILVU-end/last-VOBU/last sectors), the PGC time counts one angle, and
///    VIDEO_TS.IFO declares the angles.
package struct InterleavedAngleDisc {
  /// One ILVU: where it is in the new VOB and where its VOBUs start.
  package struct ILVU {
    package var angle: Int
    package var index: Int
    package var firstSector: Int
    package var sectorCount: Int
    package var vobuStarts: [Int]
    package var lastSector: Int { firstSector + sectorCount - 1 }
  }

  /// Every sector that starts like a navigation pack (pack header, system header, private stream 2).
  package static func navSectors(_ vob: [UInt8]) -> [Int] {
    (0..<(vob.count / 2048)).filter { s in
      let b = s * 2048
      return vob[b..<(b + 4)] == [0, 0, 1, 0xBA] && vob[(b + 14)..<(b + 18)] == [0, 0, 1, 0xBB]
        && vob[(b + 0x26)..<(b + 0x2A)] == [0, 0, 1, 0xBF]
    }
  }

  package static let angleSizes = ["720x576", "704x576", "352x576"]
  package static let introSize = "352x288"

  package let directory: TemporaryDirectory
  package var path: String { directory.path }
  package var vobPath: String { path + "/VIDEO_TS/VTS_01_1.VOB" }
  /// Angle `n`'s program stream as authored, before interleaving (intro, angle clip, outro).
  package func linearPath(angle: Int) -> String { path + "/linear-angle\(angle).vob" }
  package let angleCount: Int
  /// ILVUs by angle (index 0 = angle 1), in order.
  package let ilvus: [[ILVU]]
  /// Cell playback entry offsets in VTS_01_0.IFO (cells 1…), as authored.
  package let cellEntryOffsets: [Int]
  /// The intro's and outro's sector ranges.
  package let intro: ClosedRange<Int>
  package let outro: ClosedRange<Int>

  package static var toolsAvailable: Bool { Tool.has("ffmpeg") && Tool.has("dvdauthor") }

  /// Built once per test process.
  package static let shared: Result<InterleavedAngleDisc, any Error> = Result {
    let disc = try InterleavedAngleDisc(angles: 3, vobusPerILVU: 2)
    atexit {  // a static is never deinitialised: remove the folder when the test process ends
      if case .success(let disc) = InterleavedAngleDisc.shared {
        try? FileManager.default.removeItem(atPath: disc.path)
      }
    }
    return disc
  }

  package init(angles: Int, vobusPerILVU: Int) throws {
    precondition(angles >= 2 && angles <= Self.angleSizes.count)
    angleCount = angles
    directory = try TemporaryDirectory("dvd-interleaved")
    let dir = directory.path
    func clip(_ name: String, size: String, seconds: Int, frequency: Int) throws {
      let r = try Tool.run(
        "ffmpeg",
        [
          "-nostdin", "-loglevel", "error", "-y",
          "-f", "lavfi", "-i", "testsrc=size=\(size):rate=25:duration=\(seconds)",
          "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=48000:duration=\(seconds)",
          "-target", "pal-dvd", "-s", size, "-b:v", "400k", "-maxrate", "800k", "-bufsize", "224k",
          "-b:a", "96k", "-ac", "2", "-aspect", "4:3", "-bitexact", "-shortest",
          "\(dir)/\(name).mpg",
        ])
      guard r.status == 0 else { throw BuildError("ffmpeg \(name): \(r.stderr)") }
    }
    try clip("intro", size: Self.introSize, seconds: 1, frequency: 440)
    for a in 0..<angles {
      try clip("angle\(a + 1)", size: Self.angleSizes[a], seconds: 3, frequency: 550 + 110 * a)
    }
    try clip("outro", size: Self.introSize, seconds: 1, frequency: 990)
    var vobs = "      <vob file=\"\(dir)/intro.mpg\" chapters=\"0\"/>\n"
    vobs += "      <vob file=\"\(dir)/angle1.mpg\" chapters=\"0\"/>\n"
    for a in 1..<angles {
      vobs +=
        "      <vob file=\"\(dir)/angle\(a + 1).mpg\"><cell start=\"0\" chapter=\"0\" program=\"0\"/></vob>\n"
    }
    vobs += "      <vob file=\"\(dir)/outro.mpg\" chapters=\"0\"/>\n"
    let xml = """
      <dvdauthor dest="\(dir)/disc" jumppad="0">
        <vmgm/>
        <titleset><titles><video format="pal" aspect="4:3"/>
          <pgc>
      \(vobs)    </pgc>
        </titles></titleset>
      </dvdauthor>
      """
    try xml.write(toFile: dir + "/disc.xml", atomically: true, encoding: .utf8)
    let authored = try Tool.run(
      "dvdauthor", ["-x", dir + "/disc.xml"], environment: ["VIDEO_FORMAT": "PAL"])
    guard authored.status == 0 else { throw BuildError("dvdauthor: \(authored.stderr)") }
    try FileManager.default.moveItem(atPath: dir + "/disc/VIDEO_TS", toPath: dir + "/VIDEO_TS")

    // The authored cells.
    let ifoPath = dir + "/VIDEO_TS/VTS_01_0.IFO"
    var ifo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ifoPath)))
    let vts = try DVDTitleSetInfo(bytes: ifo)
    let pgc = try vts.programChains.programChain(1)
    guard let cells = pgc.cellPlayback, cells.count == angles + 2 else {
      throw BuildError("dvdauthor made \(pgc.cellPlayback?.count ?? 0) cells")
    }
    cellEntryOffsets = cells.map { Int($0.offset) }
    intro = Int(cells[0].firstSector)...Int(cells[0].lastSector)
    outro = Int(cells[angles + 1].firstSector)...Int(cells[angles + 1].lastSector)
    var vob = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/VIDEO_TS/VTS_01_1.VOB")))

    // Each angle cell's VOBUs (start sector, sector count) by vobu_ea.
    var vobus: [[(start: Int, count: Int)]] = []
    for a in 0..<angles {
      let cell = cells[1 + a]
      var list: [(start: Int, count: Int)] = []
      var sector = Int(cell.firstSector)
      while sector <= Int(cell.lastSector) {
        let ea = Self.get32(vob, sector * 2048 + 0x407 + 8)
        list.append((sector, ea + 1))
        sector += ea + 1
      }
      guard sector == Int(cell.lastSector) + 1 else { throw BuildError("VOBUs overrun cell \(a)") }
      vobus.append(list)
    }
    let vobuCount = vobus.map(\.count).min() ?? 0
    guard vobus.allSatisfy({ $0.count == vobuCount }), vobuCount >= 3 else {
      throw BuildError("angles have VOBU counts \(vobus.map(\.count))")
    }
    let regionStart = Int(cells[1].firstSector)
    let regionEnd = Int(cells[angles].lastSector)
    guard (1..<angles).allSatisfy({ cells[$0 + 1].firstSector == cells[$0].lastSector + 1 }) else {
      throw BuildError("angle cells are not contiguous")
    }

    // Each angle as dvdauthor laid it out (intro, the angle's cell, outro), before interleaving.
    for a in 0..<angles {
      let cell = cells[1 + a]
      var linear = Array(vob[(intro.lowerBound * 2048)..<((intro.upperBound + 1) * 2048)])
      linear += vob[(Int(cell.firstSector) * 2048)..<((Int(cell.lastSector) + 1) * 2048)]
      linear += vob[(outro.lowerBound * 2048)..<((outro.upperBound + 1) * 2048)]
      try Data(linear).write(to: URL(fileURLWithPath: dir + "/linear-angle\(a + 1).vob"))
    }

    // Interleave: ILVU i of every angle, then ILVU i + 1.
    let ilvuCount = (vobuCount + vobusPerILVU - 1) / vobusPerILVU
    var layout = [[ILVU]](repeating: [], count: angles)
    var newStart: [[Int: Int]] = Array(repeating: [:], count: angles)  // old VOBU start → new
    var region: [UInt8] = []
    var position = regionStart
    for i in 0..<ilvuCount {
      for a in 0..<angles {
        let members = vobus[a][(i * vobusPerILVU)..<min(vobuCount, (i + 1) * vobusPerILVU)]
        var unit = ILVU(
          angle: a + 1, index: i, firstSector: position, sectorCount: 0, vobuStarts: [])
        for v in members {
          newStart[a][v.start] = position
          unit.vobuStarts.append(position)
          region += vob[(v.start * 2048)..<((v.start + v.count) * 2048)]
          position += v.count
          unit.sectorCount += v.count
        }
        layout[a].append(unit)
      }
    }
    guard position == regionEnd + 1 else { throw BuildError("interleaved region size changed") }
    vob.replaceSubrange((regionStart * 2048)...((regionEnd + 1) * 2048 - 1), with: region)

    // Rewrite the navigation packs of the block.
    for a in 0..<angles {
      for (i, unit) in layout[a].enumerated() {
        for (k, start) in unit.vobuStarts.enumerated() {
          guard let old = newStart[a].first(where: { $0.value == start })?.key else { continue }
          let nav = start * 2048
          let dsi = nav + 0x407
          Self.put32(&vob, nav + 0x2D, start)  // PCI nv_pck_lbn
          Self.put32(&vob, dsi + 4, start)  // DSI nv_pck_lbn
          func remap(_ at: Int, forward: Bool) {
            let value = Self.get32(vob, at)
            let distance = value & 0x3FFF_FFFF
            guard distance != 0x3FFF_FFFF, distance != 0 else { return }
            let target = forward ? old + distance : old - distance
            if let moved = newStart[a][target] {
              Self.put32(&vob, at, (value & ~0x3FFF_FFFF) | abs(moved - start))
            } else {
              Self.put32(&vob, at, (value & ~0x3FFF_FFFF) | 0x3FFF_FFFF)
            }
          }
          remap(dsi + 234, forward: true)  // next_video
          for j in 0..<19 { remap(dsi + 238 + 4 * j, forward: true) }  // fwda
          remap(dsi + 314, forward: true)  // next_vobu
          remap(dsi + 318, forward: false)  // prev_vobu
          for j in 0..<19 { remap(dsi + 322 + 4 * j, forward: false) }  // bwda
          remap(dsi + 398, forward: false)  // prev_video
          var category = 0x4000
          if k == 0 { category |= 0x2000 }
          if k == unit.vobuStarts.count - 1 { category |= 0x1000 }
          Self.put16(&vob, dsi + 32, category)
          Self.put32(&vob, dsi + 34, unit.lastSector - start)  // ilvu_ea
          let last = i + 1 == ilvuCount
          Self.put32(&vob, dsi + 38, last ? 0x7FFF_FFFF : layout[a][i + 1].firstSector - start)
          Self.put16(&vob, dsi + 42, last ? 0 : layout[a][i + 1].sectorCount)
          for b in 0..<9 {
            let entry = dsi + 180 + 6 * b
            if b < angles {
              Self.put32(&vob, entry, last ? 0x7FFF_FFFF : layout[b][i + 1].firstSector - start)
              Self.put16(&vob, entry + 4, last ? 0 : layout[b][i + 1].sectorCount)
            } else {
              Self.put32(&vob, entry, 0)
              Self.put16(&vob, entry + 4, 0)
            }
          }
          for b in 0..<9 { Self.put32(&vob, nav + 0x2D + 60 + 4 * b, 0) }  // no non-seamless angles
        }
      }
    }
    try Data(vob).write(to: URL(fileURLWithPath: dir + "/VIDEO_TS/VTS_01_1.VOB"))
    ilvus = layout

    // The IFO: an interleaved, seamless angle block; the PGC time counts one angle.
    for a in 0..<angles {
      let e = cellEntryOffsets[1 + a]
      let mode = a == 0 ? 1 : (a == angles - 1 ? 3 : 2)
      ifo[e] = UInt8(mode << 6 | 1 << 4) | (ifo[e] & 0x08) | 0x04 | 0x01
      let units = layout[a]
      guard let firstUnit = units.first, let lastUnit = units.last,
        let lastVOBU = lastUnit.vobuStarts.last
      else { throw BuildError("no ILVUs") }
      Self.put32(&ifo, e + 8, firstUnit.firstSector)
      Self.put32(&ifo, e + 12, firstUnit.lastSector)
      Self.put32(&ifo, e + 16, lastVOBU)
      Self.put32(&ifo, e + 20, lastUnit.lastSector)
    }
    var frames = 0
    for c in [0, 1, angles + 1] {
      let t = cells[c].playbackTime
      func bcd(_ v: UInt8) -> Int { Int(v >> 4) * 10 + Int(v & 0x0F) }
      frames +=
        ((bcd(t.hour) * 60 + bcd(t.minute)) * 60 + bcd(t.second)) * 25 + bcd(t.frameByte & 0x3F)
    }
    func toBCD(_ v: Int) -> UInt8 { UInt8((v / 10) << 4 | (v % 10)) }
    let p = Int(pgc.offset) + 4
    ifo[p] = toBCD(frames / 25 / 3600)
    ifo[p + 1] = toBCD(frames / 25 / 60 % 60)
    ifo[p + 2] = toBCD(frames / 25 % 60)
    ifo[p + 3] = 0x40 | toBCD(frames % 25)
    for name in ["VTS_01_0.IFO", "VTS_01_0.BUP"] {
      try Data(ifo).write(to: URL(fileURLWithPath: dir + "/VIDEO_TS/" + name))
    }
    for name in ["VIDEO_TS.IFO", "VIDEO_TS.BUP"] {
      let file = dir + "/VIDEO_TS/" + name
      var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
      guard let entry = try DVDVideoManagerInfo(bytes: bytes).titles.titles.first else {
        throw BuildError("no title in \(name)")
      }
      bytes[Int(entry.offset) + 1] = UInt8(angles)
      try Data(bytes).write(to: URL(fileURLWithPath: file))
    }
  }

  /// Copies the disc's VIDEO_TS into a new temporary directory, applying `patch` to the VOB.
  package func copy(patchingVOB patch: (inout [UInt8]) -> Void) throws -> TemporaryDirectory {
    let copy = try TemporaryDirectory("dvd-interleaved-bad")
    try FileManager.default.copyItem(atPath: path + "/VIDEO_TS", toPath: copy.path + "/VIDEO_TS")
    var vob = try [UInt8](Data(contentsOf: URL(fileURLWithPath: vobPath)))
    patch(&vob)
    try Data(vob).write(to: URL(fileURLWithPath: copy.path + "/VIDEO_TS/VTS_01_1.VOB"))
    return copy
  }

  package static func get32(_ b: [UInt8], _ at: Int) -> Int {
    (0..<4).reduce(0) { $0 << 8 | Int(b[at + $1]) }
  }

  package static func put32(_ b: inout [UInt8], _ at: Int, _ v: Int) {
    for i in 0..<4 { b[at + i] = UInt8((v >> (24 - 8 * i)) & 0xFF) }
  }

  package static func put16(_ b: inout [UInt8], _ at: Int, _ v: Int) {
    b[at] = UInt8((v >> 8) & 0xFF)
    b[at + 1] = UInt8(v & 0xFF)
  }

  package struct BuildError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
  }
}
