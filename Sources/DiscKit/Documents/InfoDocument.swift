/// The document `disckit info --json` prints and `GET /discs/{id}` serves: the file system, UDF
/// revision, volume label, size and disc kind of an image or folder.
///
/// JSON Schema: `Sources/DiscKit/Documents/Schemas/info.schema.json`.
public struct InfoDocument: Codable, Sendable, Hashable {
  /// The path as given.
  public var path: String
  /// `udf`, `iso9660` or `folder`.
  public var fileSystem: String
  /// UDF revision (`2.50`), when UDF.
  public var udfRevision: String?
  /// Volume label.
  public var volumeLabel: String
  /// Image size in bytes (absent for a folder).
  public var imageSize: Int64?
  /// `bluray`, `uhd-bluray`, `avchd`, `dvd` or `data`.
  public var discKind: String
  /// How the image was read (fallbacks, tolerated deviations).
  public var notes: [String]?

  /// The document of an opened image.
  public init(image: DiscImage) {
    path = image.path
    fileSystem = image.fileSystem.kind.rawValue
    udfRevision = image.fileSystem.revision
    volumeLabel = image.fileSystem.volumeLabel
    imageSize = image.source?.size
    discKind = image.kind.rawValue
    notes = image.notes.isEmpty ? nil : image.notes
  }
}
