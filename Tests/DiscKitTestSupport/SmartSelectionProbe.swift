@_spi(Formats) import DiscKit

/// The smart selector as the selection tests drive it: over a Blu-ray folder's playlists, with
/// the index titles whose navigation plays each one.
package enum SmartSelectionProbe {
  /// The selection over the folder at `path`, and the disc it read.
  package static func select(_ path: String) throws -> (
    smart: SmartTitleSelector.Result, disc: BlurayDisc
  ) {
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: path))
    var nav: [Int: [Int]] = [:]
    for (title, reach) in disc.navigationPlaylists() {
      for pl in reach.playlists { nav[pl, default: []].append(title) }
    }
    let result = SmartTitleSelector.select(
      disc.playlists.map { .init(name: $0.name, number: $0.number, playlist: $0.playlist) },
      navigation: nav)
    return (result, disc)
  }
}
