/// One line of `disckit titles --batch` (NDJSON): a disc's titles, or why it could not be read.
///
/// JSON Schema: `Sources/DiscKit/Documents/Schemas/titles-batch-line.schema.json`.
public struct TitlesBatchLine: Codable, Sendable, Hashable {
  /// The image or folder, as found under the batch root or given on stdin.
  public var path: String
  /// The titles document, when the disc could be read.
  public var titles: TitlesDocument?
  /// The error line, when it could not.
  public var error: String?

  /// A line for a disc that was read.
  public init(path: String, titles: TitlesDocument) {
    self.path = path
    self.titles = titles
    error = nil
  }

  /// A line for a disc that failed.
  public init(path: String, error: DiscKitError) {
    self.path = path
    titles = nil
    self.error = "\(error)"
  }
}

/// The error document of the server and of batch failures: `{"error": "..."}`.
///
/// JSON Schema: `Sources/DiscKit/Documents/Schemas/error.schema.json`.
public struct ErrorDocument: Codable, Sendable, Hashable {
  /// One line naming what failed (for a ``DiscKitError``: the structure and byte offset).
  public var error: String

  /// An error document.
  public init(error: String) { self.error = error }

  /// The document of a DiscKit error.
  public init(_ error: DiscKitError) { self.error = "\(error)" }
}
