extension BlurayDisc {
  /// Playlist number → the index titles whose navigation plays it (0 = first play), from
  /// index.bdmv and MovieObject.bdmv run in the `HDMVMachine` (First Play and every index
  /// title; playlists the Top Menu starts are not listed here).
  public var navigationMap: [Int: [Int]] {
    Self.navigationMap(navigationRuns())
  }

  package static func navigationMap(_ runs: [HDMVRun]) -> [Int: [Int]] {
    var map: [Int: [Int]] = [:]
    for run in runs {
      let title: Int
      switch run.entry {
      case .firstPlay: title = 0
      case .title(let n): title = n
      default: continue
      }
      for playlist in run.playlists where !(map[playlist] ?? []).contains(title) {
        map[playlist, default: []].append(title)
      }
    }
    return map
  }

  /// The disc's own evidence but its menus: navigation (the `HDMVMachine` runs), the clips
  /// present, the bytes each playlist plays against the stream files' (when every clip's stream
  /// file is there), and `named` evidence supplied by the caller. The menus are read by
  /// ``smartSelection(minSeconds:named:runs:relaxMinimum:)`` when they can change the answer.
  package func selectionEvidence(named: [TitleEvidence], runs: [HDMVRun])
    -> SmartTitleSelector.Evidence
  {
    var available = Set<String>()
    for (id, info) in clips { if case .success = info { available.insert(id) } }
    var evidence = SmartTitleSelector.Evidence(
      named: named, navigation: Self.navigationEvidence(runs), availableClips: available)
    // The capacity is known when the disc has the stream file of every clip it describes.
    let streams = ((try? fileSystem.contentsOfDirectory(atPath: "/BDMV/STREAM")) ?? []).filter {
      !$0.isDirectory
    }
    let names = Set(streams.map { $0.name.uppercased() })
    let complete = !available.isEmpty && available.allSatisfy { names.contains("\($0).M2TS") }
    let capacity = streams.reduce(Int64(0)) { $0 + max(0, $1.size) }
    if complete && capacity > 0 {
      evidence.capacityBytes = capacity
      for file in playlists {
        guard let playlist = file.playlist,
          let title = try? BlurayTitle(disc: self, name: file.name, playlist: playlist, angle: 0)
        else { continue }
        evidence.playlistBytes[file.number] = title.size
      }
    }
    return evidence
  }

  /// Playlist number → how early the disc's default navigation reaches it (see
  /// ``SmartTitleSelector/Evidence/defaultOrder``): 0 First Play's run (what it jumps to
  /// included), `n` index title `n`'s, 100,000 the Top Menu's.
  package static func defaultOrder(_ runs: [HDMVRun]) -> [Int: Int] {
    var order: [Int: Int] = [:]
    for run in runs {
      let rank: Int
      switch run.entry {
      case .firstPlay: rank = 0
      case .title(let n): rank = n
      case .topMenu: rank = 100_000
      case .button: continue
      }
      for playlist in run.playlists { order[playlist] = min(order[playlist] ?? Int.max, rank) }
    }
    return order
  }

  /// DiscKit's main-title choice over every playlist (see ``SmartTitleSelector``), with the
  /// reason and, for each playlist set aside, why.
  ///
  /// The disc's own evidence: named evidence (by default what ``namedEvidence(limits:)`` finds in
  /// the disc's BD-J programs and project files), navigation (the `HDMVMachine` runs), menus (IG
  /// buttons run from their menu's state), the clips present. The menus are read from the
  /// stream files only when they can change the answer (``SmartTitleSelector/select(_:navigation:evidence:minSeconds:relaxMinimum:menus:)``),
  /// each clip's once, up to its first complete ICS; ``SmartTitleSelector/Result/menuReads``
  /// says which were read.
  ///
  /// - Parameters:
  ///   - minSeconds: shorter playlists are set aside unless nothing else survives.
  ///   - named: named evidence (``TitleEvidence/Kind/bdj``, ``TitleEvidence/Kind/projectFile``,
  ///     keyed by playlist: `00800`), trusted before the navigation.
  ///   - runs: the navigation's runs, when already made (``navigationRuns()``).
  ///   - relaxMinimum: see ``SmartTitleSelector/select(_:navigation:evidence:minSeconds:relaxMinimum:menus:)``.
  package func smartSelection(
    minSeconds: Double = 20, named: [TitleEvidence]? = nil, runs: [HDMVRun]? = nil,
    relaxMinimum: Bool = true
  ) -> SmartTitleSelector.Result {
    let own = runs == nil
    let runs = runs ?? navigationRuns()
    var evidence = selectionEvidence(
      named: named ?? namedEvidence().titleEvidence(), runs: runs)
    evidence.defaultOrder = Self.defaultOrder(runs)
    var reads: [IGMenuRead] = []
    var result = SmartTitleSelector.select(
      playlists.map { .init(name: $0.name, number: $0.number, playlist: $0.playlist) },
      navigation: Self.navigationMap(runs), evidence: evidence, minSeconds: minSeconds,
      relaxMinimum: relaxMinimum,
      menus: {
        let menus = own ? menuRuns() : menuRuns(runs)
        reads = menus.menus
        return Self.menuEvidence(menus.runs)
      })
    result.menuReads = reads
    return result
  }

  /// The main title (``smartSelection(minSeconds:)``), opened at `angle` (0-based).
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` when no playlist qualifies.
  package func mainTitle(angle: Int = 0) throws(DiscKitError) -> BlurayTitle {
    let selection = smartSelection()
    guard let main = selection.main else {
      throw DiscKitError(.notFound, "main title", at: nil, selection.reason)
    }
    return try title(playlist: main, angle: angle)
  }
}
