// PLACEHOLDER: replaced by the work on DVD titles (issue 6).
import DiscKit

/// Crosscheck of DVD titles (issue 6) against the C reference.
enum DVDCrosscheck {
  static func compare(disc: DiscImage, compareBytes: Bool = true) throws -> [String] {
    throw DiscKitError(
      .unsupported, disc.path, at: nil, "crosscheck of DVD titles (issue 6) is not built yet")
  }
}
