import Synchronization

/// A disc's navigation runs and menu-button runs, each computed at most once per opened disc:
/// the main-title selection and the episode search ask for the same runs (issue 29), and a
/// server asks again for every request. Lock-protected like ``IGMenuCache``: a ``BlurayDisc``
/// value is shared by any number of tasks; concurrent first requests wait for one computation.
package final class HDMVNavigationCache: Sendable {
  /// What ``BlurayDisc/menuRuns(_:)`` gives.
  package typealias MenuRuns = (runs: [HDMVRun], warnings: [String], menus: [IGMenuRead])

  private struct State {
    var runs: [HDMVRun]?
    var menuRuns: MenuRuns?
  }
  private let state = Mutex<State>(State())

  package init() {}

  /// The navigation runs, made by `make` the first time.
  package func runs(_ make: () -> [HDMVRun]) -> [HDMVRun] {
    state.withLock { state in
      if let done = state.runs { return done }
      let done = make()
      state.runs = done
      return done
    }
  }

  /// The menu-button runs of the navigation runs, made by `make` the first time.
  package func menuRuns(_ make: () -> MenuRuns) -> MenuRuns {
    state.withLock { state in
      if let done = state.menuRuns { return done }
      let done = make()
      state.menuRuns = done
      return done
    }
  }
}
