// PLACEHOLDER: replaced by the DVD navigation work (issue 6).
import DiscKit

/// The DVD side of `disckit titles` and `disckit extract`.
enum DVDCLI {
  static func titles(disc: DiscImage, options: TitlesOptions) throws {
    throw DiscKitError(.unsupported, disc.path, at: nil, "DVD titles are not built yet")
  }

  static func extract(disc: DiscImage, options: ExtractOptions) throws {
    throw DiscKitError(.unsupported, disc.path, at: nil, "DVD extraction is not built yet")
  }
}
