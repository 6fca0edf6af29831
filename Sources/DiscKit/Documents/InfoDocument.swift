/// The document `disckit info` prints as JSON and `GET /discs/{id}` serves: the file system, UDF
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
    // Lenient UDF reads (deviations libudfread tolerates) are found by opening every file entry.
    // The exact type first: a failing `as?` runs the runtime's bridging fallbacks (slow once).
    let udf =
      type(of: image.fileSystem) == UDFFileSystem.self ? image.fileSystem as? UDFFileSystem : nil
    let all = image.notes + (udf?.checkDeviations() ?? [])
    notes = all.isEmpty ? nil : all
  }
}
