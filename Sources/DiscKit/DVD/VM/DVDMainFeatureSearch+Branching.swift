/// The search's branching beyond button presses: every outcome of a small `rnd`, the button
/// groups of other display modes, and navigation timer expiries.
extension DVDMainFeatureSearch {
  /// `rnd` 1…N with N up to this is explored outcome by outcome; a larger N is sampled (one
  /// fixed-seed draw) with a warning.
  public static let enumeratedRandomBound = 16
  /// At most this many `rnd` outcomes are explored from one step (one First Play, button press
  /// or cell); past it the remaining draws are sampled, with a warning.
  public static let randomOutcomesPerStep = 64

  /// One outcome of a VM step.
  package struct Fork {
    package var vm: DVDVirtualMachine
    /// What the step's closure returned (a button press: whether it linked).
    package var linked: Bool
    /// The `rnd` operations the step ran (empty without `rnd`).
    package var draws: [DVDVirtualMachine.RandomDraw]
    /// The `rnd` outcomes taken, for the path (empty without `rnd`).
    package var note: String { Self.note(draws) }

    /// " (rnd GPRM1 = 4 of 1…4, …)", empty for no draws.
    static func note(_ draws: [DVDVirtualMachine.RandomDraw]) -> String {
      draws.isEmpty
        ? ""
        : " ("
          + TextJoin.join(
            draws.map { "rnd GPRM\($0.register) = \($0.value) of 1…\($0.bound)" },
            separator: ", ") + ")"
    }
  }

  /// Runs `step` on a copy of `vm` once per combination of `rnd` outcomes it meets: every
  /// outcome of an `rnd` 1…N with N ≤ ``enumeratedRandomBound``, one seeded draw of a larger
  /// one. Deterministic: the VM is a value and a plan of outcomes fixes every draw. Without
  /// `rnd` this is one run. Every run takes its commands from `budget` (the search's, shared by
  /// all branches); when it is spent no more outcomes are explored.
  package static func explore(
    _ vm: DVDVirtualMachine, budget: inout Int, warnings: inout [String],
    _ step: (inout DVDVirtualMachine) -> Bool
  ) -> [Fork] {
    var sampled: Set<Int> = []
    return explore(vm, budget: &budget, warnings: &warnings, sampled: &sampled, step)
  }

  /// The first run ``explore(_:budget:warnings:_:)`` makes, alone: `step` on a copy of `vm`
  /// with no planned outcomes, its commands taken from `budget`. When it draws no `rnd` that run
  /// is every outcome (explore's one fork, without the list) and it is returned; when it draws
  /// one, `nil` and nothing taken from `budget` (explore runs it again, outcome by outcome: the
  /// VM is a value and the runs are deterministic).
  static func single(
    _ vm: DVDVirtualMachine, budget: inout Int, _ step: (inout DVDVirtualMachine) -> Bool
  ) -> (vm: DVDVirtualMachine, linked: Bool)? {
    var copy = vm
    copy.plannedDraws = []
    copy.drawLog = []
    copy.commandsLeft = min(copy.commandsLeft, max(0, budget))
    let allowance = copy.commandsLeft
    let linked = step(&copy)
    guard copy.drawLog.isEmpty else { return nil }
    budget -= allowance - copy.commandsLeft
    return (copy, linked)
  }

