import Synchronization

/// What the runs of a DVD's navigation share on one opened disc (the main-feature search, the
/// episode walk, a title's menu path): the VM program, built once, and the button groups of
/// every navigation pack read, each pack read and parsed once (with the warning its read gave).
package final class DVDNavigationShared: Sendable {
  /// Button groups read from a navigation pack, or the warning of a read that failed.
  struct Buttons: Sendable {
    var groups: [DVDHighlightInformation.ButtonGroup]
    var warning: String?
  }

  private let program = Mutex<DVDVirtualMachineProgram?>(nil)
  private let buttons = Mutex<[Int64: Buttons]>([:])

  package init() {}

  /// The VM program of `disc`, built the first time.
  func program(_ disc: DVDDisc) -> DVDVirtualMachineProgram {
    program.withLock { known in
      if let known { return known }
      let made = DVDVirtualMachineProgram(disc: disc)
      known = made
      return made
    }
  }

  /// The groups read at `key` (``DVDMenuButtonReader``'s key), when read before.
  func buttons(_ key: Int64) -> Buttons? { buttons.withLock { $0[key] } }

  func store(_ key: Int64, _ value: Buttons) { buttons.withLock { $0[key] = value } }
}
