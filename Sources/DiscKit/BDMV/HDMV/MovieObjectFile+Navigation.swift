extension MovieObjectFile {
  /// Runs the disc's HDMV navigation (First Play, the Top Menu, then every index title, each
  /// from a fresh player) in DiscKit's bounded HDMV interpreter and lists the playlists each run
  /// starts, in order, with what went wrong on the way (invalid operands, refused commands, the
  /// step budget). Nothing is played; a run that loops ends when it repeats itself or after
  /// `stepBudget` commands.
  ///
  /// - Parameters:
  ///   - index: the disc's `index.bdmv` (`nil`: no entry points, nothing runs).
  ///   - stepBudget: the most commands one run executes; the whole disc gets twenty runs' worth
  ///     (at most 2,000,000), and runs left after that end at once with a warning.
  public func navigationRuns(index: BDMVIndex?, stepBudget: Int = 100_000) -> [(
    entry: String, playlists: [Int], warnings: [String]
  )] {
    var machine = HDMVMachine(index: index, movieObjects: self)
    machine.stepBudget = max(0, stepBudget)
    machine.exploreStepBudget = min(machine.exploreStepBudget, machine.stepBudget * 20)
    return machine.explore().map { ("\($0.entry)", $0.playlists, $0.warnings) }
  }
}
