extension BlurayDisc {
  /// The HDMV machine over this disc's `index.bdmv` and `MovieObject.bdmv` (`nil` without movie
  /// objects).
  package var hdmvMachine: HDMVMachine? {
    movieObjects.map { HDMVMachine(index: index, movieObjects: $0) }
  }

  /// First Play, the Top Menu and every index title run in the `HDMVMachine` (once per opened
  /// disc: later calls answer from ``navigationCache``).
  package func navigationRuns() -> [HDMVRun] {
    navigationCache.runs { hdmvMachine?.explore() ?? [] }
  }

  /// ``menuRuns(_:)`` of ``navigationRuns()``, once per opened disc (the main-title selection and
  /// the episode search share it).
  package func menuRuns() -> HDMVNavigationCache.MenuRuns {
    let runs = navigationRuns()
    return navigationCache.menuRuns { menuRuns(runs) }
  }

  /// Playlist number → sentences saying which run of the disc's navigation starts it, and how
  /// (a playlist number computed in a register says which register and its value).
  package static func navigationEvidence(_ runs: [HDMVRun]) -> [Int: [String]] {
    func rank(_ entry: HDMVEntry) -> Int {
      switch entry {
      case .title(let n): n
      case .firstPlay: 100_000
      case .topMenu: 100_001
      case .button: 100_002
      }
    }
    var out: [Int: [String]] = [:]
    for run in runs.sorted(by: { rank($0.entry) < rank($1.entry) }) {
      let who: String
      switch run.entry {
      case .title(let n): who = "played by index title \(n)"
      case .firstPlay: who = "played by the first-play object"
      case .topMenu: who = "played by the top menu"
      case .button: who = "played by \(run.entry)"
      }
      for reach in run.reaches {
        var text = who + " (PlayPL in \(reach.path.last.map(String.init(describing:)) ?? "?")"
        if let register = reach.operandRegister {
          text += ", number computed in \(Self.registerName(register)) = \(reach.playlist)"
        }
        text += ")"
        if !(out[reach.playlist] ?? []).contains(text) {
          out[reach.playlist, default: []].append(text)
        }
      }
    }
    return out
  }

  /// `GPR5` / `PSR6`.
  static func registerName(_ reference: UInt32) -> String {
    reference & HDMVRegisters.playerFlag != 0
      ? "PSR\(reference & 0x7F)" : "GPR\(reference & 0xFFF)"
  }

  /// The first interactive composition of the IG stream of `playlist`'s first play item, read
  /// from the clip's stream file up to the first complete ICS (see ``menu(clip:file:pid:)``).
  ///
  /// - Returns: `nil` when the playlist has no IG stream or the clip holds no complete ICS.
  /// - Throws: when the stream file cannot be read or the ICS is malformed.
  package func menuComposition(playlist number: Int) throws(DiscKitError) -> InteractiveComposition?
  {
    guard let read = menu(playlist: number) else { return nil }
    if let error = read.error { throw error }
    return read.composition
  }

  /// The menu of `playlist`'s first play item (``menu(clip:file:pid:)`` of its clip and first IG
  /// stream); `nil` when the playlist has no IG stream.
  package func menu(playlist number: Int) -> IGMenuRead? {
    guard let playlist = playlistFile(number: number)?.playlist,
      let item = playlist.playItems.first,
      let stream = item.streams.interactiveGraphics.first
    else { return nil }
    return menu(clip: item.clip.clipID, file: item.clip.streamFileName, pid: stream.pid)
  }

