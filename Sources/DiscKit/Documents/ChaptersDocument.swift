/// A title's chapters as a server (`disckit serve`) lists them, each with the stream URL that
/// starts there: `GET /discs/{id}/titles/{key}/chapters`.
///
/// JSON Schema: `Sources/DiscKit/Documents/Schemas/chapters.schema.json`.
public struct ChaptersDocument: Codable, Sendable, Hashable {
  /// One chapter.
  public struct Chapter: Codable, Sendable, Hashable {
    /// 1-based.
    public var number: Int
    /// Title time of its start, 90 kHz.
    public var start90k: Int64
    /// Its duration, 90 kHz.
    public var duration90k: Int64
    /// Where it starts in the title's bytes (the stream URL without `start=`), when known.
    public var offset: Int64?
    /// The stream URL starting at this chapter (relative to the disc routes).
    public var stream: String

    /// Creates a chapter row.
    public init(number: Int, start90k: Int64, duration90k: Int64, offset: Int64?, stream: String) {
      self.number = number
      self.start90k = start90k
      self.duration90k = duration90k
      self.offset = offset
      self.stream = stream
    }
  }

  /// The title key.
  public var title: String
  /// The chapters in order.
  public var chapters: [Chapter]

  /// Creates the document.
  public init(title: String, chapters: [Chapter]) {
    self.title = title
    self.chapters = chapters
  }
}
