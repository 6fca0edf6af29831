// PLACEHOLDER: replaced by the work on file systems (issue 2).
import DiscKit

/// Crosscheck of file systems (issue 2) against the C reference.
enum FileSystemCrosscheck {
  static func compare(disc: DiscImage, compareBytes: Bool = true) throws -> [String] {
    throw DiscKitError(
      .unsupported, disc.path, at: nil, "crosscheck of file systems (issue 2) is not built yet")
  }
}
