import ArgumentParser
import DiscKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `disckit titles` was asked to do, independent of how the command line was parsed
/// (``TitlesCommand`` through ArgumentParser, or ``FastCommandLine``).
package struct TitlesRequest: Equatable, Sendable {
  /// The disc image or folder (nil with `--batch`).
  package var image: String?
  /// `--all`.
  package var all = false
  /// `--select`.
  package var select: TitleSelection = .smart
  /// `--min-length SECONDS`.
  package var minLength: Double?
  /// `--json`.
  package var json = false
  /// `--batch ROOT|-`.
  package var batch: String?
  /// `--jobs N`.
  package var jobs: Int = BatchRunner.defaultWidth
  /// `--follow-links`: with `--batch ROOT`, follow symbolic links that leave ROOT too.
  package var followLinks = false

  package init() {}

  /// Why these options cannot run together (the usage error ArgumentParser reports), or nil.
  package var validationFailure: String? {
    if (image == nil) == (batch == nil) { return "give either IMAGE or --batch ROOT|-" }
    if jobs < 1 { return "--jobs must be at least 1" }
    if followLinks && batch == nil { return "--follow-links goes with --batch ROOT" }
    return nil
  }

  /// The titles document these options ask for.
  func document(for disc: Disc) throws(DiscKitError) -> TitlesDocument {
    try TitlesDocument(
      disc: disc, selection: select, includeExcluded: all,
      minimumLength: minLength.map { MediaTime(seconds: $0) })
  }

  /// Runs the command: prints the titles (or the batch lines); throws `ExitCode` on failure.
  ///
  /// - Parameter exitAfterOutput: end the process (status 0) once the titles are written, the
  ///   disc still alive: tearing down its parse trees, menus and navigation runs would cost
  ///   4 % of a listing's instructions (callgrind) for memory the kernel reclaims at once.
  package func run(exitAfterOutput: Bool = false) throws {
    if let root = batch { return try runBatch(root: root) }
    try reportingErrors {
      guard let image else { return }
      let disc = try Disc(image: try DiscImage.open(path: image))
      let document = try document(for: disc)
      if json {
        Output.line(try Output.json(document))
      } else {
        for line in TitlesText.lines(document) { Output.line(line) }
      }
      if exitAfterOutput {
        withExtendedLifetime((disc, document)) { exit(0) }
      }
    }
  }

  /// `--batch`: kept out of line, so that a single disc's run never instantiates the
  /// concurrency types (`Task`, `TaskPriority`) the batch runner uses.
  @inline(never)
  private func runBatch(root: String) throws {
    var failures = 0
    let request = self
    try reportingErrors {
      failures = try BatchRunner.run(
        root: root, followLinks: followLinks, width: jobs, label: "titles") { path in
        BatchRunner.line(
          path: path,
          work: { path throws(DiscKitError) in
            try request.document(for: try Disc(image: try DiscImage.open(path: path)))
          },
          success: { TitlesBatchLine(path: path, titles: $0) },
          failure: { TitlesBatchLine(path: path, error: $0) })
      }
    }
    if failures > 0 { throw ExitCode.failure }
  }
}
