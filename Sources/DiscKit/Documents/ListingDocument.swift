/// The document `disckit ls --json` prints: files of a disc image or folder.
///
/// JSON Schema: `Sources/DiscKit/Documents/Schemas/listing.schema.json`.
public struct ListingDocument: Codable, Sendable, Hashable {
  /// One file or directory.
  public struct Entry: Codable, Sendable, Hashable {
    /// Absolute path from the image root.
    public var path: String
    /// Size in bytes (0 for directories).
    public var size: Int64
    /// Whether it is a directory.
    public var isDirectory: Bool
  }

  /// The entries, in listing order.
  public var entries: [Entry]

  /// The entries of `path` (the file itself when it is not a directory), recursively if asked.
  public init(image: DiscImage, path: String = "/", recursive: Bool = false)
    throws(DiscKitError)
  {
    let fs = image.fileSystem
    let entry = try fs.entry(atPath: path)
    let entries: [DiscFileEntry]
    if !entry.isDirectory {
      entries = [entry]
    } else if recursive {
      entries = try fs.recursiveContents(atPath: entry.path)
    } else {
      entries = try fs.contentsOfDirectory(atPath: entry.path)
    }
    self.entries = entries.map {
      Entry(path: $0.path, size: $0.size, isDirectory: $0.isDirectory)
    }
  }
}
