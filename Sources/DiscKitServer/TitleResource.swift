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
    let whole = try title.byteSource(timeline: timeline)
    var source: any ByteSource
    if let start {
      let playback = try title.playbackStart(at: start)
      titleOffset = min(max(playback.offset, 0), whole.size)
      var parts: [ConcatenatedByteSource.Extent] = []
      if !playback.prefix.isEmpty {
        let prefix = try Self.prefix(playback.prefix, at: titleOffset, of: whole)
        parts.append(.init(source: prefix, offset: 0, length: prefix.size))
      }
      parts.append(.init(source: whole, offset: titleOffset, length: whole.size - titleOffset))
      source = try ConcatenatedByteSource(parts, structure: "title \(title.key) from \(start)")
    } else {
      titleOffset = 0
      source = whole
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

  /// The PSI packets a non-seamless clip needs before `offset`, with their timestamps (PCR) moved
  /// and their continuity counters renumbered like those of the clip they belong to when `whole`
  /// is a continuous timeline.
  static func prefix(_ bytes: [UInt8], at offset: Int64, of whole: any ByteSource)
    throws(DiscKitError) -> any ByteSource
  {
    let memory = MemoryByteSource(bytes)
    guard let continuous = whole as? ContinuousTimelineByteSource,
      let index = continuous.shifts.firstIndex(where: { $0.start <= offset && offset < $0.end })
    else { return memory }
    let count = Int64(bytes.count)
    // The prefix's PSI packets get the counters of the clip they come from.
    let joins =
      continuous.joins.isEmpty
      ? []
      : [
        TransportStreamJoin(
          start: 0, end: count, renumbering: continuous.joins[index].renumbering, nulling: [])
      ]
    return try ContinuousTimelineByteSource(
      base: memory,
      shifts: [TimestampShift(start: 0, end: count, delta90k: continuous.shifts[index].delta90k)],
      layout: continuous.layout, joins: joins)
  }
}
