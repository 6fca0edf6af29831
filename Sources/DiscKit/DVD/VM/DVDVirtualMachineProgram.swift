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
    firstPlayChain = firstPlay.map(Chain.init)
    managerMenuUnits = managerMenus.map(MenuUnits.init)
    var sets: [TitleSet?] = []
    for (number, info) in titleSets where number >= 0 && number <= 0xFFFF {
      if sets.count <= number { sets += Array(repeating: nil, count: number + 1 - sets.count) }
      sets[number] = TitleSet(info)
    }
    navigationSets = sets
    var numbers: [Int: Int] = [:]
    for (index, title) in titles.enumerated() {
      let key = Self.titleKey(titleSet: title.titleSet, titleInSet: title.titleInSet)
      if numbers[key] == nil { numbers[key] = index + 1 }
    }
    titleNumbers = numbers
  }

  /// First Play as the VM runs it.
  let firstPlayChain: Chain?
  /// The video manager menus as the VM runs them.
  let managerMenuUnits: MenuUnits?
  /// The readable title sets as the VM runs them, by number (`nil`: unreadable or absent).
  let navigationSets: [TitleSet?]
  /// The disc title number of each (title set, title in set) pair, the first in TT_SRPT order.
  let titleNumbers: [Int: Int]

  static func titleKey(titleSet: Int, titleInSet: Int) -> Int {
    titleSet << 32 ^ (titleInSet & 0xFFFF_FFFF)
  }

  /// Title set `number` as the VM runs it, `nil` when it cannot be read.
  func titleSet(_ number: Int) -> TitleSet? {
    number >= 0 && number < navigationSets.count ? navigationSets[number] : nil
  }

  /// The disc title number of title `titleInSet` of title set `titleSet` (libdvdnav's `get_TT`),
  /// 0 when none.
  func titleNumber(titleSet: Int, titleInSet: Int) -> Int {
    titleNumbers[Self.titleKey(titleSet: titleSet, titleInSet: titleInSet)] ?? 0
  }
}
