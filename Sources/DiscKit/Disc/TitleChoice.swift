/// Which title a user asks for: what `disckit extract` and `disckit scan` take as `--main`,
/// `--title N` and `--playlist P`.
package enum TitleChoice: Sendable, Hashable {
  /// The main title the selection chooses.
  case main
  /// Title N as `disckit titles` numbers it: on a Blu-ray the selection's list numbering, on a
  /// DVD the disc's own title number.
  case number(Int)
  /// A Blu-ray playlist named as a user types it: a file name (`00800.mpls`, any case) or a
  /// number (`00800`, `800`; the leading digits count).
  case playlist(String)

  /// The choice of the usual three options (at most one is set; none means the main title).
  package init(title: Int?, playlist: String?) {
    if let playlist {
      self = .playlist(playlist)
    } else if let title {
      self = .number(title)
    } else {
      self = .main
    }
  }
}

extension BlurayDisc {
  /// The playlist a user names: the file `text` (any case), else the playlist whose number is
  /// the leading digits of `text`.
  package func playlistFile(matching text: String) -> PlaylistFile? {
    playlistFile(named: text) ?? playlistFile(number: Int(text.prefix(while: \.isNumber)) ?? -1)
  }

  /// The title `choice` names, read at `angle` (0-based, like ``title(playlist:angle:)``).
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` for an unknown playlist or title number, or a disc
  ///   without titles; parse errors of the playlist.
  package func title(
    _ choice: TitleChoice, selection: TitleSelection = .smart, angle: Int = 0
  ) throws(DiscKitError) -> BlurayTitle {
    if case .playlist(let text) = choice {
      guard let file = playlistFile(matching: text) else {
        throw DiscKitError(.notFound, "playlist \(text)", at: nil, "no such playlist on the disc")
      }
      return try title(playlist: file.name, angle: angle)
    }
    let list = try TitleList(bluray: self, selection: selection)
    if case .number(let n) = choice {
      guard let entry = list.entries.first(where: { $0.number == n }) else {
        throw DiscKitError(.notFound, "title \(n)", at: nil, "no such title in the title list")
      }
      return try title(playlist: entry.key + ".mpls", angle: angle)
    }
    guard let main = list.mainKey else {
      throw DiscKitError(.notFound, "main title", at: nil, "the disc has no titles")
    }
    return try title(playlist: main + ".mpls", angle: angle)
  }
}

extension DVDDisc {
  /// The title number `choice` names (not checked against the disc: opening it does that), or
  /// `nil` when the choice is the main title and the selection finds none.
  ///
  /// - Throws: ``DiscKitError/Code/invalidArgument`` for ``TitleChoice/playlist(_:)``.
  package func titleNumber(_ choice: TitleChoice, selection: TitleSelection = .smart)
    throws(DiscKitError) -> Int?
  {
    switch choice {
    case .number(let n): return n
    case .playlist:
      throw DiscKitError(.invalidArgument, "playlist", at: nil, "a DVD has titles, not playlists")
    case .main: return TitleList(dvd: self, selection: selection).mainKey.flatMap { Int($0) }
    }
  }
}

extension Disc {
  /// The title `choice` names, opened at `angle` (1-based), numbered as `disckit titles`
  /// numbers it when it is listed.
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` for an unknown playlist or title, or a disc
  ///   without a main title; ``DiscKitError/Code/invalidArgument`` for a playlist on a DVD or an
  ///   angle the title does not have.
  package func title(_ choice: TitleChoice, selection: TitleSelection = .smart, angle: Int = 1)
    throws(DiscKitError) -> DiscTitle
  {
    switch choice {
    case .main:
      return try mainTitle(selection: selection, angle: angle)
    case .number(let n):
      if case .dvd = navigation { return try title(key: String(n), angle: angle).numbered(n) }
      return try title(number: n, selection: selection, angle: angle)
    case .playlist(let text):
      guard case .bluray(let bluray) = navigation else {
        throw DiscKitError(.invalidArgument, "playlist", at: nil, "a DVD has titles, not playlists")
      }
      guard let file = bluray.playlistFile(matching: text) else {
        throw DiscKitError(.notFound, "playlist \(text)", at: nil, "no such playlist on the disc")
      }
      return try title(key: Disc.key(ofPlaylist: file.name), angle: angle)
    }
  }
}
