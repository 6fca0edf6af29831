/// A DVD's menus as the episode search reads them: the walk of ``DVDMainFeatureSearch`` (one
/// walk serves the main title and the episodes). From First Play, every menu page the
/// navigation shows (a menu cell with buttons, with the registers it was entered with; each
/// once) has each button of the group a player shows pressed on a copy of the
/// ``DVDVirtualMachine``, then the buttons of the other display modes' groups that run another
/// command (a 16:9 menu's wide, letterbox and pan & scan groups: a player in another mode
/// presses those), and each press is followed through the titles it plays (pre, cell and post
/// commands run: a button that sets a GPRM flag the post commands test plays the titles that
/// flag chains) until the next menu page, the stop, a loop or a navigation timer expiry. Stills
/// and timed waits are stepped over. Each `rnd` outcome the search explores at a press is a
/// press of its own, and so is each outcome of an `rnd` in the commands of a cell the press
/// plays (named with the outcome: `VMGM PGC 1 button 1 (rnd GPRM1 = 2 of 1…3)`): the search's
/// bounds on outcomes hold (at most ``DVDMainFeatureSearch/randomOutcomesPerStep`` a step, each
/// position and visit queued once), so a press has a bounded number of outcomes.
///
/// Reads the IFOs (through ``DVDDisc``) and the navigation packs of menu cells and of title
/// cells held by an infinite still; bounded by ``Limits`` (pages, cells and commands over the
/// whole walk).
package enum DVDEpisodeMenuWalk {
  /// How much the walk may explore.
  package struct Limits: Sendable, Hashable {
    /// Menu pages (states) explored at most.
    package var pages: Int
    /// Cells played at most, over the whole walk.
    package var cells: Int
    /// Navigation commands run at most, over the whole walk (every press takes from it).
    package var commands: Int
    /// The defaults: 200 pages, 50,000 cells, 2,000,000 commands.
    package static let `default` = Limits(pages: 200, cells: 50_000)

    /// Limits from their values.
    package init(pages: Int, cells: Int, commands: Int = 2_000_000) {
      self.pages = pages
      self.cells = cells
      self.commands = commands
    }
  }

  /// A run of one title's chapters played in order.
  package struct Span: Sendable, Hashable {
    /// The disc title.
    package var title: Int
    /// The first and last chapters played (1-based).
    package var firstChapter: Int
    package var lastChapter: Int
    /// Whether playback entered the title at the first cell of ``firstChapter``.
    package var atChapterStart: Bool
    /// The PGC (of the title set) playback entered the title at.
    package var programChain: Int = 0
  }

  /// A run of one PGC's cells played in order, whether or not a chapter of its title names the
  /// PGC (a PGC reached only by `LinkPGCN`).
  package struct ProgramChainVisit: Sendable, Hashable {
    /// The disc title the VM was in (SPRM 4's title, as libdvdnav keeps it in such a PGC).
    package var title: Int
    /// The title set and the PGC in it.
    package var titleSet: Int
    package var programChain: Int
    /// The first and last cells played (1-based).
    package var firstCell: Int
    package var lastCell: Int
  }

  /// One button pressed and what it played.
  package struct Press: Sendable, Hashable {
    /// The page: its index in the walk's order, and its name (`VMGM PGC 1`, `VTS 1 menu PGC 2`,
    /// with the GPRMs set).
    package var page: Int
    package var pageName: String
    /// The 1-based button number.
    package var button: Int
    /// The button group when it is not the one a player shows by default (` (group 1, wide)`),
    /// else empty.
    package var group: String = ""
    /// The titles played after the press, in order, until the next menu page or the stop.
    package var played: [Span]

    /// The page's menu without its registers (`VMGM PGC 1`): the same menu entered with other
    /// GPRMs (an authoring tool's own dispatch registers) is the same menu to a viewer.
    package var menuName: String
    /// The PGCs played after the press, in order, each run of a PGC's cells once (named by a
    /// chapter of their title or not).
    package var programChains: [ProgramChainVisit] = []
    /// The outcomes of `rnd` in the commands of the cells it played (` (rnd GPRM1 = 2 of 1…3)`),
    /// else empty.
    package var outcome: String = ""

    /// `VMGM PGC 1 button 2` (`VMGM PGC 1 button 3 (group 1, wide)`, `VMGM PGC 1 button 1 (rnd
    /// GPRM1 = 2 of 1…3)`).
    package var name: String { "\(menuName) button \(button)\(group)\(outcome)" }
  }

  /// Runs the walk on `disc`: the presses of ``DVDMainFeatureSearch`` run with these limits (a
  /// disc's `titles` reads them from the search its main-title choice made).
  package static func run(_ disc: DVDDisc, limits: Limits = .default) -> [Press] {
    DVDMainFeatureSearch.run(
      disc,
      limits: .init(menuStates: limits.pages, cells: limits.cells, commands: limits.commands)
    ).presses
  }
}
