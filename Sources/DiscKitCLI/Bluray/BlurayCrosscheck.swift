// PLACEHOLDER: replaced by the work on Blu-ray titles (issue 4).
import DiscKit

/// Crosscheck of Blu-ray titles (issue 4) against the C reference.
enum BlurayCrosscheck {
  static func compare(disc: DiscImage, compareBytes: Bool = true) throws -> [String] {
    throw DiscKitError(
      .unsupported, disc.path, at: nil, "crosscheck of Blu-ray titles (issue 4) is not built yet")
  }
}
