extension BlurayDisc {
  /// Playlist number → the index titles whose navigation plays it (0 = first play), from
  /// index.bdmv and MovieObject.bdmv.
  public var navigationMap: [Int: [Int]] {
    var map: [Int: [Int]] = [:]
    for (title, reach) in navigationPlaylists() {
      for playlist in reach.playlists where !(map[playlist] ?? []).contains(title) {
        map[playlist, default: []].append(title)
      }
    }
    return map
  }

  /// DiscKit's main-title choice over every playlist (see ``SmartTitleSelector``), with the
  /// reason and, for each playlist set aside, why.
  ///
  /// - Parameter minSeconds: shorter playlists are set aside unless nothing else survives.
  public func smartSelection(minSeconds: Double = 20) -> SmartTitleSelector.Result {
    SmartTitleSelector.select(
      playlists.map { .init(name: $0.name, number: $0.number, playlist: $0.playlist) },
      navigation: navigationMap, minSeconds: minSeconds)
  }

  /// The main title (``smartSelection(minSeconds:)``), opened at `angle` (0-based).
  ///
  /// - Throws: ``DiscKitError/Code/notFound`` when no playlist qualifies.
  public func mainTitle(angle: Int = 0) throws(DiscKitError) -> BlurayTitle {
    let selection = smartSelection()
    guard let main = selection.main else {
      throw DiscKitError(.notFound, "main title", at: nil, selection.reason)
    }
    return try title(playlist: main, angle: angle)
  }
}
