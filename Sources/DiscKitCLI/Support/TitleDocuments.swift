import DiscKit

/// The JSON documents of `disckit titles --json`, for other targets (the HTTP server) that must
/// send the very same document. Temporary home until the documents live in the library.
public enum TitleDocuments {
  /// `disckit titles --json` of a Blu-ray (smart selection, relevant titles), with `source` as
  /// the document's `source`.
  public static func json(bluray disc: BlurayDisc, kind: DiscKind, source: String) throws -> String {
    let list = try BlurayCLI.listing(disc, selection: .smart, all: false, minLength: nil)
    let titles = list.rows.compactMap { BlurayCLI.titleJSON(disc, $0, main: list.main) }
    let errors = disc.warnings
    return try Output.json(
      BlurayCLI.ListJSON(
        source: source, kind: kind.rawValue, selection: TitleSelection.smart.rawValue,
        main: list.main, reason: list.reason, titles: titles, errors: errors.isEmpty ? nil : errors))
  }

  /// `disckit titles --json` of a DVD (smart selection, relevant titles).
  public static func json(dvd disc: DVDDisc) throws -> String {
    try Output.json(DVDCLI.listing(disc, options: try TitlesOptions.parse([])))
  }
}
