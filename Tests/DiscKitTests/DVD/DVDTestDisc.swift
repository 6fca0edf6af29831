@_spi(Formats) import DiscKit
import Foundation

/// Builds VIDEO_TS folders for tests: a minimal video manager (VIDEO_TS.IFO) written here and
/// title set IFOs taken from elsewhere.
enum DVDTestDisc {
  static func put16(_ b: inout [UInt8], _ at: Int, _ v: Int) {
    b[at] = UInt8((v >> 8) & 0xff)
    b[at + 1] = UInt8(v & 0xff)
  }

  static func put32(_ b: inout [UInt8], _ at: Int, _ v: Int) {
    for i in 0..<4 { b[at + i] = UInt8((v >> (24 - 8 * i)) & 0xff) }
  }

  /// A VIDEO_TS.IFO with one title per (title set, title-in-set) pair: sector 0 the VMGI_MAT,
  /// sector 1 the TT_SRPT, sector 2 the VTS_ATRT.
  static func videoManager(
    titles: [(vts: Int, ttn: Int, chapters: Int, angles: Int)], titleSetCount: Int
  ) -> [UInt8] {
    var b = [UInt8](repeating: 0, count: 3 * 2048)
    for (i, c) in "DVDVIDEO-VMG".utf8.enumerated() { b[i] = c }
    put32(&b, 12, 5)  // vmg_last_sector
    put32(&b, 28, 2)  // vmgi_last_sector
    b[33] = 0x11
    put16(&b, 38, 1)
    put16(&b, 40, 1)
    b[42] = 1
    put16(&b, 62, titleSetCount)
    put32(&b, 128, 1023)  // vmgi_last_byte
    put32(&b, 196, 1)  // tt_srpt sector
    put32(&b, 208, 2)  // vts_atrt sector
    let tt = 2048
    put16(&b, tt, titles.count)
    put32(&b, tt + 4, 8 + 12 * titles.count - 1)
    for (i, t) in titles.enumerated() {
      let e = tt + 8 + 12 * i
      b[e + 1] = UInt8(t.angles)
      put16(&b, e + 2, t.chapters)
      b[e + 6] = UInt8(t.vts)
      b[e + 7] = UInt8(t.ttn)
    }
    let at = 4096
    put16(&b, at, titleSetCount)
    put32(&b, at + 4, 8 + 4 * titleSetCount + 360 * titleSetCount - 1)
    for i in 0..<titleSetCount {
      let offset = 8 + 4 * titleSetCount + 360 * i
      put32(&b, at + 8 + 4 * i, offset)
      put32(&b, at + offset, 359)
    }
    return b
  }

  /// Writes `<dir>/VIDEO_TS/` with VTS_nn_0.IFO for each of `titleSets` and a video manager
  /// listing `titlesPerSet[i]` titles of set i + 1 (chapter and angle counts from the IFOs).
  static func writeFolder(at dir: String, titleSets: [[UInt8]], titlesPerSet: [Int]) throws {
    let videoTS = dir + "/VIDEO_TS"
    try FileManager.default.createDirectory(atPath: videoTS, withIntermediateDirectories: true)
    var titles: [(vts: Int, ttn: Int, chapters: Int, angles: Int)] = []
    for (i, bytes) in titleSets.enumerated() {
      let info = try? DVDTitleSetInfo(bytes: bytes)
      for ttn in 1...max(1, titlesPerSet[i]) {
        let chapters =
          info.map {
            ttn <= $0.partsOfTitles.titles.count ? $0.partsOfTitles.titles[ttn - 1].count : 0
          } ?? 1
        titles.append((vts: i + 1, ttn: ttn, chapters: chapters, angles: 1))
      }
      let name = String(format: "VTS_%02d_0.IFO", i + 1)
      try Data(bytes).write(to: URL(fileURLWithPath: videoTS + "/" + name))
    }
    try Data(videoManager(titles: titles, titleSetCount: titleSets.count))
      .write(to: URL(fileURLWithPath: videoTS + "/VIDEO_TS.IFO"))
  }
}