  /// The first complete interactive composition of IG PID `pid` in clip `clip`'s stream file
  /// (`file` in `BDMV/STREAM`, by default `<clip>.m2ts`), read once per disc (later calls answer from ``menus``).
  ///
  /// The file is read from its start in whole aligned units (``IGStreamReader/firstRead``, then
  /// ``IGStreamReader/laterRead`` at a time) until the composition is complete; a read holding
  /// no transport packet (a placeholder or an unwritten, sparse stretch) or
  /// ``IGStreamReader/scanLimit`` bytes end the search without a menu.
  package func menu(clip: String, file: String? = nil, pid: UInt16) -> IGMenuRead {
    menus.read(clip: clip, pid: pid) { known in
      var read = IGMenuRead(clip: clip, pid: pid, bytesRead: 0)
      let path = "/BDMV/STREAM/" + (file ?? clip + ".m2ts")
      do throws(DiscKitError) {
        let source = try fileSystem.openFile(atPath: path)
        let end = min(source.size, Int64(IGStreamReader.scanLimit))
        // The first read's size first (most menus are complete in it; a buffer below malloc's
        // mmap threshold is reused from one clip to the next instead of mapped and faulted in
        // again), the later reads' size when they are needed.
        var buffer = UnsafeMutableRawBufferPointer.allocate(
          byteCount: IGStreamReader.firstRead, alignment: 16)
        defer { buffer.deallocate() }
        var scanner = IGCompositionScanner(pid: pid, name: path)
        scanner.known = known
        var offset: Int64 = 0
        while offset < end {
          let want = Int(
            min(
              Int64(offset == 0 ? IGStreamReader.firstRead : IGStreamReader.laterRead),
              end - offset))
          if want > buffer.count {
            buffer.deallocate()
            buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: want, alignment: 16)
          }
          let got = try source.readFully(
            at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
          read.bytesRead += Int64(got)
          if try scanner.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<got])) { break }
          if got < want || scanner.packetsInLastFeed == 0 { break }
          offset += Int64(got)
        }
        read.composition = scanner.composition
        if let composition = scanner.composition {
          known.remember(scanner.compositionFragments, composition)
        }
      } catch {
        read.error = error
      }
      return read
    }
  }

  /// The menus the navigation shows and where their buttons lead: for every playlist started by
  /// a run that carries an IG stream, each button's commands run from the state the menu was
  /// entered with. `menus` lists each clip's menu read (once per clip, in the order first asked).
  package func menuRuns(_ runs: [HDMVRun]) -> (
    runs: [HDMVRun], warnings: [String], menus: [IGMenuRead]
  ) {
    guard let machine = hdmvMachine else { return ([], [], []) }
    var warnings: [String] = []
    var reads: [IGMenuRead] = []
    var done = Set<Int>()
    // The menus first, then their buttons, into an array sized once (a run is a large value:
    // regrowing the array copies them all and faults in fresh pages).
    var shown: [(reach: PlaylistReach, composition: InteractiveComposition)] = []
    var buttons = 0
    for run in runs {
      for reach in run.reaches where done.insert(reach.playlist).inserted {
        guard let read = menu(playlist: reach.playlist) else { continue }
        if !reads.contains(where: { $0.clip == read.clip && $0.pid == read.pid }) {
          reads.append(read)
        }
        if let error = read.error {
          warnings.append("menu of playlist \(reach.playlist): \(error)")
          continue
        }
        guard let composition = read.composition else { continue }
        shown.append((reach, composition))
        buttons += composition.buttonCount
      }
    }
    var out: [HDMVRun] = []
    out.reserveCapacity(buttons)
    var memo = HDMVMachine.ButtonMemo()
    memo.reserveCapacity(buttons)
    for (reach, composition) in shown {
      let group = memo.group(for: reach.state)
      for page in composition.pages {
        for overlap in page.groups {
          for button in overlap.buttons {
            machine.appendButtonRun(
              button.commands, page: Int(page.id), button: Int(button.id), menu: reach,
              memo: &memo, group: group, to: &out)
          }
        }
      }
    }
    return (out, warnings, reads)
  }

  /// Playlist number → sentences naming the menu buttons that lead to it.
  package static func menuEvidence(_ runs: [HDMVRun]) -> [Int: [String]] {
    var out: [Int: [String]] = [:]
    for run in runs {
      for playlist in run.playlists {
        let text = "\(run.entry) leads to it"
        if !(out[playlist] ?? []).contains(text) { out[playlist, default: []].append(text) }
      }
    }
    return out
  }
}
