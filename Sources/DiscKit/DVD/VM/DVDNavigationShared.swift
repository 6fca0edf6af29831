import Synchronization

/// What the runs of a DVD's navigation share on one opened disc (the main-feature search, the
/// episode walk, a title's menu path): the VM program, built once, the menu search with the
/// default limits (one walk for the main title and the episodes), and the button groups of
/// every navigation pack read, each pack read and parsed once (with the warning its read gave).
package final class DVDNavigationShared: Sendable {
  /// Button groups read from a navigation pack, or the warning of a read that failed.
  struct Buttons: Sendable {
    var groups: [DVDHighlightInformation.ButtonGroup]
    var warning: String?
  }

  private let program = Mutex<DVDVirtualMachineProgram?>(nil)
  private let vobSectors = Mutex<[Int: Int64]>([:])
  private let searched = Mutex<DVDMainFeatureSearch.Result?>(nil)
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

  /// The menu search of `disc` with the default limits, run the first time: the main-title
  /// choice and the episode search read the same walk.
  func search(_ disc: DVDDisc) -> DVDMainFeatureSearch.Result {
    if let known = searched.withLock({ $0 }) { return known }
    let made = DVDMainFeatureSearch.run(disc)
    searched.withLock { $0 = made }
    return made
  }

  /// The size in sectors of title set `titleSet`'s title VOBs (0 when they are absent: an IFO
  /// set without VOBs), looked up once per opened disc.
  func titleVOBSectors(_ disc: DVDDisc, _ titleSet: Int) -> Int64 {
    if let known = vobSectors.withLock({ $0[titleSet] }) { return known }
    let size = ((try? disc.titleVOBs(titleSet: titleSet))?.size ?? 0) / 2048
    vobSectors.withLock { $0[titleSet] = size }
    return size
  }

  /// The groups read at `key` (``DVDMenuButtonReader``'s key), when read before.
  func buttons(_ key: Int64) -> Buttons? { buttons.withLock { $0[key] } }

  func store(_ key: Int64, _ value: Buttons) { buttons.withLock { $0[key] = value } }
}
