/// A server's (`disckit serve`) load: `GET /status`.
///
/// JSON Schema: `Sources/DiscKit/Documents/Schemas/status.schema.json`.
public struct StatusDocument: Codable, Sendable, Hashable {
  /// Streams being served now.
  public var activeStreams: Int
  /// The most streams served at once (more get 503).
  public var maxStreams: Int
  /// Streams served since the start.
  public var streamsServed: Int
  /// Discs held open.
  public var openDiscs: Int

  /// Creates the document.
  public init(activeStreams: Int, maxStreams: Int, streamsServed: Int, openDiscs: Int) {
    self.activeStreams = activeStreams
    self.maxStreams = maxStreams
    self.streamsServed = streamsServed
    self.openDiscs = openDiscs
  }
}
