/// A branch's path from First Play, kept as data while the search runs and named (as the
/// strings of ``DVDMainFeatureSearch/Play/path``) only for the visits it records: most branches
/// record nothing new, and naming every step of every branch was most of the search's work.
extension DVDMainFeatureSearch {
  /// Where a menu was: the VM position and the GPRMs its name lists.
  struct Place {
    var domain: DVDDomain
    var titleSet: Int
    var programChain: Int
    var general: SIMD16<UInt16>
    /// The disc title (title domain only: a menu authored as a title).
    var title: Int

    init(_ vm: DVDVirtualMachine) {
      domain = vm.domain
      titleSet = vm.titleSet
      programChain = vm.programChainNumber
      general = vm.registers.gp
      title = vm.domain == .title ? vm.titleNumber ?? 0 : 0
    }

    /// "VMGM PGC 1", "VTS 2 menu PGC 3", "title 1's still (VTS 1 PGC 1)", with the non-zero
    /// GPRMs.
    var name: String {
      var text: String
      switch domain {
      case .firstPlay: text = "First Play"
      case .videoManagerMenu: text = "VMGM PGC \(programChain)"
      case .titleSetMenu: text = "VTS \(titleSet) menu PGC \(programChain)"
      case .title: text = "title \(title)'s still (VTS \(titleSet) PGC \(programChain))"
      }
      let set = (0..<16).filter { general[$0] != 0 }
      if !set.isEmpty {
        text +=
          " ("
          + TextJoin.join(set.map { "GPRM\($0) = \(general[$0])" }, separator: ", ") + ")"
      }
      return text
    }
  }

  /// One step of a path.
  enum Step {
    /// First Play ran (with the `rnd` outcomes it drew).
    case firstPlay(draws: [DVDVirtualMachine.RandomDraw])
    /// A button pressed at a menu.
    case button(place: Place, button: Int, label: String, draws: [DVDVirtualMachine.RandomDraw])
    /// A cell's commands drew `rnd` outcomes.
    case random(draws: [DVDVirtualMachine.RandomDraw])
    /// The navigation timer expired after `left` seconds of `title`, linking to SPRM 10's PGC.
    case timer(
      left: Int64, title: Int, titleSet: Int, programChain: UInt16,
      draws: [DVDVirtualMachine.RandomDraw])

    var name: String {
      switch self {
      case .firstPlay(let draws): return "First Play" + Fork.note(draws)
      case .button(let place, let button, let label, let draws):
        return "\(place.name) button \(button)\(label)\(Fork.note(draws))"
      case .random(let draws): return "rnd" + Fork.note(draws)
      case .timer(let left, let title, let titleSet, let programChain, let draws):
        return
          "navigation timer expired after \(left) s of title \(title) → SPRM 10: VTS \(titleSet) PGC \(programChain)\(Fork.note(draws))"
      }
    }
  }

  /// Every path of a search: each path is its last step and the index of the path before it
  /// (-1: none), shared by every branch forked from it.
  struct Paths {
    var steps: [Step] = []
    var parents: [Int] = []

    /// The path `parent` followed by `step`.
    mutating func append(_ parent: Int, _ step: Step) -> Int {
      steps.append(step)
      parents.append(parent)
      return steps.count - 1
    }

    /// The names of path `index`'s steps, from First Play.
    func names(_ index: Int) -> [String] {
      var chain: [Int] = []
      var node = index
      while node >= 0 && node < steps.count {
        chain.append(node)
        node = parents[node]
      }
      return chain.reversed().map { steps[$0].name }
    }
  }
}
