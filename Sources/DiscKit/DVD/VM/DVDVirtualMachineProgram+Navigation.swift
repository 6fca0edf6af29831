/// The navigation data as the VM reads it: every PGC unwrapped once per disc into a class the
/// copies of the VM share by reference, so that copying a VM (one per button press, `rnd`
/// outcome and cell of the main-feature search) copies its registers and position, not the
/// disc's tables.
extension DVDVirtualMachineProgram {
  /// A PGC as the VM runs it: the parsed PGC with its cells, program map and commands
  /// unwrapped (an absent list is empty).
  final class Chain: Sendable {
    /// The parsed PGC.
    let chain: DVDProgramChain
    /// The cells (`cellPlayback`, empty when absent).
    let cells: [DVDCellPlayback]
    /// The program map (first cell of each program).
    let programMap: [UInt8]
    /// The pre commands.
    let pre: [DVDCommand]
    /// The post commands.
    let post: [DVDCommand]
    /// The cell commands.
    let cellCommands: [DVDCommand]

    init(_ chain: DVDProgramChain) {
      self.chain = chain
      cells = chain.cellPlayback ?? []
      programMap = chain.programMap ?? []
      pre = chain.commands?.pre ?? []
      post = chain.commands?.post ?? []
      cellCommands = chain.commands?.cell ?? []
    }
  }

  /// A PGC table (a title set's titles, or one menu language unit): each PGC by number
  /// (`nil`: it could not be read) and its entry id.
  final class ChainTable: Sendable {
    /// PGC `n` at index `n - 1`.
    let chains: [Chain?]
    /// The entry id of PGC `n` at index `n - 1`.
    let entryIDs: [UInt8]

    init(_ table: DVDProgramChainTable) {
      // Entries that share a start byte share one parsed PGC, and so one Chain.
      var byStart: [UInt32: Chain] = [:]
      chains = table.entries.map { entry in
        guard case .success(let pgc) = entry.programChain else { return nil }
        if let known = byStart[entry.startByte] { return known }
        let chain = Chain(pgc)
        byStart[entry.startByte] = chain
        return chain
      }
      entryIDs = table.entries.map(\.entryID)
    }
  }

  /// A menu PGC unit table: the tables by language code, in disc order (`nil`: the unit's PGC
  /// table could not be read).
  struct MenuUnits: Sendable {
    var units: [(language: UInt16, table: ChainTable?)]

    init(_ menus: DVDMenuTable) {
      units = menus.units.map { unit in
        (unit.languageCode, (try? unit.programChains.get()).map(ChainTable.init))
      }
    }

    /// The table of menu language `language`, else the first unit's
    /// (``DVDMenuTable/programChains(language:)``).
    func table(language: UInt16) -> ChainTable? {
      (units.first { $0.language == language } ?? units.first)?.table
    }
  }

  /// A readable title set as the VM reads it.
  final class TitleSet: Sendable {
    /// VTS_PTT_SRPT: the chapters of each title of the set.
    let titles: [[DVDPartOfTitleTable.Part]]
    /// The title PGCs.
    let programChains: ChainTable
    /// The menus (`nil` when the set has none or they cannot be read).
    let menus: MenuUnits?

    init(_ info: DVDTitleSetInfo) {
      titles = info.partsOfTitles.titles
      programChains = ChainTable(info.programChains)
      menus = (try? info.menus?.get()).map(MenuUnits.init)
    }
  }
}
