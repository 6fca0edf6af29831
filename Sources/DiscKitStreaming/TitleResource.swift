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
  /// `video/mp2t` (a transport stream: Blu-ray) or `video/mpeg` (a program stream: DVD).
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
  ///     (``DiscKit/DiscTitle/byteSource(timeline:startingAt:)``: on a Blu-ray the PSI prefix of
  ///     a non-seamless clip is sent first, on the same timeline; on a DVD the VOBU playing then).
  ///   - timeline: ``DiscKit/TitleTimeline/continuous`` (as `disckit extract`) or the disc's
  ///     bytes as they are (``DiscKit/TitleTimeline/original``).
  ///   - plainTransportStream: serve 188-byte packets (``TransportStreamView``), as HLS needs.
  /// - Throws: ``StreamingError/disc(_:)`` with ``DiscKit/DiscKitError/Code/notFound`` for an
  ///   unknown key, ``DiscKit/DiscKitError/Code/invalidArgument`` for a bad angle, or the disc's
  ///   error for a damaged title; ``StreamingError/needsTransportStream(title:)`` for the 188-byte
  ///   view of a title that is not a transport stream (DVD).
  public init(
    disc: OpenedDisc, key: String, angle: Int = 1, start: MediaTime? = nil,
    timeline: TitleTimeline = .continuous, plainTransportStream: Bool = false
  ) throws(StreamingError) {
    guard TitleKey.isTitle(key) else {
      throw .disc(
        DiscKitError(
          .notFound, "title \(key.prefix(40))", at: nil,
          "not a title key (a playlist number such as 00800, a DVD title number, an episode such as 00002:e3)"
        ))
    }
    do {
      title = try disc.disc.title(key: key, angle: angle)
      if plainTransportStream, !title.isTransportStream {
        throw StreamingError.needsTransportStream(title: title.key)
      }
      var source: any ByteSource
      if let start {
        let playback = try title.playbackStart(at: start)
        source = try title.byteSource(timeline: timeline, from: playback)
        titleOffset = max(playback.offset, 0)
      } else {
        titleOffset = 0
        source = try title.byteSource(timeline: timeline)
      }
      if plainTransportStream { source = TransportStreamView(source) }
      self.source = source
    } catch let error as StreamingError {
      throw error
    } catch let error as DiscKitError {
      throw .disc(error)
    } catch {
      throw .disc(DiscKitError(.io, "title \(key)", at: nil, "\(error)"))
    }
    contentType = title.isTransportStream ? "video/mp2t" : "video/mpeg"
    eTag =
      "\"\(disc.identity.digest)-\(title.key)-a\(angle)-\(timeline.rawValue)-\(titleOffset)-\(source.size)\(plainTransportStream ? "-ts" : "")\""
    lastModified = HTTPDate.format(secondsSince1970: disc.identity.modifiedSeconds)
  }
}
