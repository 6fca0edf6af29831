/// One disc as a server (`disckit serve`) describes it: `GET /discs/{id}`.
///
/// The fields of ``InfoDocument`` (the document of `disckit info --json`, with the path relative
/// to the server's root) at the top level, plus the disc's id, its main title and duration.
/// JSON Schema: `Sources/DiscKit/Documents/Schemas/disc-info.schema.json`.
public struct DiscInfoDocument: Codable, Sendable, Hashable {
  /// The disc's id.
  public var id: String
  /// The info document (its `path` relative to the root); encoded at the top level.
  public var info: InfoDocument
  /// The main title's key.
  public var mainTitle: String?
  /// The main title's duration in 90 kHz ticks.
  public var duration90k: Int64?

  /// The document of the disc in `image`, listed as `path` under the id `id`.
  public init(id: String, path: String, image: DiscImage, mainTitle: String?, duration: MediaTime?)
  {
    self.id = id
    info = InfoDocument(image: image)
    info.path = path
    self.mainTitle = mainTitle
    duration90k = duration?.ticks
  }

  private enum Key: String, CodingKey { case id, mainTitle, duration90k }

  /// Decodes the flat JSON object.
  public init(from decoder: any Decoder) throws {
    info = try InfoDocument(from: decoder)
    let container = try decoder.container(keyedBy: Key.self)
    id = try container.decode(String.self, forKey: .id)
    mainTitle = try container.decodeIfPresent(String.self, forKey: .mainTitle)
    duration90k = try container.decodeIfPresent(Int64.self, forKey: .duration90k)
  }

  /// Encodes the info fields and the server's fields in one JSON object.
  public func encode(to encoder: any Encoder) throws {
    try info.encode(to: encoder)
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(id, forKey: .id)
    try container.encodeIfPresent(mainTitle, forKey: .mainTitle)
    try container.encodeIfPresent(duration90k, forKey: .duration90k)
  }
}
