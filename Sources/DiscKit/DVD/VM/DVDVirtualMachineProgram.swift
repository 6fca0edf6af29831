/// The navigation data a ``DVDVirtualMachine`` runs: First Play, the title search table, the
/// video manager menus and every readable title set (its parts of titles, title PGCs and menus).
///
/// Built once from a ``DVDDisc`` and shared (read-only) by every copy of the VM.
@_spi(Formats)
public final class DVDVirtualMachineProgram: Sendable {
  /// The First Play PGC.
  public let firstPlay: DVDProgramChain?
  /// The disc's titles (TT_SRPT).
  public let titles: [DVDTitleSearchTable.Entry]
  /// The video manager menus.
  public let managerMenus: DVDMenuTable?
  /// The readable title sets by number.
  public let titleSets: [Int: DVDTitleSetInfo]

  /// The program of `disc`: title sets that cannot be read are left out (the VM stops with a
  /// warning when it is sent to one).
  public convenience init(disc: DVDDisc) {
    var sets: [Int: DVDTitleSetInfo] = [:]
    for (number, loaded) in disc.titleSets {
      if case .success(let info) = loaded.info { sets[number] = info }
    }
    self.init(
      firstPlay: disc.videoManager.firstPlayProgramChain, titles: disc.videoManager.titles.titles,
      managerMenus: try? disc.videoManager.menus?.get(), titleSets: sets)
  }

  /// A program from its parts.
  public init(
    firstPlay: DVDProgramChain?, titles: [DVDTitleSearchTable.Entry],
    managerMenus: DVDMenuTable?, titleSets: [Int: DVDTitleSetInfo]
  ) {
    self.firstPlay = firstPlay
    self.titles = titles
    self.managerMenus = managerMenus
    self.titleSets = titleSets
  }

  /// The disc title number of title `titleInSet` of title set `titleSet` (libdvdnav's `get_TT`),
  /// 0 when none.
  func titleNumber(titleSet: Int, titleInSet: Int) -> Int {
    guard
      let index = titles.firstIndex(where: {
        $0.titleSet == titleSet && $0.titleInSet == titleInSet
      })
    else { return 0 }
    return index + 1
  }
}
