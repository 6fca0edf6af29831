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
