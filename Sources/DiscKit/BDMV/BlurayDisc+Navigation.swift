extension BlurayDisc {
  /// The HDMV machine over this disc's `index.bdmv` and `MovieObject.bdmv` (`nil` without movie
  /// objects).
  package var hdmvMachine: HDMVMachine? {
    movieObjects.map { HDMVMachine(index: index, movieObjects: $0) }
  }

  /// First Play, the Top Menu and every index title run in the `HDMVMachine`.
  package func navigationRuns() -> [HDMVRun] {
    hdmvMachine?.explore() ?? []
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
  /// from the clip's stream file (its first ``IGStreamReader/scanLimit`` bytes).
  ///
  /// - Returns: `nil` when the playlist has no IG stream or the clip holds no complete ICS.
  /// - Throws: when the stream file cannot be read or the ICS is malformed.
  package func menuComposition(playlist number: Int) throws(DiscKitError) -> InteractiveComposition?
  {
    guard let playlist = playlistFile(number: number)?.playlist,
      let item = playlist.playItems.first,
      let stream = item.streams.interactiveGraphics.first
    else { return nil }
    let path = "/BDMV/STREAM/" + item.clip.streamFileName
    let source = try fileSystem.openFile(atPath: path)
    let count = Int(min(source.size, Int64(IGStreamReader.scanLimit)))
    let bytes = [UInt8](try source.bytes(at: 0, count: count, structure: path))
    let es = IGStreamReader.elementaryStream(bytes, pid: stream.pid)
    return try IGStreamReader.firstComposition(inElementaryStream: es, name: path)
  }

  /// The menus the navigation shows and where their buttons lead: for every playlist started by
  /// a run that carries an IG stream, each button's commands run from the state the menu was
  /// entered with.
  package func menuRuns(_ runs: [HDMVRun]) -> (runs: [HDMVRun], warnings: [String]) {
    guard let machine = hdmvMachine else { return ([], []) }
    var out: [HDMVRun] = []
    var warnings: [String] = []
    var done = Set<Int>()
    for run in runs {
      for reach in run.reaches where done.insert(reach.playlist).inserted {
        let composition: InteractiveComposition?
        do {
          composition = try menuComposition(playlist: reach.playlist)
        } catch {
          warnings.append("menu of playlist \(reach.playlist): \(error)")
          continue
        }
        guard let composition else { continue }
        for (page, button) in composition.buttons {
          out.append(
            machine.runButton(
              button.commands, page: Int(page.id), button: Int(button.id), menu: reach))
        }
      }
    }
    return (out, warnings)
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
