import DiscKit

/// The bytes a stream URL serves: one title (at an angle, from a start time) of an opened disc,
/// as its own resource with its own validators.
public struct TitleResource: Sendable {
  /// Which timeline the bytes follow.
  public enum Timeline: String, Sendable, CaseIterable {
    /// The title's bytes as on the disc (each clip keeps its own PTS epoch).
    case original
    /// One continuous PTS timeline across clips (not available yet).
    case continuous
  }

  /// The title.
  public let title: DiscTitle
  /// The resource's bytes (from the playback start when one was asked for).
  public let source: any ByteSource
  /// The resource's size in bytes.
  public var length: Int64 { source.size }
  /// Where the resource starts in the title's bytes (``DiscTitle/PlaybackStart/offset``; 0 for
  /// the whole title).
  public let titleOffset: Int64
  /// `video/mp2t` (Blu-ray) or `video/mpeg` (DVD).
  public let contentType: String
  /// The strong entity tag: the disc's identity, the title, the angle, the timeline and the start.
  public let eTag: String
  /// `Last-Modified`: the disc's modification time.
  public let lastModified: String

  /// Resolves `key` of `disc`.
  ///
  /// - Parameters:
  ///   - angle: 1-based.
  ///   - start: serve from the random access point at or before this title time, PAT/PMT first
  ///     (``DiscTitle/byteSource(startingAt:)``: on a Blu-ray the PSI prefix of a non-seamless clip
  ///     is sent first; on a DVD the VOBU playing then).
  /// - Throws: ``DiscKitError/Code/notFound`` for an unknown key, ``DiscKitError/Code/invalidArgument``
  ///   for a bad angle, the disc's error for a damaged title.
  public init(
    disc: OpenedDisc, key: String, angle: Int = 1, start: MediaTime? = nil,
    timeline: Timeline = .original
  ) throws(DiscKitError) {
    guard timeline == .original else {
      throw DiscKitError(
        .unsupported, "timeline=\(timeline.rawValue)", at: nil,
        "the continuous timeline is not available yet; use timeline=original")
    }
    guard TitleKey.number(key) != nil else {
      throw DiscKitError(
        .notFound, "title \(key.prefix(40))", at: nil,
        "not a title key (a playlist number such as 00800, or a DVD title number)")
    }
    title = try disc.disc.title(key: key, angle: angle)
    if let start {
      titleOffset = try title.playbackStart(at: start).offset
      source = try title.byteSource(startingAt: start)
    } else {
      titleOffset = 0
      source = try title.byteSource()
    }
    contentType = disc.isBluray ? "video/mp2t" : "video/mpeg"
    eTag =
      "\"\(disc.identity.digest)-\(title.key)-a\(angle)-\(timeline.rawValue)-\(titleOffset)-\(source.size)\""
    lastModified = HTTPDate.format(secondsSince1970: disc.identity.modifiedSeconds)
  }
}
