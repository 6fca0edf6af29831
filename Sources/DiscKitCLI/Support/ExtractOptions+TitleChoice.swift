import DiscKit

extension ExtractOptions {
  /// The title `--main`, `--title` and `--playlist` name (validation allows at most one).
  var titleChoice: TitleChoice { TitleChoice(title: title, playlist: playlist) }

  /// The title the options choose on `disc` (`--main`/`--title`/`--playlist` under `--select`),
  /// at `--angle`.
  func chosenTitle(in disc: Disc) throws(DiscKitError) -> DiscTitle {
    if let episode { return try disc.episode(episode, angle: angle) }
    return try disc.title(titleChoice, selection: select, angle: angle)
  }
}
