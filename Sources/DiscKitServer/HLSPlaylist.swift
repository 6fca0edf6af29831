import DiscKit
import Foundation

/// An HLS media playlist (RFC 8216, version 4) of byte-range segments over the 188-byte view of a
/// Blu-ray title's bytes (``TransportStreamView``): segments start at the EP-map random access
/// points about ``targetSeconds`` apart (each moved back over the PAT/PMT packets before it, so
/// every segment starts with PSI), with their real durations (the EP-map times of the points).
public struct HLSPlaylist: Sendable, Hashable {
  /// One segment: a byte range of the view and its duration.
  public struct Segment: Sendable, Hashable {
    /// First byte in the 188-byte view.
    public var offset: Int64
    /// Bytes.
    public var length: Int64
    /// Duration in 90 kHz ticks.
    public var duration90k: UInt64
  }

  /// The segments, in order, covering the whole view.
  public let segments: [Segment]
  /// The wanted segment length.
  public let targetSeconds: Double

  /// The segments of `title` (a Blu-ray title), whose bytes are `size` bytes of 192-byte packets.
  public init(title: BlurayTitle, size: Int64, targetSeconds: Double = 6) throws(DiscKitError) {
    self.targetSeconds = targetSeconds
    let step = UInt64(max(1, targetSeconds) * 90_000)
    let duration = title.duration90k
    // Random access points about `step` apart: (offset in the title's bytes, title time).
    var points: [(offset: Int64, time: UInt64)] = [(0, 0)]
    var t = step
    while t < duration, points.count < 200_000 {
      let rap = title.byteOffset(forTitleTime: t)
      let time = title.titleTime(forByteOffset: rap)
      let start = try title.playbackStart(forTitleTime: t).offset
      if start > points[points.count - 1].offset, time > points[points.count - 1].time,
        start < size
      {
        points.append((start, time))
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
        Segment(offset: from, length: to - from, duration90k: endTime - point.time))
    }
    self.segments = segments
  }

  /// The playlist text; `uri` names the 188-byte stream (relative to the playlist).
  public func text(uri: String) -> String {
    let longest = segments.map(\.duration90k).max() ?? 0
    let target = Int((Double(longest) / 90_000).rounded(.up))
    var lines = [
      "#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:\(max(1, target))",
      "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS",
    ]
    for segment in segments {
      lines.append(String(format: "#EXTINF:%.5f,", Double(segment.duration90k) / 90_000))
      lines.append("#EXT-X-BYTERANGE:\(segment.length)@\(segment.offset)")
      lines.append(uri)
    }
    lines.append("#EXT-X-ENDLIST")
    return lines.joined(separator: "\n") + "\n"
  }
}
