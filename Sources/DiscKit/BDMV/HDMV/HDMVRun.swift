/// The outcome of running one entry (First Play, Top Menu, a title, a button) in the
/// `HDMVMachine`.
package struct HDMVRun: Sendable {
  /// How a run ended.
  package enum Ending: Sendable, Hashable, CustomStringConvertible {
    /// The program ran past its last command.
    case finished
    /// A jump reached a BD-J title (its playlists are chosen by Java code, not HDMV).
    case bdjTitle(Int)
    /// The same command was reached again with the same registers after playing a playlist:
    /// the program loops forever (a menu that replays its background, ...).
    case loop(HDMVLocation)
    /// The step budget ran out (a computation that does not end).
    case stepBudget(Int)
    /// Too many playlists started in one run.
    case playlistBudget(Int)
    /// A button's command changed the menu page, or `TerminatePL` returned to the movie object.
    case buttonDone
    /// Nothing to run (no such object, or an empty program).
    case nothing

    package var description: String {
      switch self {
      case .finished: "finished"
      case .bdjTitle(let t): "jumps to BD-J title \(t)"
      case .loop(let l): "loops (\(l) again with the same registers)"
      case .stepBudget(let n): "stopped after \(n) commands (step budget)"
      case .playlistBudget(let n): "stopped after \(n) playlist starts"
      case .buttonDone: "button done"
      case .nothing: "nothing to run"
      }
    }
  }

  /// Where the run started.
  package var entry: HDMVEntry
  /// Every playlist start, in order.
  package var reaches: [PlaylistReach] = []
  /// Titles entered by `JumpTitle`/`CallTitle` (0 top menu, 0xFFFF first play).
  package var titlesEntered: [Int] = []
  /// Commands executed.
  package var steps = 0
  /// How the run ended.
  package var ending: Ending = .finished
  /// Problems met: invalid registers, objects or titles, refused commands, the budget.
  package var warnings: [String] = []
  /// The machine state when the run ended.
  package var finalState = HDMVState()

  /// The distinct playlists started, in first-start order.
  package var playlists: [Int] {
    var seen = Set<Int>()
    return reaches.map(\.playlist).filter { seen.insert($0).inserted }
  }
}
