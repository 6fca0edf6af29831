import DiscKit

/// The document `disckit titles --json` prints for one disc (and each `--batch` line carries).
enum TitlesDocument: Encodable, Sendable {
  /// A Blu-ray (or UHD Blu-ray, AVCHD) title list.
  case bluray(BlurayCLI.ListJSON)
  /// A DVD title list.
  case dvd(DVDCLI.Listing)

  /// Reads the titles of `disc`.
  ///
  /// - Throws: ``DiscKitError/Code/unsupported`` for a disc that is neither a Blu-ray nor a DVD,
  ///   or the error of the navigation files.
  static func make(disc: DiscImage, options: TitlesOptions) throws -> TitlesDocument {
    switch disc.kind {
    case .bluray, .uhdBluray, .avchd: .bluray(try BlurayCLI.document(disc: disc, options: options))
    case .dvd: .dvd(try DVDCLI.document(disc: disc, options: options))
    case .data:
      throw DiscKitError(
        .unsupported, disc.path, at: nil,
        "neither BDMV/index.bdmv nor VIDEO_TS/VIDEO_TS.IFO found")
    }
  }

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .bluray(let document): try document.encode(to: encoder)
    case .dvd(let document): try document.encode(to: encoder)
    }
  }
}
