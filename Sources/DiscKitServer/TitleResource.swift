import DiscKit

/// The bytes a stream URL serves: one title (at an angle, from a start time) of an opened disc,
/// as its own resource with its own validators.
public struct TitleResource: Sendable {
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
  ///   - timeline: ``TitleTimeline/continuous`` (as `disckit extract`) or the disc's bytes as they
  ///     are (``TitleTimeline/original``).
  ///   - plainTransportStream: serve 188-byte packets (``TransportStreamView``; Blu-ray only).
  ///   - start: serve from the random access point at or before this title time, PAT/PMT first
  ///     (``DiscTitle/byteSource(startingAt:)``: on a Blu-ray the PSI prefix of a non-seamless clip
  ///     is sent first; on a DVD the VOBU playing then).
  /// - Throws: ``DiscKitError/Code/notFound`` for an unknown key, ``DiscKitError/Code/invalidArgument``
  ///   for a bad angle, the disc's error for a damaged title.
  public init(
    disc: OpenedDisc, key: String, angle: Int = 1, start: MediaTime? = nil,
    timeline: TitleTimeline = .continuous, plainTransportStream: Bool = false
  ) throws(DiscKitError) {
    guard TitleKey.number(key) != nil else {
      throw DiscKitError(
        .notFound, "title \(key.prefix(40))", at: nil,
        "not a title key (a playlist number such as 00800, or a DVD title number)")
    }
    title = try disc.disc.title(key: key, angle: angle)
    var source: any ByteSource
    if let start {
      let playback = try title.playbackStart(at: start)
      source = try title.byteSource(timeline: timeline, from: playback)
      titleOffset = max(playback.offset, 0)
    } else {
      titleOffset = 0
      source = try title.byteSource(timeline: timeline)
    }
    if plainTransportStream {
      guard disc.isBluray else {
        throw DiscKitError(
          .notFound, "title \(key)", at: nil, "188-byte streams and HLS are for Blu-ray titles")
      }
      source = TransportStreamView(source)
    }
    self.source = source
    contentType = disc.isBluray ? "video/mp2t" : "video/mpeg"
    eTag =
      "\"\(disc.identity.digest)-\(title.key)-a\(angle)-\(timeline.rawValue)-\(titleOffset)-\(source.size)\(plainTransportStream ? "-ts" : "")\""
    lastModified = HTTPDate.format(secondsSince1970: disc.identity.modifiedSeconds)
  }
}
