/// The listing of every disc a server (`disckit serve`) offers: `GET /discs`.
///
/// JSON Schema: `Sources/DiscKit/Documents/Schemas/disc-list.schema.json`.
public struct DiscListDocument: Codable, Sendable, Hashable {
  /// One disc.
  public struct Disc: Codable, Sendable, Hashable {
    /// The opaque stable id (a hash of ``path``).
    public var id: String
    /// The path relative to the root.
    public var path: String
    /// `bluray`, `uhd-bluray`, `avchd`, `dvd`; null when the disc cannot be opened.
    public var kind: String?
    /// The volume label.
    public var label: String?
    /// The main title's key (`00800`, or a DVD title number), null when there is none.
    public var mainTitle: String?
    /// The main title's duration in 90 kHz ticks.
    public var duration90k: Int64?
    /// Why the disc cannot be opened (DiscKit's error line), absent when it opens.
    public var error: String?

    /// Creates a row.
    public init(
      id: String, path: String, kind: String?, label: String?, mainTitle: String?,
      duration90k: Int64?, error: String?
    ) {
      self.id = id
      self.path = path
      self.kind = kind
      self.label = label
      self.mainTitle = mainTitle
      self.duration90k = duration90k
      self.error = error
    }
  }

  /// The discs, by path.
  public var discs: [Disc]

  /// Creates the listing.
  public init(discs: [Disc]) { self.discs = discs }
}
