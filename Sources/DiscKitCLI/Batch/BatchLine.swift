import DiscKit

/// One line of `--batch` output (NDJSON): `{"path":..., "titles":...}` (or `"scan"`), or
/// `{"path":..., "error":{...}}` when that disc could not be read.
package struct BatchLine<Document: Encodable>: Encodable {
  /// The failure of one disc.
  package struct Failure: Encodable, Sendable {
    /// The ``DiscKitError`` code (`malformed`, `cannotOpen`, `unsupported`...).
    package var code: String
    /// The structure being read.
    package var structure: String
    /// The byte offset of the problem, when it concerns bytes.
    package var offset: Int64?
    /// The whole one-line message, as `disckit` prints it on stderr.
    package var message: String

    package init(_ error: DiscKitError) {
      code = error.code.description
      structure = error.structure
      offset = error.offset
      message = error.description
    }
  }

  /// The image or folder, as found or given.
  package var path: String
  /// The key of the document (`titles` or `scan`).
  package var key: String
  /// The document, when the disc was read.
  package var document: Document?
  /// Why the disc could not be read.
  package var error: Failure?

  package init(path: String, key: String, document: Document?, error: Failure?) {
    self.path = path
    self.key = key
    self.document = document
    self.error = error
  }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(path, forKey: Key("path"))
    if let document { try container.encode(document, forKey: Key(key)) }
    if let error { try container.encode(error, forKey: Key("error")) }
  }
}
