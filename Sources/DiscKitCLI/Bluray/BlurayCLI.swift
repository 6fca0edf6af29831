// PLACEHOLDER: replaced by the Blu-ray navigation work (issue 4).
import DiscKit

/// The Blu-ray side of `disckit titles` and `disckit extract`.
enum BlurayCLI {
  static func titles(disc: DiscImage, options: TitlesOptions) throws {
    throw DiscKitError(.unsupported, disc.path, at: nil, "Blu-ray titles are not built yet")
  }

  static func extract(disc: DiscImage, options: ExtractOptions) throws {
    throw DiscKitError(.unsupported, disc.path, at: nil, "Blu-ray extraction is not built yet")
  }
}
