@_spi(Formats) import DiscKit
import Foundation
import Testing

/// The generated DVD menu discs (TestImages/scripts/make-dvd-menus.sh), shared by the VM's core
/// tests and its libdvdnav comparisons.
public enum DVDMenuDiscs {
  /// Every menu disc, by folder name under TestImages/generated.
  public static let names = [
    "dvd-menu-clean", "dvd-menu-decoy", "dvd-menu-lying", "dvd-menu-register", "dvd-menu-damaged",
    "dvd-menu-99", "dvd-menu-timer", "dvd-menu-timer-cut", "dvd-menu-random", "dvd-menu-intitle",
  ]

  /// Whether the disc `name` was generated.
  public static func has(_ name: String) -> Bool {
    FileManager.default.fileExists(atPath: Fixtures.generated(name) + "/VIDEO_TS/VIDEO_TS.IFO")
  }

  /// Whether every menu disc was generated.
  public static let present = names.allSatisfy(has)

  /// The note of a test skipped for want of the discs.
  public static let missing: Comment = "run TestImages/scripts/make-all.sh (make-dvd-menus.sh)"

  /// The disc `name`, opened.
  package static func open(_ name: String) throws -> DVDDisc {
    try DVDDisc(fileSystem: try FolderFileSystem(root: Fixtures.generated(name)))
  }

  /// The files of the disc `name`'s VIDEO_TS folder that `include` keeps (by file name), keyed
  /// by their path on the disc ("/VIDEO_TS/VIDEO_TS.IFO"), for a ``MemoryFileSystem``.
  package static func files(
    _ name: String, where include: (String) -> Bool = { _ in true }
  ) throws -> [String: [UInt8]] {
    let root = Fixtures.generated(name) + "/VIDEO_TS/"
    var files: [String: [UInt8]] = [:]
    for file in try FileManager.default.contentsOfDirectory(atPath: root) where include(file) {
      files["/VIDEO_TS/" + file] = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + file)))
    }
    return files
  }

  /// The files the VM reads before any title plays: the IFOs, their BUPs and the menu VOB.
  package static func navigationFiles(_ name: String) throws -> [String: [UInt8]] {
    try files(name) { $0.hasSuffix(".IFO") || $0.hasSuffix(".BUP") || $0 == "VIDEO_TS.VOB" }
  }

  /// Calls `body` with up to `rounds` seeded variants of `files` (a 64-bit LCG from `seed`), one
  /// at a time: each with 1 to 8 bytes flipped in one file, within the first 64 sectors of a
  /// VOB. A round that draws an empty file makes no variant.
  package static func forEachByteFlip(
    of files: [String: [UInt8]], seed: UInt64, rounds: Int,
    _ body: (_ variant: [String: [UInt8]]) throws -> Void
  ) rethrows {
    var seed = seed
    func next() -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(seed >> 33)
    }
    let names = files.keys.sorted()
    for _ in 0..<rounds {
      var copy = files
      let name = names[next() % names.count]
      guard var bytes = copy[name], !bytes.isEmpty else { continue }
      let limit = name.hasSuffix(".VOB") ? min(bytes.count, 64 * 2048) : bytes.count
      for _ in 0..<(1 + next() % 8) { bytes[next() % limit] ^= UInt8(1 + next() % 255) }
      copy[name] = bytes
      try body(copy)
    }
  }

  /// A search outcome as the libdvdnav helpers word it.
  package static func describe(_ o: DVDMainFeatureSearch.Outcome) -> String {
    switch o {
    case .title(let t, let p, let c): return "title \(t) PGC \(p) cell \(c)"
    case .menu(let n): return "menu with \(n) buttons"
    case .stop: return "stop"
    case .limit: return "limit"
    }
  }
}
