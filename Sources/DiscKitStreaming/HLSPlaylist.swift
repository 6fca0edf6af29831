import DiscKit

/// An HLS media playlist (RFC 8216, version 4) of byte-range segments over the 188-byte view of a
/// title's bytes (``TransportStreamView``): segments start at random access points about
/// ``targetDuration`` apart (each moved back over the PAT/PMT packets before it, so every segment
/// starts with PSI), with their real durations.
///
/// HLS carries MPEG transport streams (and fragmented MP4), so only titles whose bytes are a
/// transport stream have a playlist: every Blu-ray title, cut at its EP-map entries. A DVD title
/// is an MPEG program stream; serving it over HLS would need a remux into a transport stream
/// (new packets, PSI and timestamps, not a byte range of the disc), which this view of the
/// disc's own bytes does not do: ``init(title:targetDuration:)`` refuses it with
/// ``StreamingError/needsTransportStream(title:)`` (404), and DVD titles are served as they are
/// (`video/mpeg`), which players read directly.
public struct HLSPlaylist: Sendable, Hashable {
  /// One segment: a byte range of the view and its duration.
  public struct Segment: Sendable, Hashable {
    /// First byte in the 188-byte view.
    public var offset: Int64
    /// Bytes.
    public var length: Int64
    /// How long the segment plays (from its random access point to the next one's).
    public var duration: MediaTime
  }

  /// The segments, in order, covering the whole view.
  public let segments: [Segment]
  /// The wanted segment duration.
  public let targetDuration: MediaTime

  /// The segments of `title`'s bytes (``DiscKit/DiscTitle/byteSource(timeline:)``, either
  /// timeline: the offsets are the same) seen through ``TransportStreamView``.
  ///
  /// - Throws: ``StreamingError/needsTransportStream(title:)`` for a DVD title;
  ///   ``StreamingError/disc(_:)`` when the title's navigation cannot be read.
  public init(title: DiscTitle, targetDuration: MediaTime = MediaTime(seconds: 6))
    throws(StreamingError)
  {
    guard title.isTransportStream else {
      throw .needsTransportStream(title: title.key)
    }
    self.targetDuration = targetDuration
    do {
      segments = try Self.segments(title, step: max(90_000, targetDuration.ticks))
    } catch {
      throw .disc(error)
    }
  }

  /// Segments about `step` (90 kHz) apart at the random access points of `title`.
  private static func segments(_ title: DiscTitle, step: Int64) throws(DiscKitError)
    -> [Segment]
  {
    let size = title.size
    let duration = title.duration.ticks
    // Random access points about `step` apart: (offset in the title's bytes, title time).
    var points: [(offset: Int64, time: Int64)] = [(0, 0)]
    var t = step
    while t < duration, points.count < 200_000 {
      let start = try title.playbackStart(at: MediaTime(ticks: t))
      let time = start.keyframeTime.ticks
      if start.offset > points[points.count - 1].offset, time > points[points.count - 1].time,
        start.offset < size
      {
        points.append((start.offset, time))
      }
      t += step
    }
    var segments: [Segment] = []
    for (i, point) in points.enumerated() {
      let end = i + 1 < points.count ? points[i + 1].offset : size
      let endTime = i + 1 < points.count ? points[i + 1].time : max(duration, point.time)
      let from = TransportStreamView.viewOffset(point.offset)
      let to = TransportStreamView.viewOffset(end)
      guard to > from else { continue }
      segments.append(
        Segment(
          offset: from, length: to - from, duration: MediaTime(ticks: endTime - point.time)))
    }
    return segments
  }

  /// The playlist text; `uri` names the 188-byte stream (relative to the playlist).
  public func text(uri: String) -> String {
    let longest = segments.map(\.duration).max() ?? .zero
    let target = Int(longest.seconds.rounded(.up))
    var lines = [
      "#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:\(max(1, target))",
      "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS",
    ]
    for segment in segments {
      lines.append("#EXTINF:\(segment.duration.seconds.fixed(5)),")
      lines.append("#EXT-X-BYTERANGE:\(segment.length)@\(segment.offset)")
      lines.append(uri)
    }
    lines.append("#EXT-X-ENDLIST")
    return lines.joined(separator: "\n") + "\n"
  }
}