  /// ``explore(_:budget:warnings:_:)`` with the sampling warnings already given recorded in
  /// `sampled` (so that a search names each once without building its text again).
  static func explore(
    _ vm: DVDVirtualMachine, budget: inout Int, warnings: inout [String],
    sampled: inout Set<Int>, _ step: (inout DVDVirtualMachine) -> Bool
  ) -> [Fork] {
    var forks: [Fork] = []
    // The plans still to run, last first; the first run's (no planned outcomes) is kept apart
    // so that a step without `rnd` (nearly every one) allocates no list of plans.
    var plans: [[UInt16]] = []
    var firstPlan: [UInt16]? = []
    var runs = 0
    func warn(_ kind: Int, _ draw: DVDVirtualMachine.RandomDraw, _ text: () -> String) {
      guard sampled.insert(kind << 40 ^ draw.register << 20 ^ (draw.bound & 0xFFFFF)).inserted
      else { return }
      let note = text()
      if !warnings.contains(note) { warnings.append(note) }
    }
    while let plan = firstPlan ?? plans.popLast() {
      firstPlan = nil
      if runs > 0 && budget <= 0 {
        let note = "the search's command budget ran out; rnd outcomes were left unexplored"
        if !warnings.contains(note) { warnings.append(note) }
        break
      }
      runs += 1
      var copy = vm
      copy.plannedDraws = plan
      copy.drawLog = []
      copy.commandsLeft = min(copy.commandsLeft, max(0, budget))
      let allowance = copy.commandsLeft
      let linked = step(&copy)
      budget -= allowance - copy.commandsLeft
      let log = copy.drawLog
      var extended = plan
      var split = false
      for draw in log.dropFirst(plan.count) {
        if draw.bound <= enumeratedRandomBound {
          if runs + plans.count + draw.bound <= randomOutcomesPerStep {
            for value in stride(from: draw.bound, through: 1, by: -1) {
              plans.append(extended + [UInt16(value)])
            }
            split = true
            break
          }
          warn(1, draw) {
            "more than \(randomOutcomesPerStep) rnd outcomes from one step; GPRM\(draw.register) = rnd 1…\(draw.bound) was sampled"
          }
        } else {
          warn(2, draw) {
            "GPRM\(draw.register) = rnd 1…\(draw.bound) was sampled (one fixed-seed draw each time it runs), not explored: over \(enumeratedRandomBound) outcomes"
          }
        }
        extended.append(UInt16(draw.value))
      }
      if split && budget > 0 { continue }
      forks.append(Fork(vm: copy, linked: linked, draws: log))
    }
    return forks
  }

  /// A button to press and how the path names its group.
  package struct Press {
    package var button: DVDButton
    package var label: String
  }

  /// The buttons to press at a menu cell: those of the group a player in `display` (SPRM 14)
  /// shows, then the buttons of the other groups whose command differs from the shown group's
  /// button of the same number (a player in another display mode would run them).
  package static func presses(_ groups: [DVDHighlightInformation.ButtonGroup], display: UInt16)
    -> [Press]
  {
    guard !groups.isEmpty else { return [] }
    let shown = shownGroup(groups, display: display)
    var extra: [(group: Int, button: DVDButton)] = []
    for (index, group) in groups.enumerated() where index != shown {
      for button in group.buttons {
        let twin = groups[shown].buttons.first { $0.number == button.number }
        if twin?.command != button.command { extra.append((index, button)) }
      }
    }
    // Groups that only move the rectangles (dvdauthor writes three such for a 16:9 menu) are
    // not named in the path.
    func name(_ index: Int) -> String {
      extra.isEmpty ? "" : " (group \(index + 1), \(displayName(groups[index].displayType)))"
    }
    return groups[shown].buttons.map { Press(button: $0, label: name(shown)) }
      + extra.map { Press(button: $0.button, label: name($0.group)) }
  }

  /// The group a player shows for SPRM 14 `display` (bits 11-10: TV aspect, 3 = 16:9; bits 9-8:
  /// 0 normal, 1 pan & scan, 2 letterbox): on a 16:9 TV the wide group; on a 4:3 TV the group of
  /// the preferred mode, else the other 4:3 mode; else a normal (4:3) group; else the first.
  package static func shownGroup(_ groups: [DVDHighlightInformation.ButtonGroup], display: UInt16)
    -> Int
  {
    let wide = 1
    let letterbox = 2
    let panScan = 4
    let wanted: [Int]
    if display >> 10 & 3 == 3 {
      wanted = [wide]
    } else if display >> 8 & 3 == 1 {
      wanted = [panScan, letterbox]
    } else {
      wanted = [letterbox, panScan]
    }
    for bit in wanted {
      if let index = groups.firstIndex(where: { $0.displayType & bit != 0 }) { return index }
    }
    return groups.firstIndex { $0.displayType == 0 } ?? 0
  }

  /// "4:3", "wide", "letterbox", "pan & scan" (or several).
  static func displayName(_ type: Int) -> String {
    guard type != 0 else { return "4:3" }
    var names: [String] = []
    if type & 1 != 0 { names.append("wide") }
    if type & 2 != 0 { names.append("letterbox") }
    if type & 4 != 0 { names.append("pan & scan") }
    return TextJoin.join(names, separator: "/")
  }
}
