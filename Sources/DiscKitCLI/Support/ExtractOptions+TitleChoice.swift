import DiscKit

extension ExtractOptions {
  /// The title `--main`, `--title` and `--playlist` name (validation allows at most one).
  var titleChoice: TitleChoice { TitleChoice(title: title, playlist: playlist) }
}
