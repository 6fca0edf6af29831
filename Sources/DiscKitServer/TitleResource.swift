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

  /// The source the resource is read from.
  public let source: any ByteSource
  /// Where the resource starts in ``source``.
  public let start: Int64
  /// The resource's size in bytes.
  public var length: Int64 { source.size - start }
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
  ///   - startSeconds: serve from the random access point at or before this title time, PAT/PMT
  ///     first (Blu-ray: ``BlurayTitle/playbackStart(forTitleTime:)`` with the PSI prefix spliced
  ///     in; DVD: the VOBU playing then, ``DVDDisc/timeSeek(in:titleSet:to:)``).
  /// - Throws: ``DiscKitError/Code/notFound`` for an unknown key, ``DiscKitError/Code/invalidArgument``
  ///   for a bad angle, time or timeline, the disc's error for a damaged title.
  public init(
    disc: OpenedDisc, key: String, angle: Int = 1, startSeconds: Double? = nil,
    timeline: Timeline = .original
  ) throws(DiscKitError) {
    guard timeline == .original else {
      throw DiscKitError(
        .unsupported, "timeline=\(timeline.rawValue)", at: nil,
        "the continuous timeline is not available yet; use timeline=original")
    }
    guard angle >= 1, angle <= 9 else {
      throw DiscKitError(.invalidArgument, "angle", at: nil, "\(angle) is not an angle (1-9)")
    }
    var start90k: UInt64?
    if let startSeconds {
      guard startSeconds.isFinite, startSeconds >= 0, startSeconds < 1e7 else {
        throw DiscKitError(
          .invalidArgument, "start", at: nil, "\(startSeconds) is not a time in the title")
      }
      start90k = UInt64((startSeconds * 90_000).rounded())
    }
    let number = try Self.number(key)
    switch disc.navigation {
    case .bluray(let bluray):
      guard let file = bluray.playlistFile(number: number) else {
        throw DiscKitError(.notFound, "playlist \(key)", at: nil, "no such playlist on the disc")
      }
      let title = try bluray.title(playlist: file.name, angle: angle - 1)
      if angle > max(1, title.angleCount) {
        throw DiscKitError(
          .invalidArgument, "angle", at: nil, "title \(title.name) has \(title.angleCount) angle(s)")
      }
      let titleSource = try title.byteSource()
      if let start90k {
        let spliced = try title.playbackStart(forTitleTime: start90k).splice(into: titleSource)
        source = spliced.source
        start = spliced.offset
      } else {
        source = titleSource
        start = 0
      }
      contentType = "video/mp2t"
    case .dvd(let dvd):
      guard number >= 1, number <= dvd.titles.count else {
        throw DiscKitError(.notFound, "title \(key)", at: nil, "no such title on the disc")
      }
      let title = try dvd.title(number)
      if angle > max(1, title.angleCount) {
        throw DiscKitError(
          .invalidArgument, "angle", at: nil, "title \(number) has \(title.angleCount) angle(s)")
      }
      let titleSource = try dvd.byteSource(title: number, angle: angle)
      source = titleSource
      if let start90k {
        start = try dvd.timeSeek(
          in: titleSource, titleSet: title.titleSet, to: Int64(start90k)
        ).offset
      } else {
        start = 0
      }
      contentType = "video/mpeg"
    }
    let canonical = disc.isBluray ? TitleKey.playlistKey(number) : String(number)
    eTag = "\"\(disc.identity.digest)-\(canonical)-a\(angle)-\(timeline.rawValue)-\(start)\""
    lastModified = HTTPDate.format(secondsSince1970: disc.identity.modifiedSeconds)
  }

  /// The number in a title key; ``DiscKitError/Code/notFound`` when it is not one.
  static func number(_ key: String) throws(DiscKitError) -> Int {
    guard let number = TitleKey.number(key) else {
      throw DiscKitError(
        .notFound, "title \(key.prefix(40))", at: nil,
        "not a title key (a playlist number such as 00800, or a DVD title number)")
    }
    return number
  }
}

extension OpenedDisc {
  /// Whether the disc is a Blu-ray.
  public var isBluray: Bool {
    if case .bluray = navigation { return true }
    return false
  }
}
