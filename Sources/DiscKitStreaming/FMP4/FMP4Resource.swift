import DiscKit

/// One file of a title's fMP4 HLS (a playlist, an init segment or a media segment) as a server
/// answers it: bytes that are a function of the disc's bytes and the URL alone, so the `ETag`
/// names the disc, title, angle and file, and everything may be cached for long.
package struct FMP4Resource: Sendable {
  package var contentType: String
  /// The bytes of a playlist or an init segment (empty for a media segment).
  package var body: [UInt8]
  /// A media segment, planned: its bytes are written a buffer at a time (``FMP4Segment/source``).
  package var segment: FMP4Segment?
  /// The size of the file.
  package var size: Int64 { segment?.size ?? Int64(body.count) }
  package var eTag: String
  /// `Cache-Control`: segments and init segments never change for a disc (a year, immutable);
  /// playlists are as stable but kept for a day, so that a new version of the server is seen.
  package var cacheControl: String

  /// The file named `name` (below `…/titles/{key}/fmp4/`) of `title`; `query` (`""` or `?…`) is
  /// appended to the URIs a playlist names; `digest` is the disc's identity.
  ///
  /// - Throws: ``StreamingError/disc(_:)`` with ``DiscKit/DiscKitError/Code/notFound`` for a
  ///   name that is no file of the title, or the disc's read errors.
  package init(title: FMP4Title, name: String, query: String, digest: String)
    throws(StreamingError)
  {
    var tag = "\(digest)-\(title.key)-a\(title.angle)-fmp4v1\(title.tagSuffix)-\(name)"
    // A transcoded segment's or playlist's bytes are the codec library's: its version names
    // them too (asking it loads the library: not for an init segment, whose sample entry the
    // stream's headers give).
    if title.transcodes(name), let version = title.transcoder?.version {
      tag += "-" + version
    }
    eTag = "\"" + String(tag.filter { $0 != "\"" }) + "\""
    let stem: Substring
    let ext: Substring
    if let dot = name.lastIndex(of: ".") {
      stem = name[..<dot]
      ext = name[name.index(after: dot)...]
    } else {
      throw Self.missing(name)
    }
    let parts = stem.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
    func pid(_ text: String) throws(StreamingError) -> FMP4Title.Rendition {
      guard let rendition = title.rendition(kind: parts[0], pid: text) else {
        throw Self.missing(name)
      }
      return rendition
    }
    let audioKinds: Set<String> = ["audio", "aac", "flac"]
    func index(_ text: String) throws(StreamingError) -> Int {
      guard let value = Int(text), value >= 0, value < title.segments.count,
        String(value) == text
      else { throw Self.missing(name) }
      return value
    }
    switch (ext, parts.count) {
    case ("m3u8", 1) where parts[0] == "video":
      body = Array(try title.mediaPlaylist(.video, query: query).utf8)
    case ("m3u8", 1) where parts[0] == "dv":
      body = Array(try title.mediaPlaylist(.dolbyVision, query: query).utf8)
    case ("m3u8", 1) where parts[0] == "iframes":
      body = Array(try title.mediaPlaylist(.video, iFrames: true, query: query).utf8)
    case ("m3u8", 2) where audioKinds.contains(parts[0]):
      body = Array(try title.mediaPlaylist(try pid(parts[1]), query: query).utf8)
    case ("mp4", 2) where parts[0] == "video" && parts[1] == "init":
      body = try title.initSegment(.video)
    case ("mp4", 2) where parts[0] == "dv" && parts[1] == "init":
      body = try title.initSegment(.dolbyVision)
    case ("mp4", 3) where audioKinds.contains(parts[0]) && parts[2] == "init":
      body = try title.initSegment(try pid(parts[1]))
    case ("m4s", 2) where parts[0] == "video":
      body = []
      segment = try title.segment(.video, index: try index(parts[1]))
    case ("m4s", 2) where parts[0] == "dv" && title.dolbyVision != nil:
      body = []
      segment = try title.segment(.dolbyVision, index: try index(parts[1]))
    case ("m4s", 2) where parts[0] == "iframe":
      body = []
      segment = try title.segment(.video, index: try index(parts[1]), keyFrameOnly: true)
    case ("m4s", 3) where audioKinds.contains(parts[0]):
      body = []
      segment = try title.segment(try pid(parts[1]), index: try index(parts[2]))
    default:
      throw Self.missing(name)
    }
    switch ext {
    case "m3u8":
      contentType = "application/vnd.apple.mpegurl"
      cacheControl = "public, max-age=86400"
    case "mp4":
      contentType = "video/mp4"
      cacheControl = "public, max-age=31536000, immutable"
    default:
      contentType = "video/iso.segment"
      cacheControl = "public, max-age=31536000, immutable"
    }
  }

  static func missing(_ name: String) -> StreamingError {
    .disc(
      DiscKitError(
        .notFound, "fMP4 file \(name.prefix(60))", at: nil,
        "not a file of this title's fMP4 HLS (video.m3u8, iframes.m3u8, dv.m3u8, audio-PID.m3u8, aac-PID.m3u8, flac-PID.m3u8, *-init.mp4, *-N.m4s)"
      ))
  }
}

/// The fMP4 plans of the titles served lately (planning reads the title's first segment and
/// each segment's start), least recently used first out; clients asking at once for a title not
/// yet planned share one planning.
package final class FMP4TitleCache: Sendable {
  package var capacity: Int { plans.capacity }
  let plans: SingleFlightCache<String, FMP4Title>

  package init(capacity: Int) { plans = SingleFlightCache(capacity: capacity) }

  /// The cached plan for `key`, if any (never blocks).
  package func cached(_ key: String) -> FMP4Title? { plans.cached(key) }

  /// The plan for `key`, made by `make` when not cached and not being made by another caller
  /// (then its plan is waited for).
  package func title(_ key: String, make: () throws(StreamingError) -> FMP4Title)
    throws(StreamingError) -> FMP4Title
  {
    try plans.value(key, make: make)
  }
}

extension FMP4Resource {
  /// The title's multivariant playlist (`master.m3u8`).
  package init(multivariantOf title: FMP4Title, query: String, digest: String) {
    contentType = "application/vnd.apple.mpegurl"
    cacheControl = "public, max-age=86400"
    body = Array(title.multivariantPlaylist(query: query).utf8)
    // The renditions it lists come from the stream's headers, not from the codec library
    // (whose version would load it): a transcoder only adds `-t`.
    eTag =
      "\"\(digest)-\(title.key)-a\(title.angle)-fmp4v1\(title.tagSuffix)-master\(title.transcoder == nil ? "" : "-t")\""
  }
}

extension FMP4Title {
  /// Whether the file `name` is made by the transcoder (an AAC or FLAC media segment, or its
  /// media playlist, which plans the rendition's last segment); not its init segment.
  package func transcodes(_ name: String) -> Bool {
    transcoder != nil && (name.hasPrefix("aac-") || name.hasPrefix("flac-"))
      && !name.hasSuffix("-init.mp4")
  }

  /// What the entity tags add for the timeline (nothing for the default, continuous one).
  var tagSuffix: String { timeline == .original ? "-original" : "" }
}
